import type {
  PlatformAccount,
  PlatformUser,
  SetActiveBody,
  SetIntegratorBody,
  SetOperatorBody,
  SetParentBody,
} from '@lampyr/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';

/** One change of the platform operators' screen: where it goes and its contract body. */
export type PlatformChange =
  | { path: 'accounts/integrator'; body: SetIntegratorBody }
  | { path: 'accounts/parent'; body: SetParentBody }
  | { path: 'accounts/active'; body: SetActiveBody }
  | { path: 'operators'; body: SetOperatorBody };

export function usePlatformAccounts() {
  return useQuery({
    queryKey: keys.platform('accounts'),
    queryFn: ({ signal }) => request<PlatformAccount[]>('query', 'platform/accounts', { signal }),
  });
}

export function usePlatformUsers() {
  return useQuery({
    queryKey: keys.platform('users'),
    queryFn: ({ signal }) => request<PlatformUser[]>('query', 'platform/users', { signal }),
  });
}

/** A change of the account tree or of the operators; `onDone` hears of it after the caches are dropped. */
export function usePlatformChange(handlers: { onSaved: () => void; onError: (error: unknown) => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ path, body }: PlatformChange) =>
      request<unknown>('command', `platform/${path}`, { method: 'POST', body }),
    onSuccess: async () => {
      handlers.onSaved();
      // The tree decides which accounts everyone may act in: every cached list may be stale.
      await client.invalidateQueries({ queryKey: keys.all });
    },
    onError: handlers.onError,
  });
}
