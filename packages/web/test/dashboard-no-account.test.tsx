import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import DashboardPage from '../src/features/dashboards/dashboards-page.tsx';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';
import { type ConsoleI18n, consoleI18n, renderScreen } from './support/console-screen.tsx';

let i18n: ConsoleI18n;

beforeAll(async () => {
  i18n = await consoleI18n();
});

afterEach(() => vi.unstubAllGlobals());

describe('the dashboard with no account selected', () => {
  it("shows the empty account without asking the server for the account's summary", async () => {
    setRuntimeConfig({ queryUrl: '/query/api', commandUrl: '/command/api' });
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ success: true, data: { content: [], totalElements: 0 } })),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderScreen(<DashboardPage />, i18n);
    expect(await screen.findByText('This account has no devices yet.')).toBeTruthy();
    const asked = fetchMock.mock.calls.map((call) => String((call as unknown[])[0]));
    // Only shared reference data (the device types of the filter) may be read without an account.
    expect(asked.filter((url) => url.includes('dashboard-summary'))).toEqual([]);
    expect(asked.every((url) => url.includes('/devices-types'))).toBe(true);
  });
});
