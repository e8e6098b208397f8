import { CONSTANTS } from '@lampyr/contract';
import { request } from './api-client.ts';
import { clearApiCaches, queryClient } from './query-client.ts';
import { type AccountSummary, removeBoth, SESSION_KEYS, saveSelectedAccount } from './session-storage.ts';

export const ACCOUNT_CHANGED_EVENT = 'accountChanged';

/**
 * SPEC §4, switching account: save the selection in both storages, clear the cached data of both
 * APIs, broadcast `accountChanged`, reload the page after 500 ms.
 */
export function switchAccount(
  account: AccountSummary,
  reload: () => void = () => window.location.reload(),
): ReturnType<typeof setTimeout> {
  saveSelectedAccount(account);
  clearApiCaches(queryClient);
  window.dispatchEvent(new CustomEvent(ACCOUNT_CHANGED_EVENT, { detail: account }));
  return setTimeout(reload, CONSTANTS.accountSwitchReloadMs);
}

/** SPEC §4, logout: remove the session keys from both storages and clear cached data. */
export function signOut(): void {
  removeBoth(SESSION_KEYS);
  clearApiCaches(queryClient);
}

/**
 * Logout as the user asks for it: the server revokes the user's tokens, refresh credential and
 * open streams first (whatever it answers, the console then forgets the session).
 */
export async function logout(): Promise<void> {
  try {
    await request('command', 'auth/logout', { method: 'POST', body: {}, timeoutMs: 5000 });
  } catch {
    // Already signed out, or the server is unreachable: the local session ends anyway.
  }
  signOut();
}
