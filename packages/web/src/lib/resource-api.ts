import type {
  AggregateInput,
  AggregateResult,
  DashboardSummary,
  ListBody,
  Page,
  Pageable,
  ServiceSearchInput,
} from '@lampyr/contract';
import { CONSTANTS } from '@lampyr/contract';
import { request } from './api-client.ts';
import { selectedAccountId } from './session-storage.ts';

export type FilterValue = string | number | boolean | null | (string | number | boolean | null)[];
/** A list's filter as screens build it: a key left unset is dropped before sending (SPEC §5). */
export type FilterObject = Record<string, FilterValue | undefined>;

/** The contract's list body, but for the filter, which `normalizeFilter` tidies before sending. */
export type ListParams = Omit<ListBody, 'filter'> & { filter?: FilterObject | null };

export type { Pageable };

export interface CallOptions {
  /** Call the server even with no account selected (resources that are not account-scoped). */
  skipAccountFilter?: boolean;
  signal?: AbortSignal;
}

export type Row = Record<string, unknown> & { id: number };

/**
 * SPEC §5/§7: with no account selected, every account-scoped read is answered here, without asking
 * the server (which would refuse it or answer another scope), unless `skipAccountFilter` is set:
 * - list, search, service search and fetch-all: an empty page, `{content: [], totalElements: 0}`;
 * - aggregate: the aggregate's empty answer, `{rows: []}` (the server's shape with no rows);
 * - fetch-one: `null` (there is no record to show);
 * - the dashboard's summary: an account with nothing in it (`EMPTY_SUMMARY`).
 * Commands are not answered locally: the server refuses them with its own message.
 */
export const EMPTY_PAGE: Readonly<Page<never>> = Object.freeze({ content: [], totalElements: 0 });

function noAccount(options: CallOptions): boolean {
  return !options.skipAccountFilter && selectedAccountId() === undefined;
}

/** SPEC §5: an empty filter object is sent as null; keys whose value is unset are dropped. */
export function normalizeFilter(filter: FilterObject | null | undefined): Record<string, FilterValue> | null {
  if (!filter) return null;
  const entries = Object.entries(filter).filter(
    (entry): entry is [string, FilterValue] =>
      entry[1] !== undefined && entry[1] !== '' && !(Array.isArray(entry[1]) && entry[1].length === 0),
  );
  return entries.length ? Object.fromEntries(entries) : null;
}

function normalizeColumns(columns: Record<string, boolean> | null | undefined): Record<string, boolean> | null {
  if (!columns) return null;
  const chosen = Object.entries(columns).filter(([, on]) => on);
  return chosen.length ? Object.fromEntries(chosen) : null;
}

export function listBody(params: ListParams) {
  return {
    filter: normalizeFilter(params.filter),
    detailFilter: params.detailFilter ?? [],
    selectedColumns: normalizeColumns(params.selectedColumns),
    pageable: params.pageable,
  };
}

/** List: `POST {query}/{prefix}`, page counted from 1. */
export async function listRecords<T = Row>(
  prefix: string,
  params: ListParams,
  options: CallOptions = {},
): Promise<Page<T>> {
  if (noAccount(options)) return { ...EMPTY_PAGE };
  return request<Page<T>>('query', prefix, { method: 'POST', body: listBody(params), signal: options.signal });
}

/** Search: `POST {query}/{prefix}/search` with `pageable`, page counted from 0. */
export async function searchRecords<T = Row>(
  prefix: string,
  params: Omit<ListParams, 'selectedColumns'>,
  options: CallOptions = {},
): Promise<Page<T>> {
  if (noAccount(options)) return { ...EMPTY_PAGE };
  const { selectedColumns: _ignored, ...body } = listBody(params);
  return request<Page<T>>('query', `${prefix}/search`, { method: 'POST', body, signal: options.signal });
}

/** The search service variant: filters, logic, page, size, sort direction. */
export async function serviceSearch<T = Row>(
  prefix: string,
  params: ServiceSearchInput,
  options: CallOptions = {},
): Promise<Page<T>> {
  if (noAccount(options)) return { ...EMPTY_PAGE };
  const body = { filters: [], logic: 'AND', page: 0, size: 20, sortDirection: 'DESC', ...params };
  return request<Page<T>>('query', `${prefix}/search`, { method: 'POST', body, signal: options.signal });
}

/** Fetch-all (SPEC §9): search with no filters, page 0, size 1000, DESC. */
export function fetchAll<T = Row>(prefix: string, options: CallOptions = {}): Promise<Page<T>> {
  const { page, size, sortDirection } = CONSTANTS.fetchAll;
  return serviceSearch<T>(prefix, { filters: [], logic: 'AND', page, size, sortDirection }, options);
}

/** Aggregate: `POST {query}/{prefix}/aggregate`; `{rows: []}` locally with no account selected. */
export async function aggregate<R = Record<string, unknown>>(
  prefix: string,
  params: AggregateInput,
  options: CallOptions = {},
): Promise<AggregateResult<R>> {
  if (noAccount(options)) return { rows: [] };
  const body = { logic: 'AND', filters: [], ...params };
  return request<AggregateResult<R>>('query', `${prefix}/aggregate`, { method: 'POST', body, signal: options.signal });
}

/** Fetch-one: `GET {query}/{prefix}/{id}`; `null` locally with no account selected. */
export async function fetchRecord<T = Row>(
  prefix: string,
  id: number | string,
  options: CallOptions = {},
): Promise<T | null> {
  if (noAccount(options)) return null;
  return request<T>('query', `${prefix}/${encodeURIComponent(String(id))}`, { signal: options.signal });
}

/** The dashboard summary of an account with no devices and no alarms. */
export const EMPTY_SUMMARY: Readonly<DashboardSummary> = Object.freeze({
  inventory: [],
  deviceCount: 0,
  online: 0,
  offline: 0,
  neverSeen: 0,
  alarms: { low: 0, medium: 0, high: 0, count: 0 },
  lamps: { on: 0, dimmed: 0, off: 0, fault: 0, offline: 0, unknown: 0 },
  powerW: 0,
  energyToday: { day: '', energyKwh: null, baselineKwh: null },
  openFaults: 0,
  gateways: 0,
  gatewaysDown: 0,
});

/** The dashboard's summary: `GET {query}/dashboard-summary`, for one device type or all. */
export async function fetchDashboardSummary(
  deviceTypeId: number | null,
  options: CallOptions = {},
): Promise<DashboardSummary> {
  if (noAccount(options)) return structuredClone(EMPTY_SUMMARY) as DashboardSummary;
  const query = deviceTypeId === null ? '' : `?deviceTypeId=${encodeURIComponent(String(deviceTypeId))}`;
  return request<DashboardSummary>('query', `dashboard-summary${query}`, { signal: options.signal });
}

export function createRecord<T = Row>(prefix: string, data: Record<string, unknown>): Promise<T> {
  return request<T>('command', prefix, { method: 'POST', body: data });
}

/** Update carries the `updatedAt` it read, so a concurrent change is a 409, not an overwrite. */
export function updateRecord<T = Row>(prefix: string, data: Record<string, unknown> & { id: number }): Promise<T> {
  return request<T>('command', prefix, { method: 'PUT', body: data });
}

export function deleteRecord(prefix: string, id: number): Promise<{ id: number }> {
  return request<{ id: number }>('command', prefix, { method: 'DELETE', body: { id } });
}
