import type { EnergyReportRequest, EnergyReportRow } from '@lampyr/contract';
import { Alert, Card, DatePicker, Flex, Select, Statistic } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { useEnergyReport } from '../../data/reports.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { ReportToolbar } from './report-toolbar.tsx';

type GroupBy = NonNullable<EnergyReportRequest['groupBy']>;
const GROUPS: GroupBy[] = ['region', 'street', 'device', 'account'];
const PAGE_SIZE = 20;

/**
 * Reports → Savings: what the lights used against what they would have used burning full from
 * dusk to dawn, in kWh, per cent, money and CO₂, over a period, by region, street, device or
 * account. Figures come from the daily rollups the server keeps (nothing loads readings).
 */
export default function SavingsPage() {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(29, 'day'), dayjs()]);
  const [groupBy, setGroupBy] = useState<GroupBy>('region');
  const [regionId, setRegionId] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const body: EnergyReportRequest = {
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
    groupBy,
    ...(regionId ? { regionId } : {}),
    page,
    size: PAGE_SIZE,
  };
  const report = useEnergyReport(body);

  const number = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }), [i18n.language]);
  const format = (value: number | null | undefined) =>
    value === null || value === undefined ? '—' : number.format(value);
  const percent = (value: number | null | undefined) =>
    value === null || value === undefined
      ? '—'
      : new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);
  const data = report.data;
  const money = (value: number | null | undefined) =>
    value === null || value === undefined
      ? '—'
      : data?.currency
        ? new Intl.NumberFormat(i18n.language, { style: 'currency', currency: data.currency }).format(value)
        : number.format(value);
  const totals = data?.totals;

  const columns = [
    { title: t(`savings.groupBy.${groupBy}`), dataIndex: 'label', render: (v: string) => v || t('savings.none') },
    { title: t('savings.devices'), dataIndex: 'devices', align: 'right' as const },
    { title: t('savings.energy'), dataIndex: 'energyKwh', align: 'right' as const, render: format },
    { title: t('savings.baseline'), dataIndex: 'baselineKwh', align: 'right' as const, render: format },
    { title: t('savings.saved'), dataIndex: 'savingsKwh', align: 'right' as const, render: format },
    { title: t('savings.savedPct'), dataIndex: 'savingsPct', align: 'right' as const, render: percent },
    { title: t('savings.money'), dataIndex: 'money', align: 'right' as const, render: money },
    { title: t('savings.co2'), dataIndex: 'co2Kg', align: 'right' as const, render: format },
    { title: t('savings.burnHours'), dataIndex: 'burnHours', align: 'right' as const, render: format },
  ];

  return (
    <Flex vertical gap={16}>
      <ScreenTitle title={t('savings.title')}>
        <Flex wrap gap={8} align="center">
          <DatePicker.RangePicker
            aria-label={t('savings.period')}
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
                setPage(0);
              }
            }}
          />
          <Select<GroupBy>
            aria-label={t('savings.groupByLabel')}
            value={groupBy}
            style={{ minWidth: 150 }}
            options={GROUPS.map((g) => ({ value: g, label: t(`savings.groupBy.${g}`) }))}
            onChange={(g) => {
              setGroupBy(g);
              setPage(0);
            }}
          />
          <div style={{ minWidth: 180 }}>
            <ReferenceSelect
              prefix="regions"
              value={regionId}
              placeholder={t('savings.allRegions')}
              aria-label={t('savings.allRegions')}
              onChange={(id) => {
                setRegionId(typeof id === 'number' ? id : null);
                setPage(0);
              }}
            />
          </div>
        </Flex>
      </ScreenTitle>
      <Flex justify="flex-end">
        <ReportToolbar kind="energy" request={body} disabled={!data || report.isError} />
      </Flex>
      {report.isError && <Alert type="error" showIcon message={errorMessage(report.error, t)} />}
      <Flex wrap gap={16}>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={t('savings.energy')} value={format(totals?.energyKwh)} loading={report.isPending} />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={t('savings.baseline')} value={format(totals?.baselineKwh)} loading={report.isPending} />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic
            title={t('savings.saved')}
            value={`${format(totals?.savingsKwh)} (${percent(totals?.savingsPct)})`}
            loading={report.isPending}
          />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={t('savings.money')} value={money(totals?.money)} loading={report.isPending} />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={t('savings.co2')} value={format(totals?.co2Kg)} loading={report.isPending} />
        </Card>
      </Flex>
      {data && totals && totals.deviceDays === 0 ? (
        <Alert type="info" showIcon message={t('savings.empty')} />
      ) : (
        data && (
          <Card size="small" title={t(data.bucket === 'day' ? 'savings.byDay' : 'savings.byMonth')}>
            <BarChart
              label={t('savings.chartLabel')}
              unit="kWh"
              format={(v) => number.format(v)}
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
        )
      )}
      {totals?.deviceDays !== 0 && (
        <ScrollTable<EnergyReportRow>
          rowKey="key"
          size="small"
          loading={report.isFetching}
          columns={columns}
          dataSource={data?.rows ?? []}
          locale={{ emptyText: t('savings.empty') }}
          pagination={{
            current: page + 1,
            pageSize: PAGE_SIZE,
            total: data?.totalRows ?? 0,
            showSizeChanger: false,
            onChange: (p) => setPage(p - 1),
          }}
        />
      )}
    </Flex>
  );
}
