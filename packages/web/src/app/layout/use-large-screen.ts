import { theme } from 'antd';
import { useSyncExternalStore } from 'react';

/** Whether the viewport is at least antd's large breakpoint (the theme's `screenLG`). */
export function useLargeScreen(): boolean {
  const { token } = theme.useToken();
  const query = `(min-width: ${token.screenLG}px)`;
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
  );
}
