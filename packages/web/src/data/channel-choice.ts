import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../lib/query-keys.ts';
import { listRecords } from '../lib/resource-api.ts';
import { type ChannelTemplate, channelLabel, useList } from './device-data.ts';

export interface ChannelKind {
  code: string;
  label: string;
  unit: string;
  templateIds: number[];
}

/** The channels across every model, one entry per channel code (power, voltage, …). */
export function useChannelKinds() {
  const templates = useList<ChannelTemplate>(
    'device-channel-templates',
    {
      filter: null,
      detailFilter: [],
      selectedColumns: null,
      pageable: { page: 1, size: 1000, sort: ['channelOrder,asc'] },
    },
    { global: true },
  );
  const kinds = new Map<string, ChannelKind>();
  for (const tpl of templates.data?.content ?? []) {
    const kind = kinds.get(tpl.channelCode) ?? {
      code: tpl.channelCode,
      label: channelLabel(tpl, tpl.channelCode),
      unit: tpl.unit,
      templateIds: [],
    };
    kind.templateIds.push(tpl.id);
    kinds.set(tpl.channelCode, kind);
  }
  return { kinds: [...kinds.values()], loading: templates.isPending };
}

/** The channel a chart screen shows: power until the person picks another (or the first there is). */
export function useChannelKind() {
  const { kinds } = useChannelKinds();
  const [code, setCode] = useState<string>();
  const kind = kinds.find((k) => k.code === (code ?? 'power')) ?? kinds[0];
  return { kinds, kind, setCode };
}

/** The ids of a region's devices (all of the account's when no region is given). */
export function useRegionDevices(regionId: number | undefined) {
  const params = {
    filter: regionId === undefined ? null : { regionId },
    detailFilter: [],
    selectedColumns: { name: true },
    pageable: { page: 1, size: 1000, sort: [] },
  };
  return useQuery({
    queryKey: keys.list('devices', params),
    queryFn: ({ signal }) => listRecords('devices', params, { signal }),
    enabled: regionId !== undefined,
    select: (page) => page.content.map((d) => d.id),
  });
}
