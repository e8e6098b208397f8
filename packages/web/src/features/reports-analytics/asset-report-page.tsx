import type { AssetReportRequest, AssetReportRow } from '@lampyr/contract';
import { Alert, Card, DatePicker, Flex, Select, Statistic } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { useAssetReport } from '../../data/reports.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { ReportToolbar } from './report-toolbar.tsx';

type GroupBy = NonNullable<AssetReportRequest['groupBy']>;
const GROUPS: GroupBy[] = ['model', 'status', 'region', 'age'];
const PAGE_SIZE = 20;

/**
 * Reports → Device and Asset Reports: the inventory by model, installation status, region or age,
 * the share online now, the faults and alarms of the period, and the health the network server
 * reports (battery, external power, link margin), computed by the server.
 */
export default function AssetReportPage() {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(29, 'day'), dayjs()]);
  const [groupBy, setGroupBy] = useState<GroupBy>('model');
  const [regionId, setRegionId] = useState<number | null>(null);
  const [modelId, setModelId] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const body: AssetReportRequest = {
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
    groupBy,
    ...(regionId ? { regionId } : {}),
    ...(modelId ? { deviceTypeModelId: modelId } : {}),
    page,
    size: PAGE_SIZE,
  };
  const report = useAssetReport(body);
  const data = report.data;
  const integer = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const decimal = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }), [i18n.language]);
  const percentFormat = useMemo(
    () => new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }),
    [i18n.language],
  );
  const count = (v: number | null | undefined) => (v === null || v === undefined ? '—' : integer.format(v));
  const number = (v: number | null | undefined) => (v === null || v === undefined ? '—' : decimal.format(v));
  const percent = (v: number | null | undefined) =>
    v === null || v === undefined ? '—' : percentFormat.format(v / 100);
  const label = (row: AssetReportRow) => {
    if (!row.label) return t('common:reports.none');
    if (groupBy === 'age') return t(`common:reports.age.${row.key}`, { defaultValue: row.label });
    return row.label;
  };
  const reset = () => setPage(0);
  const c = (key: string) => t(`common:reports.columns.${key}`);

  const columns = [
    {
      title: t(`common:reports.groupBy.assets.${groupBy}`),
      key: 'label',
      render: (_: unknown, r: AssetReportRow) => label(r),
    },
    { title: c('devices'), dataIndex: 'devices', align: 'right' as const, render: count },
    { title: c('online'), dataIndex: 'online', align: 'right' as const, render: count },
    { title: c('onlinePct'), dataIndex: 'onlinePct', align: 'right' as const, render: percent },
    { title: c('faults'), dataIndex: 'faults', align: 'right' as const, render: count },
    { title: c('alarms'), dataIndex: 'alarms', align: 'right' as const, render: count },
    { title: c('batteryAvg'), dataIndex: 'batteryAvg', align: 'right' as const, render: number },
    { title: c('lowBattery'), dataIndex: 'lowBattery', align: 'right' as const, render: count },
    { title: c('externalPower'), dataIndex: 'externalPower', align: 'right' as const, render: count },
    { title: c('linkMarginAvg'), dataIndex: 'linkMarginAvg', align: 'right' as const, render: number },
    { title: c('ageYears'), dataIndex: 'ageYears', align: 'right' as const, render: number },
  ];
  const totals = data?.totals;

  return (
    <Flex vertical gap={16}>
      <ScreenTitle title={t('reports.assetsTitle')}>
        <ReportToolbar kind="assets" request={body} disabled={!data || report.isError} />
      </ScreenTitle>
      <Flex wrap gap={8} align="center">
        <DatePicker.RangePicker
          aria-label={t('reports.faultPeriod')}
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
          style={{ minWidth: 170 }}
          options={GROUPS.map((g) => ({ value: g, label: t(`common:reports.groupBy.assets.${g}`) }))}
          onChange={(g) => {
            setGroupBy(g);
            reset();
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
              reset();
            }}
          />
        </div>
        <div style={{ minWidth: 180 }}>
          <ReferenceSelect
            prefix="device-models"
            value={modelId}
            placeholder={t('reports.allModels')}
            aria-label={t('reports.allModels')}
            onChange={(id) => {
              setModelId(typeof id === 'number' ? id : null);
              reset();
            }}
          />
        </div>
      </Flex>
      <div style={{ opacity: 0.7, fontSize: 12 }}>{t('reports.faultPeriodHint')}</div>
      {report.isError && <Alert type="error" showIcon message={errorMessage(report.error, t)} />}
      <Flex wrap gap={16}>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={c('devices')} value={count(totals?.devices)} loading={report.isPending} />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={c('onlinePct')} value={percent(totals?.onlinePct)} loading={report.isPending} />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={c('faults')} value={count(totals?.faults)} loading={report.isPending} />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={c('lowBattery')} value={count(totals?.lowBattery)} loading={report.isPending} />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={c('linkMarginAvg')} value={number(totals?.linkMarginAvg)} loading={report.isPending} />
        </Card>
      </Flex>
      {data && data.totals.devices === 0 ? (
        <Alert type="info" showIcon message={t('reports.noDevices')} />
      ) : (
        data && (
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
            <ScrollTable<AssetReportRow>
              rowKey="key"
              size="small"
              scroll={{ x: 'max-content' }}
              loading={report.isFetching}
              columns={columns}
              dataSource={data.rows}
              pagination={{
                current: page + 1,
                pageSize: PAGE_SIZE,
                total: data.totalRows,
                showSizeChanger: false,
                onChange: (p) => setPage(p - 1),
              }}
            />
          </>
        )
      )}
    </Flex>
  );
}
