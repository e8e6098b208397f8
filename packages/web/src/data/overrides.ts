import type { OverrideRequest } from '@lampyr/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';

/** Holds lights at a level until a time; the overrides list, the map's rings and device tags refresh. */
export function useCreateOverride() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OverrideRequest) =>
      request<{ id: number; deviceCount: number }>('command', 'overrides', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.resource('overrides') }),
  });
}
