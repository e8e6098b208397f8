import type { deviceConnectionStatus, devices, RecordOf } from '@lampyr/contract';
import { useQuery } from '@tanstack/react-query';
import { keys } from '../lib/query-keys.ts';
import { type ListParams, listRecords, type Row } from '../lib/resource-api.ts';

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
/** The map's connection statuses, patched in place by the live stream. */
export const MAP_STATUS_KEY = keys.view('device-connection-status', 'map');
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

/** Each device's connection status, by device id. */
export function useMapConnections() {
  return useQuery({
    queryKey: MAP_STATUS_KEY,
    queryFn: async ({ signal }) => {
      const { rows } = await allRows(
        'device-connection-status',
        { filter: null, detailFilter: [], selectedColumns: { deviceId: true, status: true, dateTime: true } },
        'deviceId,asc',
        signal,
      );
      return new Map(rows.map((r) => [r.deviceId as number, { status: r.status, dateTime: r.dateTime } as Connection]));
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
