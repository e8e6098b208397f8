import { create } from 'zustand';
import type { ThemeMode } from '../app/theme.ts';
import { STORAGE_KEYS } from './session-storage.ts';

export const THEME_CHANGE_EVENT = 'themeChange';

/** SPEC §4: the stored theme, else the system's dark preference. */
export function initialTheme(): ThemeMode {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEYS.theme);
    if (stored === 'dark' || stored === 'light') return stored;
  } catch {
    // storage blocked
  }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

interface ThemeState {
  mode: ThemeMode;
  toggle: () => void;
}

export const useThemeStore = create<ThemeState>((set, get) => ({
  mode: initialTheme(),
  toggle: () => {
    const mode: ThemeMode = get().mode === 'dark' ? 'light' : 'dark';
    window.localStorage.setItem(STORAGE_KEYS.theme, mode);
    set({ mode });
    window.dispatchEvent(new CustomEvent(THEME_CHANGE_EVENT, { detail: mode }));
  },
}));

/** Another tab or part of the page broadcasting a theme change recolours this one too. */
export function listenForThemeChanges(): () => void {
  const onChange = (event: Event) => {
    const mode = (event as CustomEvent<ThemeMode>).detail;
    if ((mode === 'dark' || mode === 'light') && mode !== useThemeStore.getState().mode)
      useThemeStore.setState({ mode });
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.theme && (event.newValue === 'dark' || event.newValue === 'light'))
      useThemeStore.setState({ mode: event.newValue });
  };
  window.addEventListener(THEME_CHANGE_EVENT, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(THEME_CHANGE_EVENT, onChange);
    window.removeEventListener('storage', onStorage);
  };
}
