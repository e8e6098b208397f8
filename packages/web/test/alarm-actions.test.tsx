import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlarmActionDialog } from '../src/features/alerts-alarms/alarm-actions.tsx';
import { useAlarmAction } from '../src/features/alerts-alarms/use-alarm-action.tsx';
import type { AlarmCommand, AlarmCommandResult } from '../src/lib/alarm-api.ts';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';
import { type ConsoleI18n, consoleI18n } from './support/console-screen.tsx';

let i18n: ConsoleI18n;

beforeAll(async () => {
  i18n = await consoleI18n();
});

const NOW = dayjs('2026-11-23T22:30:00');
/** The dialog's clock: a test moves it to leave the dialog open a while. */
let clock = NOW;

/** The dialog with a `send` that records what it was asked and answers as told. */
function renderDialog(action: 'acknowledge' | 'clear' | 'shelve', answer: () => Promise<AlarmCommandResult>) {
  const sent: AlarmCommand[] = [];
  const done: AlarmCommandResult[] = [];
  render(
    <I18nextProvider i18n={i18n}>
      <App>
        <AlarmActionDialog
          action={action}
          ids={[4, 9]}
          now={() => clock}
          send={(command) => {
            sent.push(command);
            return answer();
          }}
          onDone={(result) => done.push(result)}
          onCancel={() => undefined}
        />
      </App>
    </I18nextProvider>,
  );
  return { sent, done };
}

const ok =
  (updated: number[], skipped: AlarmCommandResult['skipped'] = []) =>
  () =>
    Promise.resolve({ updated, skipped });
const button = (name: string) => screen.getByRole('button', { name });
const comment = () => screen.getByLabelText('Comment');

describe('alarm action dialogs', () => {
  it('refuses to clear without a comment, and sends none of it', async () => {
    const { sent } = renderDialog('clear', ok([4, 9]));
    expect(screen.getByText('Clear 2 alarms')).toBeTruthy();
    fireEvent.click(button('Clear'));
    expect(await screen.findByText('A comment is required to clear an alarm')).toBeTruthy();
    // Blank space is no comment either.
    fireEvent.change(comment(), { target: { value: '   ' } });
    fireEvent.click(button('Clear'));
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toEqual([]);
  });

  it('clears with the comment given', async () => {
    const { sent, done } = renderDialog('clear', ok([4], [{ id: 9, reason: 'alreadyCleared' }]));
    fireEvent.change(comment(), { target: { value: '  Lamp replaced  ' } });
    fireEvent.click(button('Clear'));
    await waitFor(() => expect(done).toHaveLength(1));
    expect(sent).toEqual([{ action: 'clear', ids: [4, 9], comment: 'Lamp replaced' }]);
  });

  it('acknowledges with no comment needed', async () => {
    const { sent, done } = renderDialog('acknowledge', ok([4, 9]));
    fireEvent.click(button('Acknowledge'));
    await waitFor(() => expect(done).toHaveLength(1));
    expect(sent).toEqual([{ action: 'acknowledge', ids: [4, 9] }]);
  });

  it('shelves until an hour from now unless changed, and refuses a time in the past', async () => {
    clock = NOW;
    const { sent, done } = renderDialog('shelve', ok([4, 9]));
    const until = screen.getByLabelText('Shelve until') as HTMLInputElement;
    expect(until.value).toBe(NOW.add(1, 'hour').format('L HH:mm'));
    // Left open for two hours, the proposed time has passed: refused, nothing sent.
    clock = NOW.add(2, 'hour');
    fireEvent.click(button('Shelve'));
    expect(await screen.findByText('Choose a time in the future')).toBeTruthy();
    // The server shelves for 30 days at most: a time further ahead is refused here first.
    clock = NOW.subtract(31, 'day');
    fireEvent.click(button('Shelve'));
    expect(await screen.findByText('At most 30 days ahead')).toBeTruthy();
    expect(sent).toEqual([]);
    clock = NOW;
    fireEvent.click(button('Shelve'));
    await waitFor(() => expect(done).toHaveLength(1));
    expect(sent).toEqual([{ action: 'shelve', ids: [4, 9], until: NOW.add(1, 'hour').toISOString() }]);
  });

  it('stays open and says why when the server refuses', async () => {
    const { done } = renderDialog('acknowledge', () => Promise.reject(new Error('boom')));
    fireEvent.click(button('Acknowledge'));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(done).toEqual([]);
    expect(screen.getByText('Acknowledge 2 alarms')).toBeTruthy();
  });
});

/** Opens the acknowledge dialog the way Real-time Alarms does. */
function Harness() {
  const action = useAlarmAction();
  return (
    <>
      <button type="button" onClick={() => action.start('acknowledge', [4, 9])}>
        start
      </button>
      {action.dialog}
    </>
  );
}

describe('an alarm action against the command API', () => {
  let server: Server;
  const calls: { method?: string; url?: string; body: unknown }[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (c: Buffer) => {
        text += c.toString();
      });
      req.on('end', () => resolve(text));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const cors = {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Headers': '*',
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
      };
      if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
      const text = await read(req);
      calls.push({ method: req.method, url: req.url, body: JSON.parse(text) });
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: { updated: [4], skipped: [{ id: 9, reason: 'cleared' }] } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    setRuntimeConfig({ commandUrl: `http://127.0.0.1:${port}/command/api` });
  });
  afterAll(() => {
    server.close();
    setRuntimeConfig({ commandUrl: '/command/api' });
  });

  it('posts to alarms/acknowledge and says how many were updated and skipped', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient()}>
          <App>
            <Harness />
          </App>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    fireEvent.click(screen.getByText('start'));
    fireEvent.change(await screen.findByLabelText('Comment'), { target: { value: 'On my way' } });
    await act(async () => {
      fireEvent.click(button('Acknowledge'));
    });
    expect(await screen.findByText('1 updated, 1 skipped')).toBeTruthy();
    expect(calls).toEqual([
      { method: 'POST', url: '/command/api/alarms/acknowledge', body: { ids: [4, 9], comment: 'On my way' } },
    ]);
  });
});
