import type { Condition, FieldDef } from '@lampyr/contract';
import { Button, Checkbox, DatePicker, Flex, Input, InputNumber, Radio, Space } from 'antd';
import type { FilterDropdownProps } from 'antd/es/table/interface';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableParams } from '../lib/console-store.ts';
import type { FilterValue } from '../lib/resource-api.ts';
import type { ResourceLabels } from './labels.ts';
import { ReferenceSelect } from './reference-select.tsx';

/** Where a field's filter lives: an equality in `filter`, or a condition in `detailFilter`. */
export type FilterTarget = 'filter' | 'detailFilter' | 'none';

export function filterTarget(def: FieldDef): FilterTarget {
  switch (def.kind) {
    case 'enum':
    case 'boolean':
    case 'reference':
      return 'filter';
    case 'json':
    case 'secret':
    case 'time':
      return 'none';
    default:
      return 'detailFilter';
  }
}

export interface FilterApi {
  params: TableParams;
  setFilter: (field: string, value: FilterValue | undefined) => void;
  setCondition: (field: string, condition: Condition | undefined) => void;
}

export function isFiltered(params: TableParams, field: string): boolean {
  const value = params.filters?.[field];
  const inFilter = value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
  return inFilter || (params.detailFilter ?? []).some((c) => c.field === field);
}

function Panel({ children, onApply, onReset }: { children: ReactNode; onApply: () => void; onReset: () => void }) {
  const { t } = useTranslation();
  return (
    <div style={{ padding: 12, minWidth: 240 }}>
      <Flex vertical gap={8}>
        {children}
        <Space>
          <Button type="primary" size="small" onClick={onApply}>
            {t('filter.apply')}
          </Button>
          <Button size="small" onClick={onReset}>
            {t('filter.reset')}
          </Button>
        </Space>
      </Flex>
    </div>
  );
}

/** The filter panel of a column, by the field's kind. */
export function filterDropdown(name: string, def: FieldDef, label: string, labels: ResourceLabels, api: FilterApi) {
  const target = filterTarget(def);
  if (target === 'none') return undefined;
  return (props: FilterDropdownProps) => (
    <FieldFilter name={name} def={def} label={label} labels={labels} api={api} close={props.close} />
  );
}

function FieldFilter({
  name,
  def,
  label,
  labels,
  api,
  close,
}: {
  name: string;
  def: FieldDef;
  label: string;
  labels: ResourceLabels;
  api: FilterApi;
  close: () => void;
}) {
  const { t } = useTranslation();
  const current = api.params.filters?.[name];
  const condition = (api.params.detailFilter ?? []).find((c) => c.field === name);
  const [value, setValue] = useState<unknown>(() =>
    filterTarget(def) === 'filter' ? current : panelValue(def, condition),
  );
  const apply = (next: unknown) => {
    if (filterTarget(def) === 'filter') api.setFilter(name, next as FilterValue | undefined);
    else api.setCondition(name, toCondition(name, def, next));
    close();
  };
  const reset = () => {
    setValue(undefined);
    apply(undefined);
  };
  const aria = t('filter.by', { field: label });

  switch (def.kind) {
    case 'enum':
      return (
        <Panel onApply={() => apply(value)} onReset={reset}>
          <Checkbox.Group
            aria-label={aria}
            value={(value as string[] | undefined) ?? []}
            onChange={(v) => setValue(v.length ? v : undefined)}
            options={(def.options ?? []).map((o) => ({ value: o, label: labels.option(name, o) }))}
            style={{ display: 'flex', flexDirection: 'column' }}
          />
        </Panel>
      );
    case 'boolean':
      return (
        <Panel onApply={() => apply(value)} onReset={reset}>
          <Radio.Group
            aria-label={aria}
            value={value === undefined ? 'any' : String(value)}
            onChange={(e) => setValue(e.target.value === 'any' ? undefined : e.target.value === 'true')}
            options={[
              { value: 'any', label: t('filter.any') },
              { value: 'true', label: t('value.yes') },
              { value: 'false', label: t('value.no') },
            ]}
          />
        </Panel>
      );
    case 'reference':
      return (
        <Panel onApply={() => apply(value)} onReset={reset}>
          <ReferenceSelect
            aria-label={aria}
            prefix={def.ref ?? ''}
            multiple
            autoFocus
            value={(value as number[] | undefined) ?? []}
            onChange={(v) => setValue(Array.isArray(v) && v.length ? v : undefined)}
          />
        </Panel>
      );
    case 'integer':
    case 'number': {
      const [min, max] = (Array.isArray(value) ? value : [undefined, undefined]) as [number?, number?];
      return (
        <Panel onApply={() => apply(value)} onReset={reset}>
          <Space>
            <InputNumber
              aria-label={t('filter.from', { field: label })}
              placeholder={t('filter.min')}
              value={min}
              onChange={(v) => setValue([v ?? undefined, max])}
              autoFocus
            />
            <InputNumber
              aria-label={t('filter.to', { field: label })}
              placeholder={t('filter.max')}
              value={max}
              onChange={(v) => setValue([min, v ?? undefined])}
            />
          </Space>
        </Panel>
      );
    }
    case 'date':
    case 'datetime':
      return (
        <Panel onApply={() => apply(value)} onReset={reset}>
          <DatePicker.RangePicker
            aria-label={aria}
            value={value as [Dayjs, Dayjs] | undefined}
            showTime={def.kind === 'datetime'}
            onChange={(range) => setValue(range?.[0] && range[1] ? [range[0], range[1]] : undefined)}
          />
        </Panel>
      );
    default:
      return (
        <Panel onApply={() => apply(value)} onReset={reset}>
          <Input
            aria-label={aria}
            placeholder={t('filter.contains')}
            value={(value as string | undefined) ?? ''}
            onChange={(e) => setValue(e.target.value || undefined)}
            onPressEnter={() => apply(value)}
            autoFocus
          />
        </Panel>
      );
  }
}

/** A stored condition as its panel shows it. */
function panelValue(def: FieldDef, condition: Condition | undefined): unknown {
  if (!condition) return undefined;
  const v = condition.value;
  if (def.kind === 'integer' || def.kind === 'number') {
    if (condition.operator === 'gte') return [v, undefined];
    if (condition.operator === 'lte') return [undefined, v];
    return v;
  }
  if ((def.kind === 'date' || def.kind === 'datetime') && Array.isArray(v))
    return [dayjs(String(v[0])), dayjs(String(v[1]))];
  return v;
}

/** A panel's value as a `detailFilter` condition of the query API. */
export function toCondition(name: string, def: FieldDef, value: unknown): Condition | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (def.kind === 'integer' || def.kind === 'number') {
    const [min, max] = value as [number | undefined, number | undefined];
    if (min !== undefined && max !== undefined) return { field: name, operator: 'between', value: [min, max] };
    if (min !== undefined) return { field: name, operator: 'gte', value: min };
    if (max !== undefined) return { field: name, operator: 'lte', value: max };
    return undefined;
  }
  if (def.kind === 'date' || def.kind === 'datetime') {
    const [from, to] = value as [Dayjs, Dayjs];
    const format = (d: Dayjs) => (def.kind === 'date' ? d.format('YYYY-MM-DD') : d.toISOString());
    return { field: name, operator: 'between', value: [format(from), format(to)] };
  }
  return { field: name, operator: 'contains', value: String(value) };
}
