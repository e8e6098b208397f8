import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Condition, ResourceDef } from '@lampyr/contract';
import { Button, DatePicker, Flex, Input, Space, Typography, theme } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableParams } from '../lib/console-store.ts';
import type { FilterObject } from '../lib/resource-api.ts';
import { ColumnChooser } from './column-chooser.tsx';
import type { FilterApi } from './column-filters.tsx';
import type { ResourceLabels } from './labels.ts';
import { TransferActions } from './transfer-actions.tsx';

/** The time range of a readings or data-log table (its API answers only over one). */
function TimeWindowPicker({
  label,
  condition,
  onChange,
}: {
  label: string;
  condition: Condition | undefined;
  onChange: (range: [Dayjs, Dayjs] | undefined) => void;
}) {
  const value = Array.isArray(condition?.value)
    ? ([dayjs(String(condition.value[0])), dayjs(String(condition.value[1]))] as [Dayjs, Dayjs])
    : undefined;
  return (
    <DatePicker.RangePicker
      aria-label={label}
      showTime
      value={value}
      onChange={(range) => onChange(range?.[0] && range[1] ? [range[0], range[1]] : undefined)}
    />
  );
}

/**
 * A resource table's heading and tools: its title and count, search, time range, clear filters,
 * column chooser, export/import, refresh and create.
 */
export function ResourceToolbar({
  resource,
  labels,
  total,
  filterApi,
  windowFilter,
  fixedFilter,
  visible,
  search,
  onSearchChange,
  anyFilter,
  onClearFilters,
  onColumnsChange,
  onRefresh,
  refreshing,
  onCreate,
  canCreate,
  extra,
}: {
  resource: ResourceDef;
  labels: ResourceLabels;
  /** Records matching, once the list has loaded. */
  total: number | undefined;
  filterApi: FilterApi;
  /** The detail filter as sent, with the time range in force. */
  windowFilter: TableParams['detailFilter'];
  fixedFilter: FilterObject | undefined;
  visible: string[];
  search: string;
  onSearchChange: (value: string) => void;
  anyFilter: boolean;
  onClearFilters: () => void;
  onColumnsChange: (selectedColumns: Record<string, boolean> | null) => void;
  onRefresh: () => void;
  refreshing: boolean;
  onCreate: () => void;
  /** Whether the person may add records here (usePermissions): New and Import show only then. */
  canCreate: boolean;
  /** A screen's own filters, before the search (the device list's street). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { params } = filterApi;
  const searchable = Object.values(resource.fields).some((f) => f.search);
  const timeField = resource.timeWindow;
  return (
    <Flex justify="space-between" align="center" wrap gap={token.margin} style={{ marginBottom: token.margin }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>
        {labels.title}
        {total !== undefined && (
          <Typography.Text type="secondary" style={{ marginInlineStart: token.marginXS, fontWeight: 'normal' }}>
            ({total})
          </Typography.Text>
        )}
      </Typography.Title>
      <Space wrap>
        {extra}
        {searchable && (
          <Input.Search
            allowClear
            aria-label={t('resource.search', { title: labels.title })}
            placeholder={t('resource.searchPlaceholder')}
            value={search}
            onChange={(e) => {
              onSearchChange(e.target.value);
              if (e.target.value === '') filterApi.setFilter('q', undefined);
            }}
            onSearch={(value) => filterApi.setFilter('q', value.trim() || undefined)}
            style={{ width: 240 }}
          />
        )}
        {timeField && (
          <TimeWindowPicker
            label={labels.field(timeField)}
            condition={windowFilter?.find((c) => c.field === timeField)}
            onChange={(range) =>
              filterApi.setCondition(
                timeField,
                range && {
                  field: timeField,
                  operator: 'between',
                  value: [range[0].toISOString(), range[1].toISOString()],
                },
              )
            }
          />
        )}
        {anyFilter && <Button onClick={onClearFilters}>{t('filter.clearAll')}</Button>}
        <ColumnChooser resource={resource} labels={labels} visible={visible} onChange={onColumnsChange} />
        <TransferActions
          resource={resource}
          labels={labels}
          canImport={canCreate}
          params={{
            filter: { ...(params.filters ?? {}), ...(fixedFilter ?? {}) },
            detailFilter: windowFilter,
            selectedColumns: params.selectedColumns,
            sort: params.sort,
          }}
        />
        <Button icon={<ReloadOutlined />} onClick={onRefresh} loading={refreshing} aria-label={t('action.refresh')} />
        {!resource.readOnly && canCreate && (
          <Button type="primary" icon={<PlusOutlined />} onClick={onCreate}>
            {t('resource.create', { item: labels.one })}
          </Button>
        )}
      </Space>
    </Flex>
  );
}
