import { CONSTANTS, type Condition, type ResourceDef } from '@lampyr/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { defaultTableParams, type TableParams, useConsoleStore } from '../lib/console-store.ts';
import { keys } from '../lib/query-keys.ts';
import { type FilterObject, type ListParams, listRecords, type Row } from '../lib/resource-api.ts';

/** Account-scoped resources answer nothing without a selected account (SPEC §5). */
export function needsAccount(resource: ResourceDef | undefined): boolean {
  return resource === undefined || resource.scope === 'account' || resource.scope === 'members';
}

export function listParamsOf(params: TableParams, fixedFilter?: FilterObject): ListParams {
  return {
    filter: fixedFilter ? { ...(params.filters ?? {}), ...fixedFilter } : params.filters,
    detailFilter: params.detailFilter ?? [],
    selectedColumns: params.selectedColumns,
    pageable: { page: params.page, size: params.size, sort: params.sort },
  };
}

const DEFAULTS = defaultTableParams();

/** The range a readings or data-log table shows until the person picks one: the last 24 hours. */
export function defaultTimeWindow(field: string, now = Date.now()): Condition {
  const from = new Date(now - CONSTANTS.timeWindowDefaultHours * 60 * 60 * 1000);
  return { field, operator: 'between', value: [from.toISOString(), new Date(now).toISOString()] };
}

/**
 * Table parameters as sent: a resource bounded by a time window (its API refuses a call without
 * one) gets `fallback` when the person has not filtered its time field.
 */
export function withTimeWindow(resource: ResourceDef, params: TableParams, fallback: Condition | undefined) {
  const field = resource.timeWindow;
  if (!field || !fallback || (params.detailFilter ?? []).some((c) => c.field === field)) {
    return { params, usesDefault: false };
  }
  return { params: { ...params, detailFilter: [...(params.detailFilter ?? []), fallback] }, usesDefault: true };
}

/** The persisted table parameters of one prefix and a way to change them. */
export function useTableParams(prefix: string) {
  const params = useConsoleStore((s) => s.tableParams[prefix]) ?? DEFAULTS;
  const set = useConsoleStore((s) => s.setTableParams);
  const reset = useConsoleStore((s) => s.resetTableParams);
  const update = useCallback((patch: Partial<TableParams>) => set(prefix, patch), [prefix, set]);
  const clear = useCallback(() => reset(prefix), [prefix, reset]);
  return { params, update, reset: clear };
}

export function useResourceList(resource: ResourceDef, params: TableParams, fixedFilter?: FilterObject) {
  const listParams = listParamsOf(params, fixedFilter);
  return useQuery({
    queryKey: keys.list(resource.name, listParams),
    queryFn: ({ signal }) =>
      listRecords<Row>(resource.name, listParams, { signal, skipAccountFilter: !needsAccount(resource) }),
    placeholderData: keepPreviousData,
  });
}

/**
 * One page of a list a hand-made screen shows (alarms, notifications), keeping the previous page on
 * screen while the next loads; `refetchInterval` for lists that change without a live event.
 */
export function usePagedList<T extends Row = Row>(
  prefix: string,
  params: ListParams,
  options: { refetchInterval?: number } = {},
) {
  return useQuery({
    queryKey: keys.list(prefix, params),
    queryFn: ({ signal }) => listRecords<T>(prefix, params, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: options.refetchInterval,
  });
}
