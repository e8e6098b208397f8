import type { AuthAnswers, PermissionAction, ResourcePermissions } from '@lampyr/contract/auth';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { request } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';
import { isAuthenticated, selectedAccountId } from '../lib/session-storage.ts';

export interface Permissions {
  /** Whether the server's answer has come (until then writes are not offered, reads are). */
  known: boolean;
  /** Whether the server accepts `action` on `resource` from this person in the selected account. */
  can(resource: string, action: PermissionAction): boolean;
}

/** What may be offered, decided from an answer of `auth/me` (or none yet). */
export function permissionsFrom(answer: ResourcePermissions | undefined): Permissions {
  return {
    known: answer !== undefined,
    can: (resource, action) =>
      answer === undefined ? action === 'read' : (answer[resource]?.includes(action) ?? false),
  };
}

/**
 * The one place the console learns what the person may do: `GET auth/me` answers, for the account
 * the call names, each resource's allowed actions — the same checks the server enforces. Every
 * screen hides or disables what this denies.
 */
export function usePermissions(): Permissions {
  const account = selectedAccountId();
  const me = useQuery({
    queryKey: [...keys.me(), account ?? null],
    queryFn: ({ signal }) => request<AuthAnswers['me']>('query', 'auth/me', { signal }),
    enabled: isAuthenticated(),
    staleTime: 60_000,
  });
  const answer = me.data?.permissions;
  return useMemo(() => permissionsFrom(answer), [answer]);
}
