import {
  getResource,
  MAX_REPORT_DAYS,
  type MaintenanceReportRequest,
  type MaintenanceReportRow,
} from '@lampyr/contract';
import { Card, Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { useResourceLabels } from '../../resources/labels.ts';
import { figureColumn, ReportFigures, ReportTable, useReportFormats } from '../reports-analytics/report-figures.tsx';
import { ReportFilters, ReportRegionFilter } from '../reports-analytics/report-filters.tsx';
import { ReportToolbar } from '../reports-analytics/report-toolbar.tsx';
import { useReportPage } from '../reports-analytics/use-report-page.ts';

const faults = getResource('report-a-fault');
type GroupBy = NonNullable<MaintenanceReportRequest['groupBy']>;
const GROUPS: GroupBy[] = ['faultType', 'region'];
/** The count figures: the KPI's key and its field of the report's totals. */
const COUNTS = [
  ['openNow', 'open'],
  ['reported', 'reported'],
  ['resolved', 'resolved'],
  ['closed', 'closed'],
  ['reopened', 'reopened'],
] as const;

/**
 * Maintenance → Maintenance KPIs: work orders open now, what was reported, repaired, closed and
 * reopened in a period (days of the account's calendar), the mean time to repair (report →
 * resolution) and to close, by fault type or by region; for the account or one region. The
 * server's maintenance report, so it exports (CSV, XLSX, PDF with its chart) and saves as a
 * template like the other reports.
 */
export default function MaintenanceKpiPage() {
  const { t } = useTranslation();
  const labels = useResourceLabels(faults);
  const state = useReportPage('maintenance', 'faultType');
  const { groupBy, data, report } = state;
  const { decimal, count } = useReportFormats();
  // A mean under an hour reads in minutes, else in hours.
  const duration = (v: number | null | undefined) =>
    v === null || v === undefined
      ? { value: '—' }
      : v < 1
        ? { value: decimal.format(v * 60), suffix: t('workOrders.minutes') }
        : { value: decimal.format(v), suffix: t('workOrders.hours') };
  const durationText = (v: number | null | undefined) => {
    const d = duration(v);
    return d.suffix ? `${d.value} ${d.suffix}` : d.value;
  };
  const label = (row: MaintenanceReportRow) => {
    if (groupBy === 'faultType') return labels.option('faultType', row.key);
    return row.label || t('workOrders.noRegion');
  };
  const column = figureColumn<MaintenanceReportRow>;
  const totals = data?.totals;
  const figure = (key: string, value: string | { value: string; suffix?: string }) => ({
    key,
    title: t(`workOrders.kpi.${key}`),
    ...(typeof value === 'string' ? { value } : value),
  });

  return (
    <Flex vertical gap={16}>
      <Card>
        <ScreenTitle title={t('workOrders.kpiTitle')}>
          <ReportToolbar kind="maintenance" request={state.body} disabled={!data || report.isError} />
        </ScreenTitle>
        <ReportFilters
          state={state}
          periodLabel={t('workOrders.period')}
          groups={GROUPS}
          groupLabel={(g) => t(`common:reports.groupBy.maintenance.${g}`)}
          style={{ marginTop: 12 }}
        >
          <ReportRegionFilter
            state={state}
            label={t('workOrders.region')}
            placeholder={t('workOrders.allRegions')}
            width={220}
          />
        </ReportFilters>
        <p style={{ marginBottom: 0, marginTop: 12 }}>{t('workOrders.kpiHint', { days: MAX_REPORT_DAYS })}</p>
      </Card>
      <ReportFigures
        state={state}
        testIdPrefix="kpi"
        figures={[
          COUNTS.map(([key, field]) => figure(key, count(totals?.[field]))),
          [figure('mttr', duration(totals?.mttrHours)), figure('mttc', duration(totals?.mttcHours))],
        ]}
      />
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
                format={(v) => decimal.format(v)}
                height={260}
              />
              <ReportTable<'maintenance', MaintenanceReportRow>
                state={state}
                rows={data.rows}
                total={data.totalRows}
                hideOnSinglePage
                columns={[
                  {
                    key: 'label',
                    title: t(`common:reports.groupBy.maintenance.${groupBy}`),
                    render: (_: unknown, r) => label(r),
                  },
                  ...COUNTS.map(([key, field]) => column(field, t(`workOrders.kpi.${key}`), count)),
                  column('mttrHours', t('workOrders.kpi.mttr'), durationText),
                  column('mttcHours', t('workOrders.kpi.mttc'), durationText),
                ]}
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
