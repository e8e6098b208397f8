import { CONSTANTS, type Language } from '@lampyr/contract';
import i18next, { type BackendModule, type i18n } from 'i18next';
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
 * Reads `/locales/{lng}/{ns}.json`. A failed read of the network or the server (5xx) is retried
 * by i18next itself (`maxRetries`, `retryTimeout`); a 4xx is not. A few lines in place of an HTTP
 * backend library keep the sign-in bundle light.
 */
export const localesBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    fetch(`/locales/${language}/${namespace}.json`, { headers: { Accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) {
          const retry = response.status >= 500 || response.status === 408 || response.status === 429;
          callback(`reading ${namespace} (${language}) answered ${response.status}`, retry);
          return;
        }
        const text = await response.text();
        try {
          callback(null, JSON.parse(text));
        } catch {
          callback(`${namespace} (${language}) is not JSON`, false);
        }
      })
      .catch((error: unknown) => callback(`reading ${namespace} (${language}) failed: ${String(error)}`, true));
  },
};

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
    .use(localesBackend)
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
