import type { AlarmReportRequest, AlarmReportRow } from '@lampyr/contract';
import { Alert, Card, DatePicker, Flex, Select, Statistic, theme } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { BarChart } from '../../charts/bar-chart.tsx';
import { useAlarmReport } from '../../data/reports.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { ReportToolbar } from './report-toolbar.tsx';

type GroupBy = NonNullable<AlarmReportRequest['groupBy']>;
type Level = NonNullable<AlarmReportRequest['level']>;
const GROUPS: GroupBy[] = ['level', 'device', 'region', 'day'];
const LEVELS: Level[] = ['high', 'medium', 'low'];
const PAGE_SIZE = 20;

/**
 * Reports → Alarm Reports: the alarms raised over a period by level, device, region or day, how
 * many are still active, and the mean times to acknowledge and to clear, computed by the server.
 */
export default function AlarmReportPage() {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(29, 'day'), dayjs()]);
  const [groupBy, setGroupBy] = useState<GroupBy>('level');
  const [level, setLevel] = useState<Level | null>(null);
  const [regionId, setRegionId] = useState<number | null>(null);
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const body: AlarmReportRequest = {
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
    groupBy,
    ...(level ? { level } : {}),
    ...(regionId ? { regionId } : {}),
    ...(deviceId ? { deviceId } : {}),
    page,
    size: PAGE_SIZE,
  };
  const report = useAlarmReport(body);
  const { token } = theme.useToken();
  const data = report.data;
  const integer = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const minutes = useMemo(
    () => new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'minute', maximumFractionDigits: 1 }),
    [i18n.language],
  );
  const duration = (v: number | null | undefined) => (v === null || v === undefined ? '—' : minutes.format(v));
  const count = (v: number | null | undefined) => (v === null || v === undefined ? '—' : integer.format(v));
  const label = (row: AlarmReportRow) => {
    if (!row.label) return t('common:reports.none');
    if (groupBy === 'level') return t(`common:reports.level.${row.key}`, { defaultValue: row.label });
    return row.label;
  };
  const reset = () => setPage(0);

  const columns = [
    {
      title: t(`common:reports.groupBy.alarms.${groupBy}`),
      key: 'label',
      render: (_: unknown, r: AlarmReportRow) => label(r),
    },
    { title: t('common:reports.columns.raised'), dataIndex: 'raised', align: 'right' as const, render: count },
    { title: t('common:reports.columns.active'), dataIndex: 'active', align: 'right' as const, render: count },
    {
      title: t('common:reports.columns.acknowledged'),
      dataIndex: 'acknowledged',
      align: 'right' as const,
      render: count,
    },
    { title: t('common:reports.columns.cleared'), dataIndex: 'cleared', align: 'right' as const, render: count },
    { title: t('reports.mtta'), dataIndex: 'mttaMinutes', align: 'right' as const, render: duration },
    { title: t('reports.mttc'), dataIndex: 'mttcMinutes', align: 'right' as const, render: duration },
  ];

  return (
    <Flex vertical gap={16}>
      <ScreenTitle title={t('reports.alarmsTitle')}>
        <ReportToolbar kind="alarms" request={body} disabled={!data || report.isError} />
      </ScreenTitle>
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
              reset();
            }
          }}
        />
        <Select<GroupBy>
          aria-label={t('savings.groupByLabel')}
          value={groupBy}
          style={{ minWidth: 150 }}
          options={GROUPS.map((g) => ({ value: g, label: t(`common:reports.groupBy.alarms.${g}`) }))}
          onChange={(g) => {
            setGroupBy(g);
            reset();
          }}
        />
        <Select<Level | 'all'>
          aria-label={t('reports.level')}
          value={level ?? 'all'}
          style={{ minWidth: 130 }}
          options={[
            { value: 'all', label: t('reports.allLevels') },
            ...LEVELS.map((l) => ({ value: l, label: t(`common:reports.level.${l}`) })),
          ]}
          onChange={(l) => {
            setLevel(l === 'all' ? null : l);
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
        <div style={{ minWidth: 200 }}>
          <ReferenceSelect
            prefix="devices"
            value={deviceId}
            placeholder={t('reports.allDevices')}
            aria-label={t('reports.allDevices')}
            onChange={(id) => {
              setDeviceId(typeof id === 'number' ? id : null);
              reset();
            }}
          />
        </div>
      </Flex>
      {report.isError && <Alert type="error" showIcon message={errorMessage(report.error, t)} />}
      <Flex wrap gap={16}>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic
            title={t('common:reports.columns.raised')}
            value={count(data?.totals.raised)}
            loading={report.isPending}
          />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic
            title={t('common:reports.columns.active')}
            value={count(data?.totals.active)}
            loading={report.isPending}
          />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={t('reports.mtta')} value={duration(data?.totals.mttaMinutes)} loading={report.isPending} />
        </Card>
        <Card size="small" style={{ flex: '1 1 160px' }}>
          <Statistic title={t('reports.mttc')} value={duration(data?.totals.mttcMinutes)} loading={report.isPending} />
        </Card>
      </Flex>
      {data && data.totals.raised === 0 ? (
        <Alert type="info" showIcon message={t('reports.noAlarms')} />
      ) : (
        data && (
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
            <ScrollTable<AlarmReportRow>
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
