import type { ReportKind } from '@lampyr/contract';
import { DatePicker, Flex, Select } from 'antd';
import dayjs from 'dayjs';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { periodPresets, type ReportGroupOf, type ReportPage } from './use-report-page.ts';

/**
 * The filters of a report screen: its period (days up to today, with the last week, month and year
 * a click away), how it is grouped, then the report's own filters (`children`).
 */
export function ReportFilters<K extends ReportKind>({
  state,
  periodLabel,
  groups,
  groupLabel,
  groupWidth = 150,
  style,
  children,
}: {
  state: ReportPage<K>;
  /** The period's accessible name (what the period counts: alarms raised, faults, energy). */
  periodLabel: string;
  groups: readonly ReportGroupOf<K>[];
  groupLabel: (group: ReportGroupOf<K>) => string;
  groupWidth?: number;
  style?: CSSProperties;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const presets = periodPresets();
  return (
    <Flex wrap gap={8} align="center" style={style}>
      <DatePicker.RangePicker
        aria-label={periodLabel}
        value={state.range}
        allowClear={false}
        disabledDate={(d) => d.isAfter(dayjs(), 'day')}
        presets={[
          { label: t('reports.presets.week'), value: presets.week },
          { label: t('reports.presets.month'), value: presets.month },
          { label: t('reports.presets.year'), value: presets.year },
        ]}
        onChange={(next) => {
          if (next?.[0] && next[1]) state.setRange([next[0], next[1]]);
        }}
      />
      <Select<ReportGroupOf<K>>
        aria-label={t('savings.groupByLabel')}
        value={state.groupBy}
        style={{ minWidth: groupWidth }}
        options={groups.map((g) => ({ value: g, label: groupLabel(g) }))}
        onChange={state.setGroupBy}
      />
      {children}
    </Flex>
  );
}

/** A report filter naming one record of a list (a region, a device, a model), or none: all of them. */
export function ReportReferenceFilter({
  prefix,
  value,
  onChange,
  label,
  placeholder = label,
  width = 180,
}: {
  prefix: string;
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  /** Its accessible name. */
  label: string;
  /** What it shows while none is chosen (its name, unless said otherwise). */
  placeholder?: string;
  width?: number;
}) {
  return (
    <div style={{ minWidth: width }}>
      <ReferenceSelect
        prefix={prefix}
        value={value ?? null}
        placeholder={placeholder}
        aria-label={label}
        onChange={(id) => onChange(typeof id === 'number' ? id : undefined)}
      />
    </div>
  );
}

/** The region filter every report has: one region, or all of them. */
export function ReportRegionFilter({
  state,
  label,
  placeholder,
  width,
}: {
  state: { filters: { regionId?: number }; setFilter: (key: 'regionId', id: number | undefined) => void };
  label?: string;
  placeholder?: string;
  width?: number;
}) {
  const { t } = useTranslation();
  return (
    <ReportReferenceFilter
      prefix="regions"
      label={label ?? t('savings.allRegions')}
      placeholder={placeholder}
      width={width}
      value={state.filters.regionId}
      onChange={(id) => state.setFilter('regionId', id)}
    />
  );
}
