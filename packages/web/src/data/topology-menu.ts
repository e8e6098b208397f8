import { CONSTANTS } from '@lampyr/contract';
import { useQuery } from '@tanstack/react-query';
import { errorCode } from '../lib/api-errors.ts';
import { shouldRetry } from '../lib/query-client.ts';
import { keys } from '../lib/query-keys.ts';
import { listRecords } from '../lib/resource-api.ts';

export const TOPOLOGY_TYPES = 'device-topology-types';

export interface TopologyMenuEntry {
  key: string;
  id: string;
  name: string;
}

/** Reads `id`/`Id` and `name`/`Name`/`topologyTypeName`, the spellings the SPEC says occur. */
export function topologyEntry(record: Record<string, unknown>): TopologyMenuEntry | undefined {
  const id = record.id ?? record.Id ?? record.ID;
  if (id === undefined || id === null || id === '') return undefined;
  const rawName = record.name ?? record.Name ?? record.topologyTypeName ?? record.TopologyTypeName;
  const name = typeof rawName === 'string' && rawName.trim() !== '' ? rawName : `#${String(id)}`;
  return { key: `/device-topology/${String(id)}`, id: String(id), name };
}

/**
 * SPEC §2/§7: one menu entry per topology type, listed from the server (page 1, size 100).
 * Until the server has the resource (404) or when it has none, the group is left out.
 */
export function useTopologyMenu(): TopologyMenuEntry[] {
  const { page, size } = CONSTANTS.menuTopologyList;
  const params = { filter: null, detailFilter: [], selectedColumns: null, pageable: { page, size, sort: [] } };
  const { data } = useQuery({
    queryKey: keys.list(TOPOLOGY_TYPES, params),
    queryFn: ({ signal }) => listRecords<Record<string, unknown>>(TOPOLOGY_TYPES, params, { signal }),
    retry: (count, error) => errorCode(error) !== 'NOT_FOUND' && shouldRetry(count, error),
  });
  return (data?.content ?? []).map(topologyEntry).filter((e): e is TopologyMenuEntry => e !== undefined);
}
