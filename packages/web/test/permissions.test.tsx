import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsFrom } from '../src/data/permissions.ts';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';
import ResourcePage from '../src/resources/resource-page.tsx';
import { type ConsoleI18n, consoleI18n, renderScreen } from './support/console-screen.tsx';

let i18n: ConsoleI18n;

/** What `auth/me` answers in this test, and which calls came. */
let permissions: Record<string, string[]> = {};
const calls: string[] = [];
let server: Server;

beforeAll(async () => {
  i18n = await consoleI18n();
  // A real HTTP server in place of the API: the me answer and one country.
  server = createServer((req, res) => {
    calls.push(`${req.method} ${req.url} ${req.headers['x-account-id'] ?? ''}`);
    res.setHeader('content-type', 'application/json');
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    if (req.method === 'OPTIONS') return res.end();
    if (req.url?.endsWith('/auth/me'))
      return res.end(JSON.stringify({ success: true, data: { user: { id: 1 }, accounts: [], permissions } }));
    res.end(
      JSON.stringify({
        success: true,
        data: { content: [{ id: 7, name: 'Türkiye', code: 'TR' }], totalElements: 1 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setRuntimeConfig({ queryUrl: `${base}/query/api`, commandUrl: `${base}/command/api` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function renderCountries() {
  window.localStorage.setItem('isAuthenticated', 'true');
  window.localStorage.setItem('authToken', 'token');
  window.localStorage.setItem('selectedAccount', JSON.stringify({ id: 3, name: 'Kadıköy' }));
  renderScreen(<ResourcePage resource="countries" />, i18n);
}

describe('a generic screen offers only what the server allows', { timeout: 60_000 }, () => {
  it('shows no New, Import, edit or delete to someone who may only read, and asks once for the account', async () => {
    permissions = { countries: ['read'] };
    calls.length = 0;
    renderCountries();
    await screen.findByText('Türkiye', undefined, { timeout: 30_000 });
    await waitFor(() => expect(calls.some((c) => c.includes('/auth/me 3'))).toBe(true));
    // The answer has come: give React a moment to apply it.
    await waitFor(() => expect(screen.getByRole('button', { name: /View country 7/i })).toBeTruthy());
    expect(screen.queryByRole('button', { name: /New country/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /Import/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit country 7/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete country 7/i })).toBeNull();
  });

  it('shows them to someone the server lets write', async () => {
    permissions = { countries: ['read', 'create', 'update', 'delete'] };
    renderCountries();
    await screen.findByText('Türkiye', undefined, { timeout: 30_000 });
    expect(await screen.findByRole('button', { name: /New country/i })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Import/i })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Edit country 7/i })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Delete country 7/i })).toBeTruthy();
  });

  it('offers reads but no writes until the answer comes, and nothing the answer leaves out', () => {
    const before = permissionsFrom(undefined);
    expect(before.can('devices', 'read')).toBe(true);
    expect(before.can('devices', 'create')).toBe(false);
    const after = permissionsFrom({ devices: ['read', 'update'] });
    expect(after.can('devices', 'update')).toBe(true);
    expect(after.can('devices', 'delete')).toBe(false);
    expect(after.can('regions', 'read')).toBe(false);
  });
});
