import { ALARM_KINDS, ALARM_STATES, ALERT_LEVELS, type Condition } from '@lampyr/contract';
import { Button, Card, DatePicker, Flex, Select, Typography, theme } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { usePagedList } from '../../data/resource-list.ts';
import { ALARMS } from '../../lib/alarm-cache.ts';
import type { FilterObject, ListParams } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { TransferActions } from '../../resources/transfer-actions.tsx';
import { LiveBadge } from '../assets-devices/live-badge.tsx';
import { alarmsResource, useAlarmColumns, useRegionName } from './alarm-columns.tsx';
import { AlarmListTable } from './alarm-list-table.tsx';
import { usePaging } from './use-paging.ts';

const DEFAULT_DAYS = 7;

interface Filters {
  alertLevel?: string[];
  deviceId?: number;
  regionId?: number;
  state?: string[];
  kind?: string;
}

export function defaultRange(now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [now.subtract(DEFAULT_DAYS, 'day').startOf('minute'), now.endOf('day')];
}

/** The history's query: every alarm in the range matching the filters, newest first. */
export function historyParams(range: [Dayjs, Dayjs], filters: Filters, page: number, size: number): ListParams {
  const window: Condition = {
    field: 'dateTime',
    operator: 'between',
    value: [range[0].toISOString(), range[1].toISOString()],
  };
  return {
    filter: filters as FilterObject,
    detailFilter: [window],
    selectedColumns: null,
    pageable: { page, size, sort: ['dateTime,desc'] },
  };
}

/**
 * Alarm History: every alarm raised in a time range (the last 7 days to begin with), whatever its
 * state, filtered by level, device, region, state and kind, with who cleared it and how; exported
 * like any list.
 */
export default function AlarmHistoryPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const labels = useResourceLabels(alarmsResource);
  const [range, setRange] = useState(() => defaultRange());
  const [filters, setFilters] = useState<Filters>({});
  const { page, size, setPage, pagination } = usePaging();
  const params = historyParams(range, filters, page, size);
  const list = usePagedList(ALARMS, params);
  const rows = list.data?.content ?? [];
  const regionName = useRegionName(rows);
  const columns = useAlarmColumns(rows, [
    { key: 'region', title: labels.field('regionId'), render: (_v, r) => regionName(r.regionId) },
    {
      key: 'kind',
      title: labels.field('kind'),
      render: (_v, r) => (typeof r.kind === 'string' ? t(`alarms.kind.${r.kind}`) : '–'),
    },
    {
      key: 'cleared',
      title: labels.field('clearedAt'),
      render: (_v, r) =>
        r.clearedAt
          ? `${dayjs(String(r.clearedAt)).format('L LT')}${r.clearReason ? ` · ${t(`alarms.clearReason.${String(r.clearReason)}`)}` : ''}`
          : '–',
    },
    {
      key: 'comment',
      title: labels.field('comment'),
      render: (_v, r) => (
        <Typography.Text ellipsis style={{ maxWidth: 200 }} title={String(r.comment ?? '')}>
          {String(r.comment ?? '–')}
        </Typography.Text>
      ),
    },
  ]);

  const change = (patch: Partial<Filters>) => {
    setFilters((f) => {
      const next = { ...f, ...patch };
      for (const key of Object.keys(next) as (keyof Filters)[]) {
        const v = next[key];
        if (v === undefined || v === null || (Array.isArray(v) && !v.length)) delete next[key];
      }
      return next;
    });
    setPage(1);
  };
  const options = (values: readonly string[], prefix: string) =>
    values.map((value) => ({ value, label: t(`${prefix}.${value}`) }));

  return (
    <Card>
      <ScreenTitle title={t('menu.alerts-alarms.history')} spaced>
        <LiveBadge />
        <TransferActions
          resource={alarmsResource}
          labels={labels}
          canImport={false}
          params={{ filter: params.filter, detailFilter: params.detailFilter, sort: params.pageable.sort }}
        />
      </ScreenTitle>
      <Flex wrap gap={token.marginSM} style={{ marginBottom: token.margin }}>
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="L HH:mm"
          allowClear={false}
          style={{ minWidth: 340, maxWidth: '100%' }}
          value={range}
          aria-label={t('alarms.range')}
          onChange={(next) => {
            if (next?.[0] && next[1]) {
              setRange([next[0], next[1]]);
              setPage(1);
            }
          }}
        />
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 160 }}
          placeholder={labels.field('alertLevel')}
          aria-label={labels.field('alertLevel')}
          value={filters.alertLevel ?? []}
          options={options(ALERT_LEVELS, 'alarms.level')}
          onChange={(v: string[]) => change({ alertLevel: v })}
        />
        <div style={{ width: 220 }}>
          <ReferenceSelect
            prefix="devices"
            placeholder={labels.field('deviceId')}
            aria-label={labels.field('deviceId')}
            value={filters.deviceId ?? null}
            onChange={(v) => change({ deviceId: typeof v === 'number' ? v : undefined })}
          />
        </div>
        <div style={{ width: 200 }}>
          <ReferenceSelect
            prefix="regions"
            placeholder={labels.field('regionId')}
            aria-label={labels.field('regionId')}
            value={filters.regionId ?? null}
            onChange={(v) => change({ regionId: typeof v === 'number' ? v : undefined })}
          />
        </div>
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 160 }}
          placeholder={labels.field('state')}
          aria-label={labels.field('state')}
          value={filters.state ?? []}
          options={options(ALARM_STATES, 'alarms.state')}
          onChange={(v: string[]) => change({ state: v })}
        />
        <Select
          allowClear
          style={{ minWidth: 150 }}
          placeholder={labels.field('kind')}
          aria-label={labels.field('kind')}
          value={filters.kind}
          options={options(ALARM_KINDS, 'alarms.kind')}
          onChange={(v: string | undefined) => change({ kind: v })}
        />
        <Button
          onClick={() => {
            setFilters({});
            setRange(defaultRange());
            setPage(1);
          }}
        >
          {t('alarms.resetFilters')}
        </Button>
      </Flex>
      <AlarmListTable
        list={list}
        rows={rows}
        columns={columns}
        empty={t('alarms.noneInRange')}
        pagination={pagination(list.data?.totalElements ?? 0, (total) => t('alarms.total', { count: total }))}
      />
    </Card>
  );
}
