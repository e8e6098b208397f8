import {
  getResource,
  MAX_REPORT_DAYS,
  type MaintenanceReportRequest,
  type MaintenanceReportRow,
} from '@lampyr/contract';
import { Alert, Card, Col, DatePicker, Empty, Flex, Row, Select, Statistic } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { useMaintenanceReport } from '../../data/reports.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { ReportToolbar } from '../reports-analytics/report-toolbar.tsx';

const faults = getResource('report-a-fault');
type GroupBy = NonNullable<MaintenanceReportRequest['groupBy']>;
const GROUPS: GroupBy[] = ['faultType', 'region'];
const PAGE_SIZE = 20;

/**
 * Maintenance → Maintenance KPIs: work orders open now, what was reported, repaired, closed and
 * reopened in a period (days of the account's calendar), the mean time to repair (report →
 * resolution) and to close, by fault type or by region; for the account or one region. The
 * server's maintenance report, so it exports (CSV, XLSX, PDF with its chart) and saves as a
 * template like the other reports.
 */
export default function MaintenanceKpiPage() {
  const { t, i18n } = useTranslation();
  const labels = useResourceLabels(faults);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day'), dayjs()]);
  const [groupBy, setGroupBy] = useState<GroupBy>('faultType');
  const [regionId, setRegionId] = useState<number>();
  const [page, setPage] = useState(0);
  const body: MaintenanceReportRequest = {
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
    groupBy,
    ...(regionId ? { regionId } : {}),
    page,
    size: PAGE_SIZE,
  };
  const report = useMaintenanceReport(body);
  const data = report.data;
  const number = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }), [i18n.language]);
  // A mean under an hour reads in minutes, else in hours.
  const duration = (v: number | null | undefined) =>
    v === null || v === undefined
      ? { value: '–' }
      : v < 1
        ? { value: number.format(v * 60), suffix: t('workOrders.minutes') }
        : { value: number.format(v), suffix: t('workOrders.hours') };
  const durationText = (v: number | null | undefined) => {
    const d = duration(v);
    return d.suffix ? `${d.value} ${d.suffix}` : d.value;
  };
  const label = (row: MaintenanceReportRow) => {
    if (groupBy === 'faultType') return labels.option('faultType', row.key);
    return row.label || t('workOrders.noRegion');
  };
  const reset = () => setPage(0);
  const count = (key: keyof MaintenanceReportRow) => ({
    key,
    dataIndex: key,
    align: 'right' as const,
    render: (v: number) => number.format(v),
  });

  return (
    <Flex vertical gap={16}>
      <Card>
        <ScreenTitle title={t('workOrders.kpiTitle')}>
          <ReportToolbar kind="maintenance" request={body} disabled={!data || report.isError} />
        </ScreenTitle>
        <Flex wrap gap={8} align="center" style={{ marginTop: 12 }}>
          <DatePicker.RangePicker
            aria-label={t('workOrders.period')}
            value={range}
            allowClear={false}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            presets={[
              { label: t('reports.presets.week'), value: [dayjs().subtract(6, 'day'), dayjs()] },
              { label: t('reports.presets.month'), value: [dayjs().subtract(29, 'day'), dayjs()] },
              { label: t('reports.presets.year'), value: [dayjs().subtract(364, 'day'), dayjs()] },
            ]}
            onChange={(next) => {
              if (next?.[0] && next[1]) {
                setRange([next[0], next[1]]);
                reset();
              }
            }}
          />
          <Select<GroupBy>
            aria-label={t('savings.groupByLabel')}
            value={groupBy}
            style={{ minWidth: 150 }}
            options={GROUPS.map((g) => ({ value: g, label: t(`common:reports.groupBy.maintenance.${g}`) }))}
            onChange={(g) => {
              setGroupBy(g);
              reset();
            }}
          />
          <div style={{ width: 220 }}>
            <ReferenceSelect
              prefix="regions"
              aria-label={t('workOrders.region')}
              placeholder={t('workOrders.allRegions')}
              value={regionId ?? null}
              onChange={(v) => {
                setRegionId(typeof v === 'number' ? v : undefined);
                reset();
              }}
            />
          </div>
        </Flex>
        <p style={{ marginBottom: 0, marginTop: 12 }}>{t('workOrders.kpiHint', { days: MAX_REPORT_DAYS })}</p>
      </Card>
      {report.isError && <Alert type="error" showIcon role="alert" title={errorMessage(report.error, t)} />}
      {[
        [
          ['openNow', data?.totals.open],
          ['reported', data?.totals.reported],
          ['resolved', data?.totals.resolved],
          ['closed', data?.totals.closed],
          ['reopened', data?.totals.reopened],
        ] as const,
        [
          ['mttr', data?.totals.mttrHours],
          ['mttc', data?.totals.mttcHours],
        ] as const,
      ].map((group, row) => (
        <Row key={row === 0 ? 'counts' : 'times'} gutter={[16, 16]}>
          {group.map(([key, value]) => (
            <Col key={key} flex="1 1 160px">
              <Card size="small" data-testid={`kpi-${key}`}>
                {row === 0 ? (
                  <Statistic title={t(`workOrders.kpi.${key}`)} value={value ?? 0} loading={report.isPending} />
                ) : (
                  <Statistic title={t(`workOrders.kpi.${key}`)} {...duration(value)} loading={report.isPending} />
                )}
              </Card>
            </Col>
          ))}
        </Row>
      ))}
      {data && (
        <Card title={t(groupBy === 'faultType' ? 'workOrders.byType' : 'workOrders.byRegion')} size="small">
          {data.rows.length ? (
            <>
              <BarChart
                categories={data.rows.map(label)}
                series={[
                  { name: t('workOrders.kpi.reported'), type: 'bar', values: data.rows.map((r) => r.reported) },
                  { name: t('workOrders.kpi.resolved'), type: 'bar', values: data.rows.map((r) => r.resolved) },
                  { name: t('workOrders.kpi.openNow'), type: 'bar', values: data.rows.map((r) => r.open) },
                ]}
                label={t('workOrders.faults')}
                unit=""
                format={(v) => number.format(v)}
                height={260}
              />
              <ScrollTable<MaintenanceReportRow>
                size="small"
                rowKey="key"
                scroll={{ x: 'max-content' }}
                loading={report.isFetching}
                dataSource={data.rows}
                columns={[
                  {
                    key: 'label',
                    title: t(`common:reports.groupBy.maintenance.${groupBy}`),
                    render: (_: unknown, r) => label(r),
                  },
                  { ...count('open'), title: t('workOrders.kpi.openNow') },
                  { ...count('reported'), title: t('workOrders.kpi.reported') },
                  { ...count('resolved'), title: t('workOrders.kpi.resolved') },
                  { ...count('closed'), title: t('workOrders.kpi.closed') },
                  { ...count('reopened'), title: t('workOrders.kpi.reopened') },
                  {
                    key: 'mttrHours',
                    title: t('workOrders.kpi.mttr'),
                    dataIndex: 'mttrHours',
                    align: 'right' as const,
                    render: durationText,
                  },
                  {
                    key: 'mttcHours',
                    title: t('workOrders.kpi.mttc'),
                    dataIndex: 'mttcHours',
                    align: 'right' as const,
                    render: durationText,
                  },
                ]}
                pagination={{
                  current: page + 1,
                  pageSize: PAGE_SIZE,
                  total: data.totalRows,
                  showSizeChanger: false,
                  hideOnSinglePage: true,
                  onChange: (p) => setPage(p - 1),
                }}
              />
            </>
          ) : (
            <Empty description={t('workOrders.noFaults')} />
          )}
        </Card>
      )}
    </Flex>
  );
}
