import type { deviceConnectionStatus, devices, LampState, MapExtent, MapView, RecordOf } from '@lampyr/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';
import { type ListParams, listRecords, type Row } from '../lib/resource-api.ts';
import { useLiveRefresh } from './lamp-states.ts';

/** A device the map draws: one with coordinates. */
export type MapDevice = Pick<RecordOf<typeof devices>, 'id' | 'name' | 'street'> & {
  latitude: number;
  longitude: number;
};

/** A device's connection as the map colours it. */
export type Connection = Pick<RecordOf<typeof deviceConnectionStatus>, 'status' | 'dateTime'>;

const PAGE = 1000;
/** Devices drawn at most; a larger fleet is cut with a notice. */
export const MAX_DEVICES = 20_000;
export const MAP_DEVICES_KEY = keys.view('devices', 'map');
const MAP_OVERRIDES_KEY = keys.view('overrides', 'map');

/** Every page of a list, a thousand rows at a time, up to `MAX_DEVICES` rows. */
async function allRows(prefix: string, params: Omit<ListParams, 'pageable'>, sort: string, signal: AbortSignal) {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const answer = await listRecords(prefix, { ...params, pageable: { page, size: PAGE, sort: [sort] } }, { signal });
    rows.push(...answer.content);
    if (answer.content.length < PAGE || rows.length >= answer.totalElements || rows.length >= MAX_DEVICES)
      return { rows: rows.slice(0, MAX_DEVICES), total: answer.totalElements };
  }
}

/** The account's devices that have coordinates, and how many there are in all. */
export function useMapDevices() {
  return useQuery({
    queryKey: MAP_DEVICES_KEY,
    queryFn: async ({ signal }) => {
      const { rows, total } = await allRows(
        'devices',
        {
          filter: null,
          detailFilter: [
            { field: 'latitude', operator: 'isNotNull', value: null },
            { field: 'longitude', operator: 'isNotNull', value: null },
          ],
          selectedColumns: { name: true, street: true, latitude: true, longitude: true },
        },
        'name,asc',
        signal,
      );
      return { devices: rows as unknown as MapDevice[], total };
    },
  });
}

/** The lights held by an active override, with its level and end (the map rings them). */
export function useMapOverrides() {
  return useQuery({
    queryKey: MAP_OVERRIDES_KEY,
    queryFn: async ({ signal }) => {
      const { rows } = await allRows(
        'overrides',
        { filter: { status: 'active' }, detailFilter: [], selectedColumns: null },
        'createdAt,asc',
        signal,
      );
      const held = new Map<number, { level: number; until: string }>();
      for (const o of rows)
        for (const id of (o.deviceIds as number[] | null) ?? [])
          held.set(id, { level: o.level as number, until: o.until as string });
      return held;
    },
    refetchInterval: 60_000,
  });
}

/** The part of the world a map shows, as the device map asks for it. */
export interface MapBox {
  west: number;
  south: number;
  east: number;
  north: number;
  zoom: number;
}

const MAP_VIEW_KEY = keys.view('device-map', 'view');
/** Lamp states follow the readings: the map's view is read again this often while it shows. */
const VIEW_REFRESH_MS = 30_000;

/** The box around the account's placed devices (of one street), for the map's first view. */
export function useMapExtent(street?: string) {
  return useQuery({
    queryKey: [...keys.view('device-map', 'extent'), street ?? null],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      request<MapExtent>('query', `device-map/extent${street ? `?street=${encodeURIComponent(street)}` : ''}`, {
        signal,
      }),
  });
}

/**
 * The devices in a map's view by lamp state (one by one, or clustered when many), with the counts
 * per state for the legend; the previous view stays drawn while the next loads.
 */
export function useMapView(box: MapBox | undefined, street?: string, state?: LampState) {
  useLiveRefresh(MAP_VIEW_KEY);
  return useQuery({
    queryKey: [...MAP_VIEW_KEY, box, street ?? null, state ?? null],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams(Object.entries(box ?? {}).map(([name, value]) => [name, String(value)]));
      if (street) query.set('street', street);
      if (state) query.set('state', state);
      return request<MapView>('query', `device-map?${query}`, { signal });
    },
    enabled: box !== undefined,
    placeholderData: keepPreviousData,
    refetchInterval: VIEW_REFRESH_MS,
  });
}
