import type { AlarmReportRequest, AlarmReportRow } from '@lampyr/contract';
import { Card, Flex, Select, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { figureColumn, ReportBody, ReportFigures, ReportTable, useReportFormats } from './report-figures.tsx';
import { ReportFilters, ReportReferenceFilter, ReportRegionFilter } from './report-filters.tsx';
import { ReportToolbar } from './report-toolbar.tsx';
import { useReportPage } from './use-report-page.ts';

type GroupBy = NonNullable<AlarmReportRequest['groupBy']>;
type Level = NonNullable<AlarmReportRequest['level']>;
const GROUPS: GroupBy[] = ['level', 'device', 'region', 'day'];
const LEVELS: Level[] = ['high', 'medium', 'low'];

/**
 * Reports → Alarm Reports: the alarms raised over a period by level, device, region or day, how
 * many are still active, and the mean times to acknowledge and to clear, computed by the server.
 */
export default function AlarmReportPage() {
  const { t, i18n } = useTranslation();
  const state = useReportPage('alarms', 'level');
  const { groupBy, filters, setFilter, data, report } = state;
  const { token } = theme.useToken();
  const { integer, count } = useReportFormats();
  const minutes = useMemo(
    () => new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'minute', maximumFractionDigits: 1 }),
    [i18n.language],
  );
  const duration = (v: number | null | undefined) => (v === null || v === undefined ? '—' : minutes.format(v));
  const label = (row: AlarmReportRow) => {
    if (!row.label) return t('common:reports.none');
    if (groupBy === 'level') return t(`common:reports.level.${row.key}`, { defaultValue: row.label });
    return row.label;
  };

  const c = (key: string) => t(`common:reports.columns.${key}`);
  const column = figureColumn<AlarmReportRow>;
  const columns = [
    {
      title: t(`common:reports.groupBy.alarms.${groupBy}`),
      key: 'label',
      render: (_: unknown, r: AlarmReportRow) => label(r),
    },
    column('raised', c('raised'), count),
    column('active', c('active'), count),
    column('acknowledged', c('acknowledged'), count),
    column('cleared', c('cleared'), count),
    column('mttaMinutes', t('reports.mtta'), duration),
    column('mttcMinutes', t('reports.mttc'), duration),
  ];

  return (
    <Flex vertical gap={16}>
      <ScreenTitle title={t('reports.alarmsTitle')}>
        <ReportToolbar kind="alarms" request={state.body} disabled={!data || report.isError} />
      </ScreenTitle>
      <ReportFilters
        state={state}
        periodLabel={t('savings.period')}
        groups={GROUPS}
        groupLabel={(g) => t(`common:reports.groupBy.alarms.${g}`)}
      >
        <Select<Level | 'all'>
          aria-label={t('reports.level')}
          value={filters.level ?? 'all'}
          style={{ minWidth: 130 }}
          options={[
            { value: 'all', label: t('reports.allLevels') },
            ...LEVELS.map((l) => ({ value: l, label: t(`common:reports.level.${l}`) })),
          ]}
          onChange={(l) => setFilter('level', l === 'all' ? undefined : l)}
        />
        <ReportRegionFilter state={state} />
        <ReportReferenceFilter
          prefix="devices"
          label={t('reports.allDevices')}
          width={200}
          value={filters.deviceId}
          onChange={(id) => setFilter('deviceId', id)}
        />
      </ReportFilters>
      <ReportFigures
        state={state}
        figures={[
          { key: 'raised', title: c('raised'), value: count(data?.totals.raised) },
          { key: 'active', title: c('active'), value: count(data?.totals.active) },
          { key: 'mtta', title: t('reports.mtta'), value: duration(data?.totals.mttaMinutes) },
          { key: 'mttc', title: t('reports.mttc'), value: duration(data?.totals.mttcMinutes) },
        ]}
      />
      <ReportBody state={state} isEmpty={(d) => d.totals.raised === 0} empty={t('reports.noAlarms')}>
        {(data) => (
          <>
            <Card size="small" title={t(data.bucket === 'day' ? 'reports.alarmsByDay' : 'reports.alarmsByMonth')}>
              <BarChart
                label={t('common:reports.chart.alarms')}
                unit=""
                format={(v) => integer.format(v)}
                categories={data.series.map((s) => s.bucket)}
                colors={[token.colorError, token.colorWarning, token.colorInfo]}
                series={LEVELS.map((l) => ({
                  name: t(`common:reports.level.${l}`),
                  type: 'bar' as const,
                  values: data.series.map((s) => s[l]),
                }))}
              />
            </Card>
            <ReportTable state={state} columns={columns} rows={data.rows} total={data.totalRows} />
          </>
        )}
      </ReportBody>
    </Flex>
  );
}
