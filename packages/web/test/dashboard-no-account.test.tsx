import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import DashboardPage from '../src/features/dashboards/dashboards-page.tsx';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';

const locales = join(import.meta.dirname, '..', '..', 'contract', 'locales');
const load = (lng: string, ns: string) => JSON.parse(readFileSync(join(locales, lng, `${ns}.json`), 'utf8'));
const i18n = i18next.createInstance();

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { console: load('en', 'console'), resources: load('en', 'resources') } },
    defaultNS: 'console',
    fallbackNS: ['resources'],
    interpolation: { escapeValue: false },
  });
});

afterEach(() => vi.unstubAllGlobals());

describe('the dashboard with no account selected', () => {
  it("shows the empty account without asking the server for the account's summary", async () => {
    setRuntimeConfig({ queryUrl: '/query/api', commandUrl: '/command/api' });
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ success: true, data: { content: [], totalElements: 0 } })),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <DashboardPage />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('This account has no devices yet.')).toBeTruthy();
    const asked = fetchMock.mock.calls.map((call) => String((call as unknown[])[0]));
    // Only shared reference data (the device types of the filter) may be read without an account.
    expect(asked.filter((url) => url.includes('dashboard-summary'))).toEqual([]);
    expect(asked.every((url) => url.includes('/devices-types'))).toBe(true);
  });
});
