import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  aggregate,
  EMPTY_SUMMARY,
  fetchAll,
  fetchDashboardSummary,
  fetchRecord,
  listRecords,
  normalizeFilter,
  searchRecords,
  serviceSearch,
} from '../src/lib/resource-api.ts';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';

const pageable = { page: 1, size: 10, sort: [] };

function okFetch() {
  return vi.fn(
    async () => new Response(JSON.stringify({ success: true, data: { content: [{ id: 1 }], totalElements: 1 } })),
  );
}

describe('resource calls', () => {
  beforeEach(() => setRuntimeConfig({ queryUrl: '/query/api', commandUrl: '/command/api' }));
  afterEach(() => vi.unstubAllGlobals());

  it('answers account-scoped list and search locally with an empty page when no account is selected', async () => {
    const fetchMock = okFetch();
    vi.stubGlobal('fetch', fetchMock);
    await expect(listRecords('addresses', { pageable })).resolves.toEqual({ content: [], totalElements: 0 });
    await expect(searchRecords('addresses', { pageable: { ...pageable, page: 0 } })).resolves.toEqual({
      content: [],
      totalElements: 0,
    });
    await expect(serviceSearch('addresses', {})).resolves.toEqual({ content: [], totalElements: 0 });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('answers every account-scoped read locally when no account is selected: aggregate and fetch-one too', async () => {
    const fetchMock = okFetch();
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchAll('devices')).resolves.toEqual({ content: [], totalElements: 0 });
    await expect(
      aggregate('channel-read-values', { aggregations: [{ field: 'value', fn: 'avg', as: 'avg' }] }),
    ).resolves.toEqual({ rows: [] });
    await expect(fetchRecord('devices', 7)).resolves.toBeNull();
    await expect(fetchDashboardSummary(null)).resolves.toEqual(EMPTY_SUMMARY);
    const forType = await fetchDashboardSummary(4);
    expect(forType).toEqual(EMPTY_SUMMARY);
    expect(forType).not.toBe(EMPTY_SUMMARY);
    expect(EMPTY_SUMMARY).toMatchObject({ inventory: [], deviceCount: 0, online: 0, offline: 0 });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks the server for the dashboard summary once an account is selected', async () => {
    const summary = { inventory: [], deviceCount: 3, online: 2, offline: 1, neverSeen: 0, alarms: null };
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ success: true, data: summary })));
    vi.stubGlobal('fetch', fetchMock);
    window.localStorage.setItem('selectedAccount', '{"id":2}');
    await expect(fetchDashboardSummary(4)).resolves.toEqual(summary);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toContain('/query/api/dashboard-summary?deviceTypeId=4');
  });

  it('asks the server for aggregate and fetch-one with skipAccountFilter, or once an account is selected', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ success: true, data: { rows: [{ avg: 2 }] } })));
    vi.stubGlobal('fetch', fetchMock);
    const body = { aggregations: [{ field: 'value', fn: 'avg' as const }] };
    await expect(aggregate('channel-read-values', body, { skipAccountFilter: true })).resolves.toEqual({
      rows: [{ avg: 2 }],
    });
    await expect(fetchRecord('countries', 3, { skipAccountFilter: true })).resolves.toEqual({ rows: [{ avg: 2 }] });
    window.localStorage.setItem('selectedAccount', '{"id":2}');
    await aggregate('channel-read-values', body);
    await fetchRecord('devices', 7);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(String((fetchMock.mock.calls[3] as unknown[])[0])).toContain('/query/api/devices/7');
  });

  it('calls the server without an account when skipAccountFilter is set', async () => {
    const fetchMock = okFetch();
    vi.stubGlobal('fetch', fetchMock);
    const page = await listRecords('countries', { pageable }, { skipAccountFilter: true });
    expect(page.totalElements).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('calls the server once an account is selected', async () => {
    window.localStorage.setItem('selectedAccount', '{"id":2}');
    const fetchMock = okFetch();
    vi.stubGlobal('fetch', fetchMock);
    await listRecords('addresses', { pageable });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sends an empty filter object as null', async () => {
    window.localStorage.setItem('selectedAccount', '2');
    const fetchMock = okFetch();
    vi.stubGlobal('fetch', fetchMock);
    await listRecords('addresses', { filter: {}, selectedColumns: {}, pageable });
    const body = JSON.parse((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body).toEqual({ filter: null, detailFilter: [], selectedColumns: null, pageable });
    expect(normalizeFilter({ q: '', cityId: undefined, ids: [] })).toBeNull();
    expect(normalizeFilter({ q: 'ank', isActive: false })).toEqual({ q: 'ank', isActive: false });
  });

  it('fetches all with page 0, size 1000, DESC through the search service', async () => {
    window.localStorage.setItem('selectedAccount', '2');
    const fetchMock = okFetch();
    vi.stubGlobal('fetch', fetchMock);
    await fetchAll('regions');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/query/api/regions/search');
    expect(JSON.parse(init.body as string)).toMatchObject({
      filters: [],
      logic: 'AND',
      page: 0,
      size: 1000,
      sortDirection: 'DESC',
    });
  });
});
