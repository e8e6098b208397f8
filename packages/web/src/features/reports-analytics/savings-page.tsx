import type { EnergyReportRequest, EnergyReportRow } from '@lampyr/contract';
import { Card, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { figureColumn, ReportBody, ReportFigures, ReportTable, useReportFormats } from './report-figures.tsx';
import { ReportFilters, ReportRegionFilter } from './report-filters.tsx';
import { ReportToolbar } from './report-toolbar.tsx';
import { useReportPage } from './use-report-page.ts';

type GroupBy = NonNullable<EnergyReportRequest['groupBy']>;
const GROUPS: GroupBy[] = ['region', 'street', 'device', 'account'];

/**
 * Reports → Savings: what the lights used against what they would have used burning full from
 * dusk to dawn, in kWh, per cent, money and CO₂, over a period, by region, street, device or
 * account. Figures come from the daily rollups the server keeps (nothing loads readings).
 */
export default function SavingsPage() {
  const { t } = useTranslation();
  const state = useReportPage('energy', 'region');
  const { groupBy, data, report } = state;
  const { decimal, count, number: format, percent, money: moneyIn } = useReportFormats();
  const money = (value: number | null | undefined) => moneyIn(value, data?.currency);
  const totals = data?.totals;

  const column = figureColumn<EnergyReportRow>;
  const columns = [
    { title: t(`savings.groupBy.${groupBy}`), dataIndex: 'label', render: (v: string) => v || t('savings.none') },
    column('devices', t('savings.devices'), count),
    column('energyKwh', t('savings.energy'), format),
    column('baselineKwh', t('savings.baseline'), format),
    column('savingsKwh', t('savings.saved'), format),
    column('savingsPct', t('savings.savedPct'), percent),
    column('money', t('savings.money'), money),
    column('co2Kg', t('savings.co2'), format),
    column('burnHours', t('savings.burnHours'), format),
  ];

  return (
    <Flex vertical gap={16}>
      <ScreenTitle title={t('savings.title')}>
        <ReportFilters
          state={state}
          periodLabel={t('savings.period')}
          groups={GROUPS}
          groupLabel={(g) => t(`savings.groupBy.${g}`)}
        >
          <ReportRegionFilter state={state} />
        </ReportFilters>
      </ScreenTitle>
      <Flex justify="flex-end">
        <ReportToolbar kind="energy" request={state.body} disabled={!data || report.isError} />
      </Flex>
      <ReportFigures
        state={state}
        figures={[
          { key: 'energy', title: t('savings.energy'), value: format(totals?.energyKwh) },
          { key: 'baseline', title: t('savings.baseline'), value: format(totals?.baselineKwh) },
          {
            key: 'saved',
            title: t('savings.saved'),
            value: `${format(totals?.savingsKwh)} (${percent(totals?.savingsPct)})`,
          },
          { key: 'money', title: t('savings.money'), value: money(totals?.money) },
          { key: 'co2', title: t('savings.co2'), value: format(totals?.co2Kg) },
        ]}
      />
      <ReportBody state={state} isEmpty={(d) => d.totals.deviceDays === 0} empty={t('savings.empty')}>
        {(data) => (
          <Card size="small" title={t(data.bucket === 'day' ? 'savings.byDay' : 'savings.byMonth')}>
            <BarChart
              label={t('savings.chartLabel')}
              unit="kWh"
              format={(v) => decimal.format(v)}
              categories={data.series.map((s) => s.bucket)}
              series={[
                { name: t('savings.energy'), type: 'bar', values: data.series.map((s) => s.energyKwh) },
                { name: t('savings.baseline'), type: 'line', values: data.series.map((s) => s.baselineKwh) },
              ]}
            />
            {totals && totals.meteredDeviceDays < totals.deviceDays && (
              <div style={{ opacity: 0.7, fontSize: 12 }}>
                {t('savings.meteredShare', {
                  metered: totals.meteredDeviceDays,
                  total: totals.deviceDays,
                })}
              </div>
            )}
          </Card>
        )}
      </ReportBody>
      {totals?.deviceDays !== 0 && (
        <ReportTable<'energy', EnergyReportRow>
          state={state}
          columns={columns}
          rows={data?.rows ?? []}
          total={data?.totalRows ?? 0}
          emptyText={t('savings.empty')}
        />
      )}
    </Flex>
  );
}
