import { FAULT_KPI_MAX_DAYS, getResource } from '@lampyr/contract';
import { Alert, Card, Col, DatePicker, Empty, Flex, Row, Spin, Statistic } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { useFaultKpi } from '../../data/work-orders.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { ScrollTable } from '../../resources/scroll-table.tsx';

const faults = getResource('report-a-fault');

/**
 * Maintenance → Maintenance KPIs: open faults now, what was reported, repaired, closed and reopened
 * in a period, the mean time to repair (report → resolution) and to close, by fault type and by
 * region; for the account or one region. (Export to CSV/XLSX/PDF is the reports' work, not here yet.)
 */
export default function MaintenanceKpiPage() {
  const { t, i18n } = useTranslation();
  const labels = useResourceLabels(faults);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day').startOf('day'), dayjs()]);
  const [regionId, setRegionId] = useState<number>();
  const body = useMemo(
    () => ({
      from: range[0].startOf('day').toISOString(),
      to: range[1].endOf('day').toISOString(),
      ...(regionId ? { regionId } : {}),
    }),
    [range, regionId],
  );
  const kpi = useFaultKpi(body);
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  // A mean under an hour reads in minutes, else in hours.
  const duration = (v: number | null | undefined) =>
    v === null || v === undefined
      ? { value: '–' }
      : v < 1
        ? { value: number.format(v * 60), suffix: t('workOrders.minutes') }
        : { value: number.format(v), suffix: t('workOrders.hours') };
  const data = kpi.data;
  const typeLabel = (v: string) => labels.option('faultType', v);
  const regionLabel = (r: { regionName: string | null }) => r.regionName ?? t('workOrders.noRegion');

  return (
    <Flex vertical gap={16}>
      <Card>
        <ScreenTitle title={t('workOrders.kpiTitle')}>
          <DatePicker.RangePicker
            aria-label={t('workOrders.period')}
            value={range}
            allowClear={false}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            onChange={(next) => {
              if (next?.[0] && next[1]) setRange([next[0], next[1]]);
            }}
          />
          <div style={{ width: 220 }}>
            <ReferenceSelect
              prefix="regions"
              aria-label={t('workOrders.region')}
              placeholder={t('workOrders.allRegions')}
              value={regionId ?? null}
              onChange={(v) => setRegionId(typeof v === 'number' ? v : undefined)}
            />
          </div>
        </ScreenTitle>
        <p style={{ marginBottom: 0 }}>{t('workOrders.kpiHint', { days: FAULT_KPI_MAX_DAYS })}</p>
      </Card>
      {kpi.isError && <Alert type="error" showIcon role="alert" title={errorMessage(kpi.error, t)} />}
      {!data ? (
        <Card>{kpi.isPending ? <Spin aria-label={t('state.loading')} /> : <Empty />}</Card>
      ) : (
        <>
          {[
            [
              ['openNow', data.openNow],
              ['reported', data.reported],
              ['resolved', data.resolved],
              ['closed', data.closed],
              ['reopened', data.reopened],
            ] as const,
            [
              ['mttr', data.meanTimeToRepairHours],
              ['mttc', data.meanTimeToCloseHours],
            ] as const,
          ].map((group, row) => (
            <Row key={row === 0 ? 'counts' : 'times'} gutter={[16, 16]}>
              {group.map(([key, value]) => (
                <Col key={key} flex="1 1 160px">
                  <Card size="small" data-testid={`kpi-${key}`}>
                    {row === 0 ? (
                      <Statistic title={t(`workOrders.kpi.${key}`)} value={value ?? 0} />
                    ) : (
                      <Statistic title={t(`workOrders.kpi.${key}`)} {...duration(value)} />
                    )}
                  </Card>
                </Col>
              ))}
            </Row>
          ))}
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              <Card title={t('workOrders.byType')} size="small">
                {data.byType.length ? (
                  <>
                    <BarChart
                      categories={data.byType.map((r) => typeLabel(r.faultType))}
                      series={[
                        { name: t('workOrders.kpi.reported'), type: 'bar', values: data.byType.map((r) => r.reported) },
                        { name: t('workOrders.kpi.openNow'), type: 'bar', values: data.byType.map((r) => r.open) },
                      ]}
                      label={t('workOrders.faults')}
                      unit=""
                      format={(v) => number.format(v)}
                      height={260}
                    />
                    <ScrollTable
                      size="small"
                      rowKey="faultType"
                      pagination={false}
                      dataSource={data.byType}
                      columns={[
                        {
                          key: 'type',
                          title: labels.field('faultType'),
                          render: (_: unknown, r) => typeLabel(r.faultType),
                        },
                        { key: 'reported', title: t('workOrders.kpi.reported'), dataIndex: 'reported' },
                        { key: 'open', title: t('workOrders.kpi.openNow'), dataIndex: 'open' },
                      ]}
                    />
                  </>
                ) : (
                  <Empty description={t('workOrders.noFaults')} />
                )}
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card title={t('workOrders.byRegion')} size="small">
                {data.byRegion.length ? (
                  <>
                    <BarChart
                      categories={data.byRegion.map(regionLabel)}
                      series={[
                        {
                          name: t('workOrders.kpi.reported'),
                          type: 'bar',
                          values: data.byRegion.map((r) => r.reported),
                        },
                        { name: t('workOrders.kpi.openNow'), type: 'bar', values: data.byRegion.map((r) => r.open) },
                      ]}
                      label={t('workOrders.faults')}
                      unit=""
                      format={(v) => number.format(v)}
                      height={260}
                    />
                    <ScrollTable
                      size="small"
                      rowKey={(r) => String(r.regionId)}
                      pagination={false}
                      dataSource={data.byRegion}
                      columns={[
                        { key: 'region', title: t('workOrders.region'), render: (_: unknown, r) => regionLabel(r) },
                        { key: 'reported', title: t('workOrders.kpi.reported'), dataIndex: 'reported' },
                        { key: 'open', title: t('workOrders.kpi.openNow'), dataIndex: 'open' },
                      ]}
                    />
                  </>
                ) : (
                  <Empty description={t('workOrders.noFaults')} />
                )}
              </Card>
            </Col>
          </Row>
        </>
      )}
    </Flex>
  );
}
