import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from 'antd';
import i18next, { type i18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { NAMESPACES } from '../../src/lib/i18n.ts';

const locales = join(import.meta.dirname, '..', '..', '..', 'contract', 'locales');
export type ConsoleI18n = i18n;

const load = (lng: string, ns: string) => JSON.parse(readFileSync(join(locales, lng, `${ns}.json`), 'utf8'));

/**
 * Translations set up as the console sets them (lib/i18n.ts: every namespace, `console` first,
 * English by default), read from the locale files rather than over HTTP; Turkish too.
 */
export async function consoleI18n(): Promise<i18n> {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(
    ['en', 'tr'].map((lng) => [lng, Object.fromEntries(NAMESPACES.map((ns) => [ns, load(lng, ns)]))]),
  );
  await instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources,
    ns: [...NAMESPACES],
    defaultNS: 'console',
    fallbackNS: ['common', 'resources'],
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });
  return instance;
}

/** A query client for one test: a failed read is not tried again. */
export const testQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

/** Renders a screen inside what the console's shell gives it: server state, translations, antd's App, a router. */
export function renderScreen(screen: ReactNode, i18n: i18n, client: QueryClient = testQueryClient()) {
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <App>
          <MemoryRouter>{screen}</MemoryRouter>
        </App>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}
