import type { DeviceLampState, MemberSource, MembersAdded, StreetCount } from '@lampyr/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from '../lib/api-client.ts';
import { onLiveEvent } from '../lib/live-stream.ts';
import { keys } from '../lib/query-keys.ts';

/** Lamp states follow the readings; they are read again this often while a screen shows them. */
const REFRESH_MS = 30_000;
/** After a reading, connection or alarm change on the live stream, they are read again at most this often. */
const LIVE_REFRESH_MS = 10_000;

/**
 * The lamp state of devices (server data/lamp-state.ts), by device id: of the listed ids, or of
 * every device of the account when `deviceIds` is `'all'` (the map).
 */
export function useLampStates(deviceIds: readonly number[] | 'all') {
  const ids = deviceIds === 'all' ? 'all' : [...new Set(deviceIds)].sort((a, b) => a - b);
  useLiveRefresh(keys.resource('lamp-states'));
  return useQuery({
    queryKey: keys.aggregate('lamp-states', 'devices', ids),
    queryFn: async ({ signal }) => {
      const query = ids === 'all' ? '' : `?deviceId=${ids.join(',')}`;
      const rows = await request<DeviceLampState[]>('query', `lamp-states${query}`, { signal });
      return new Map(rows.map((r) => [r.deviceId, r]));
    },
    enabled: ids === 'all' || ids.length > 0,
    refetchInterval: REFRESH_MS,
  });
}

/**
 * Reads `queryKey` again after a reading, connection or alarm change arrives on the live stream, at
 * most once every LIVE_REFRESH_MS (lamp states follow readings; a busy fleet must not refetch per uplink).
 */
export function useLiveRefresh(queryKey: readonly unknown[]) {
  const client = useQueryClient();
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onLiveEvent((event) => {
      if (timer || (event.type !== 'value' && event.type !== 'status' && event.type !== 'alarm')) return;
      timer = setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: JSON.parse(key) as unknown[] });
      }, LIVE_REFRESH_MS);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [client, key]);
}

/** The streets of the account's devices, for street filters. */
export function useStreets() {
  return useQuery({
    queryKey: keys.view('devices', 'streets'),
    queryFn: ({ signal }) => request<StreetCount[]>('query', 'streets', { signal }),
    staleTime: 60_000,
  });
}

/** Adds the devices of a street, a region, a map area or a list to a task group's members. */
export function useAddGroupMembers(taskGroupId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberSource) =>
      request<MembersAdded>('command', `task-groups/${taskGroupId}/members/add`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.resource('task-group-members') }),
  });
}
