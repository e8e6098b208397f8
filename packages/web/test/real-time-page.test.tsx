import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveAlarm } from '@lampyr/contract';
import { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import RealTimeAlarmsPage from '../src/features/alerts-alarms/real-time-page.tsx';
import { applyLiveEvent } from '../src/lib/live-stream.ts';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';
import { type ConsoleI18n, consoleI18n, renderScreen, testQueryClient } from './support/console-screen.tsx';

/**
 * Real-time Alarms on screen: the page reads the active alarms from a real HTTP server (the query
 * API's shape), and alarm events written into its query cache redraw it without another read.
 */

let i18n: ConsoleI18n;

const alarm = (id: number, patch: Partial<LiveAlarm> = {}): LiveAlarm => ({
  id,
  deviceId: 7,
  state: 'active',
  kind: 'threshold',
  alertLevel: 'high',
  templateId: 3,
  eventName: null,
  value: 262,
  unit: 'V',
  dateTime: '2026-11-23T22:00:00.000Z',
  transition: 'raised',
  shelvedUntil: null,
  ...patch,
});

let server: Server;
/** What the server answers for the list of alarms, and how often it was asked. */
let stored: Record<string, unknown>[] = [];
let listReads = 0;

beforeAll(async () => {
  i18n = await consoleI18n();
  server = createServer((req, res) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*' };
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    const path = req.url ?? '';
    let content: Record<string, unknown>[] = [];
    if (path.endsWith('/alert-logs')) {
      listReads += 1;
      content = stored;
    } else if (path.endsWith('/devices')) content = [{ id: 7, name: 'KDK-MODA-PARK-3' }];
    else if (path.endsWith('/alert-device-parameter-templates')) content = [{ id: 3, name: 'Over-voltage' }];
    res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ success: true, data: { content, totalElements: content.length } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  setRuntimeConfig({ queryUrl: `http://127.0.0.1:${port}/query/api` });
});

afterAll(() => {
  server.close();
  setRuntimeConfig({ queryUrl: '/query/api' });
});

beforeEach(() => {
  window.localStorage.setItem('selectedAccount', JSON.stringify({ id: 2 }));
  window.sessionStorage.setItem('selectedAccount', JSON.stringify({ id: 2 }));
  listReads = 0;
});

function renderPage(client: QueryClient) {
  renderScreen(<RealTimeAlarmsPage />, i18n, client);
}

const rowOf = (id: number) => document.querySelector(`tr[data-row-key="${id}"]`) as HTMLElement | null;

describe('Real-time Alarms page', () => {
  it('says there is nothing, then shows a raised alarm, its acknowledgement and its clearing as they happen', async () => {
    stored = [];
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
    });
    renderPage(client);
    // The first read has answered (an empty page), not merely started.
    await waitFor(() => expect(listReads).toBe(1));
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(screen.getByText('No active alarms')).toBeTruthy();
    const reads = listReads;

    act(() => applyLiveEvent(client, { type: 'alarm', ...alarm(41) }));
    await waitFor(() => expect(rowOf(41)).not.toBeNull());
    const row = rowOf(41) as HTMLElement;
    expect(within(row).getByText('High')).toBeTruthy();
    expect(within(row).getByText('262 V')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(await within(row).findByText('KDK-MODA-PARK-3')).toBeTruthy();
    expect(await within(row).findByText('Over-voltage')).toBeTruthy();
    expect(screen.getByText('1 alarm')).toBeTruthy();

    act(() =>
      applyLiveEvent(client, { type: 'alarm', ...alarm(41, { state: 'acknowledged', transition: 'acknowledged' }) }),
    );
    await waitFor(() => expect(within(rowOf(41) as HTMLElement).getByText('Acknowledged')).toBeTruthy());
    // Acknowledged already: its acknowledge button is off.
    expect(
      (within(rowOf(41) as HTMLElement).getByRole('button', { name: 'Acknowledge alarm 41' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);

    act(() => applyLiveEvent(client, { type: 'alarm', ...alarm(41, { state: 'cleared', transition: 'cleared' }) }));
    await waitFor(() => expect(rowOf(41)).toBeNull());
    expect(screen.getByText('No active alarms')).toBeTruthy();
    // All of it from the events: the list was not read again.
    expect(listReads).toBe(reads);
    await waitFor(() => expect(client.isFetching()).toBe(0));
  }, 20_000);

  it('lists what the server holds, newest first, with a medium alarm among them', async () => {
    stored = [
      { ...alarm(9), alertLevel: 'medium', value: 3.2, unit: 'lx', isActive: true },
      { ...alarm(8), state: 'acknowledged', isActive: true },
    ];
    const client = testQueryClient();
    renderPage(client);
    await waitFor(() => expect(rowOf(9)).not.toBeNull());
    const ids = [...document.querySelectorAll('tbody tr[data-row-key]')].map((r) => r.getAttribute('data-row-key'));
    expect(ids).toEqual(['9', '8']);
    expect(within(rowOf(9) as HTMLElement).getByText('Medium')).toBeTruthy();
    expect(within(rowOf(9) as HTMLElement).getByText('3.2 lx')).toBeTruthy();
    expect(screen.getByText('2 alarms')).toBeTruthy();
    await waitFor(() => expect(client.isFetching()).toBe(0));
  });
});
