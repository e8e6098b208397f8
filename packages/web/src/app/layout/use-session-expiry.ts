import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '../../lib/api-client.ts';
import { signOut } from '../../lib/session.ts';
import { isAuthenticated } from '../../lib/session-storage.ts';
import type { RedirectState } from '../require-auth.tsx';

/** What the sign-in screen is told when a session ends under the user. */
export interface ExpiredState extends RedirectState {
  notice: string;
  noticeType: 'warning';
}

/**
 * A 401 in the middle of a session (the token expired or was revoked): log out as SPEC §4 says
 * and go to /login, remembering where the user was so signing in again returns there.
 */
export function useSessionExpiry(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const where = useRef(location);
  where.current = location;
  useEffect(() => {
    setUnauthorizedHandler(() => {
      if (!isAuthenticated()) return;
      signOut();
      const { pathname, search, hash } = where.current;
      const state: ExpiredState = {
        from: { pathname, search, hash },
        notice: 'auth.login.sessionExpired',
        noticeType: 'warning',
      };
      navigate('/login', { replace: true, state });
    });
    return () => setUnauthorizedHandler(undefined);
  }, [navigate]);
}
