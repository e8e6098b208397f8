import {
  type deviceChannelTemplates,
  findResource,
  type RecordOf,
  type subDeviceChannelTemplates,
} from '@lampyr/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';
import { fetchRecord, type ListParams, listRecords, type Row } from '../lib/resource-api.ts';
import { needsAccount } from './resource-list.ts';

/** A channel template as the query API returns it (derived from its catalogue definition). */
export type ChannelTemplate = RecordOf<typeof deviceChannelTemplates>;

const TEMPLATES = 'device-channel-templates';

/** A sub-device channel template: decoded inside its parent channel's package. */
export type SubChannelTemplate = RecordOf<typeof subDeviceChannelTemplates>;

function params(filter: ListParams['filter'], size: number, sort: string[] = []): ListParams {
  return { filter, detailFilter: [], selectedColumns: null, pageable: { page: 1, size, sort } };
}

/** One record by id, cached where the generic screens cache it; `staleTime: 0` reads it afresh (a form). */
export function useRecord<T extends Row = Row>(
  prefix: string,
  id: number | undefined,
  options: { staleTime?: number } = {},
) {
  return useQuery({
    queryKey: keys.detail(prefix, id ?? 0),
    queryFn: ({ signal }) =>
      fetchRecord<T>(prefix, id as number, { signal, skipAccountFilter: !needsAccount(findResource(prefix)) }),
    enabled: id !== undefined,
    ...options,
  });
}

/** A list read through the List call, so live events patch it in place (see live-stream.ts). */
export function useList<T extends Row = Row>(
  prefix: string,
  listParams: ListParams,
  options: {
    enabled?: boolean;
    global?: boolean;
    /** Read again every this many ms while the rows say so (a safety net beside the live stream). */
    pollWhile?: { everyMs: number; when(rows: T[]): boolean };
  } = {},
) {
  const poll = options.pollWhile;
  return useQuery({
    queryKey: keys.list(prefix, listParams),
    queryFn: ({ signal }) => listRecords<T>(prefix, listParams, { signal, skipAccountFilter: options.global }),
    enabled: options.enabled ?? true,
    refetchInterval: poll
      ? (query) => (query.state.data && poll.when(query.state.data.content) ? poll.everyMs : false)
      : undefined,
  });
}

/** The channel templates of device models, in channel order. */
export function useChannelTemplates(modelIds: readonly number[]) {
  const ids = [...new Set(modelIds)].sort((a, b) => a - b);
  return useList<ChannelTemplate>(TEMPLATES, params({ deviceTypeModelId: ids }, 1000, ['channelOrder,asc']), {
    enabled: ids.length > 0,
    global: true,
  });
}

/** The sub-device channels of some channel templates, in package order. */
export function useSubChannelTemplates(parentIds: readonly number[]) {
  const ids = [...new Set(parentIds)].sort((a, b) => a - b);
  return useList<SubChannelTemplate>(
    'sub-device-channel-templates',
    params({ parentTemplateId: ids }, 1000, ['channelPackageOrder,asc']),
    { enabled: ids.length > 0, global: true },
  );
}

/** Every channel's latest value of some devices. */
export function useLatestValues(deviceIds: readonly number[]) {
  const ids = [...new Set(deviceIds)].sort((a, b) => a - b);
  return useList('channel-values', params({ deviceId: ids.length === 1 ? ids[0] : ids }, 1000), {
    enabled: ids.length > 0,
  });
}

/** The connection status of some devices. */
export function useConnectionStatus(deviceIds: readonly number[]) {
  const ids = [...new Set(deviceIds)].sort((a, b) => a - b);
  return useList(
    'device-connection-status',
    params({ deviceId: ids.length === 1 ? ids[0] : ids }, 1000, ['dateTime,desc']),
    { enabled: ids.length > 0 },
  );
}

/** The template a model writes a channel through (`lamp` for on/off, `dim` for the level). */
export function writeTemplate(
  templates: readonly ChannelTemplate[],
  modelId: number,
  code: string,
): ChannelTemplate | undefined {
  return templates.find((t) => t.deviceTypeModelId === modelId && t.channelCode === code && t.channelType !== 'read');
}

/** How a channel is named on screen: its data label, else its name, else its code. */
export function channelLabel(template: ChannelTemplate | undefined, fallback: string): string {
  return template?.dataLabel || template?.name || template?.channelCode || fallback;
}

/** The overrides holding a device now, newest first ("Override 40 % until 23:00"). */
export function useActiveOverrides(deviceId: number) {
  return useQuery({
    queryKey: keys.view('overrides', `device-${deviceId}`),
    queryFn: ({ signal }) =>
      request<{ id: number; level: number; until: string; reason: string }[]>(
        'query',
        `devices/${deviceId}/active-overrides`,
        { signal },
      ),
    refetchInterval: 60_000,
  });
}
