import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isAuthenticated } from '../lib/session-storage.ts';

/** Where the guard was sent from, read back by the sign-in screen. */
export interface RedirectState {
  from?: { pathname: string; search?: string; hash?: string };
}

/**
 * SPEC §2 access guard: without `isAuthenticated === 'true'` the user goes to /login, replacing
 * history, and the requested location travels along so sign-in can return to it.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!isAuthenticated()) {
    const state: RedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/login" replace state={state} />;
  }
  return children;
}

export function redirectTarget(state: unknown): string {
  const from = (state as RedirectState | null)?.from;
  if (!from?.pathname || from.pathname.startsWith('/login')) return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
