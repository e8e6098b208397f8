import type { AssetReportRequest, AssetReportRow } from '@lampyr/contract';
import { Card, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { figureColumn, ReportBody, ReportFigures, ReportTable, useReportFormats } from './report-figures.tsx';
import { ReportFilters, ReportReferenceFilter, ReportRegionFilter } from './report-filters.tsx';
import { ReportToolbar } from './report-toolbar.tsx';
import { useReportPage } from './use-report-page.ts';

type GroupBy = NonNullable<AssetReportRequest['groupBy']>;
const GROUPS: GroupBy[] = ['model', 'status', 'region', 'age'];

/**
 * Reports → Device and Asset Reports: the inventory by model, installation status, region or age,
 * the share online now, the faults and alarms of the period, and the health the network server
 * reports (battery, external power, link margin), computed by the server.
 */
export default function AssetReportPage() {
  const { t } = useTranslation();
  const state = useReportPage('assets', 'model');
  const { groupBy, filters, setFilter, data, report } = state;
  const { integer, count, number, percent } = useReportFormats();
  const label = (row: AssetReportRow) => {
    if (!row.label) return t('common:reports.none');
    if (groupBy === 'age') return t(`common:reports.age.${row.key}`, { defaultValue: row.label });
    return row.label;
  };
  const c = (key: string) => t(`common:reports.columns.${key}`);

  const columns = [
    {
      title: t(`common:reports.groupBy.assets.${groupBy}`),
      key: 'label',
      render: (_: unknown, r: AssetReportRow) => label(r),
    },
    ...(
      [
        ['devices', count],
        ['online', count],
        ['onlinePct', percent],
        ['faults', count],
        ['alarms', count],
        ['batteryAvg', number],
        ['lowBattery', count],
        ['externalPower', count],
        ['linkMarginAvg', number],
        ['ageYears', number],
      ] as const
    ).map(([key, render]) => figureColumn<AssetReportRow>(key, c(key), render)),
  ];
  const totals = data?.totals;

  return (
    <Flex vertical gap={16}>
      <ScreenTitle title={t('reports.assetsTitle')}>
        <ReportToolbar kind="assets" request={state.body} disabled={!data || report.isError} />
      </ScreenTitle>
      <ReportFilters
        state={state}
        periodLabel={t('reports.faultPeriod')}
        groups={GROUPS}
        groupLabel={(g) => t(`common:reports.groupBy.assets.${g}`)}
        groupWidth={170}
      >
        <ReportRegionFilter state={state} />
        <ReportReferenceFilter
          prefix="device-models"
          label={t('reports.allModels')}
          value={filters.deviceTypeModelId}
          onChange={(id) => setFilter('deviceTypeModelId', id)}
        />
      </ReportFilters>
      <div style={{ opacity: 0.7, fontSize: 12 }}>{t('reports.faultPeriodHint')}</div>
      <ReportFigures
        state={state}
        figures={[
          { key: 'devices', title: c('devices'), value: count(totals?.devices) },
          { key: 'onlinePct', title: c('onlinePct'), value: percent(totals?.onlinePct) },
          { key: 'faults', title: c('faults'), value: count(totals?.faults) },
          { key: 'lowBattery', title: c('lowBattery'), value: count(totals?.lowBattery) },
          { key: 'linkMarginAvg', title: c('linkMarginAvg'), value: number(totals?.linkMarginAvg) },
        ]}
      />
      <ReportBody state={state} isEmpty={(d) => d.totals.devices === 0} empty={t('reports.noDevices')}>
        {(data) => (
          <>
            <Card size="small" title={t('common:reports.chart.assets')}>
              <BarChart
                label={t('common:reports.chart.assets')}
                unit=""
                format={(v) => integer.format(v)}
                categories={data.rows.map((r) => label(r))}
                series={[
                  { name: c('online'), type: 'bar', values: data.rows.map((r) => r.online) },
                  {
                    name: t('common:reports.offline'),
                    type: 'bar',
                    values: data.rows.map((r) => r.devices - r.online),
                  },
                ]}
              />
            </Card>
            <ReportTable state={state} columns={columns} rows={data.rows} total={data.totalRows} />
          </>
        )}
      </ReportBody>
    </Flex>
  );
}
