import { CONSTANTS, type Language } from '@lampyr/contract';
import i18next, { type i18n } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { setRequestLanguage } from './api-client.ts';

export const NAMESPACES = ['console', 'common', 'resources'] as const;
export const LANGUAGE_KEY = 'i18nextLng';

function isLanguage(value: unknown): value is Language {
  return (CONSTANTS.languages as readonly unknown[]).includes(value);
}

export function storedLanguage(): Language {
  try {
    const value = window.localStorage.getItem(LANGUAGE_KEY);
    if (isLanguage(value)) return value;
  } catch {
    // storage blocked
  }
  return CONSTANTS.defaultLanguage;
}

/**
 * i18next over HTTP (SPEC §9): English default and fallback, up to 5 retries of a failed read
 * starting at 350 ms and doubling, at most 10 reads in parallel. A missing key renders as the key.
 */
export async function initI18n(instance: i18n = i18next): Promise<i18n> {
  const lng = storedLanguage();
  setRequestLanguage(lng);
  instance.on('languageChanged', (next) => {
    setRequestLanguage(next);
    document.documentElement.lang = next;
  });
  await instance
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: CONSTANTS.defaultLanguage,
      supportedLngs: [...CONSTANTS.languages],
      ns: [...NAMESPACES],
      defaultNS: 'console',
      fallbackNS: ['common', 'resources'],
      maxRetries: CONSTANTS.translationRetries.retries,
      retryTimeout: CONSTANTS.translationRetries.baseMs,
      maxParallelReads: CONSTANTS.translationRetries.parallel,
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
      interpolation: { escapeValue: false },
      returnEmptyString: false,
      react: { useSuspense: false },
    });
  document.documentElement.lang = instance.language;
  return instance;
}

export async function changeLanguage(lng: Language): Promise<void> {
  window.localStorage.setItem(LANGUAGE_KEY, lng);
  await i18next.changeLanguage(lng);
}
