import type { LiveEvent, Page } from '@lampyr/contract';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { create } from 'zustand';
import { ALARMS, applyAlarmEvent, type LiveNotification } from './alarm-cache.ts';
import { apiUrl, request } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { keys } from './query-keys.ts';
import type { Row } from './resource-api.ts';
import { authToken, selectedAccountId } from './session-storage.ts';

export type { LiveStatus, LiveValue, LiveWrite } from '@lampyr/contract';

/** Every event of the stream: the contract's and a console notification. */
export type ConsoleEvent = LiveEvent | ({ type: 'notification' } & LiveNotification);

const EVENT_TYPES = ['value', 'status', 'write', 'alarm', 'notification'] as const;

export type LiveState = 'idle' | 'connecting' | 'open' | 'retrying';

export const useLiveState = create<{ state: LiveState; events: number }>(() => ({ state: 'idle', events: 0 }));

type ListData = Page<Row> | undefined;

/** Patches the cached lists of `prefix` whose rows match; says whether any cached row matched. */
function patchLists(
  client: QueryClient,
  prefix: string,
  matches: (row: Row) => boolean,
  patch: Record<string, unknown>,
): boolean {
  let found = false;
  client.setQueriesData<ListData>({ queryKey: keys.lists(prefix) }, (page) => {
    if (!page?.content?.some(matches)) return page;
    found = true;
    return { ...page, content: page.content.map((row) => (matches(row) ? { ...row, ...patch } : row)) };
  });
  return found;
}

/** Whether a cached list of `prefix` is filtered on `field` to include `value` (it should show it). */
function listsWaitingFor(client: QueryClient, prefix: string, field: string, value: number): boolean {
  return client
    .getQueryCache()
    .findAll({ queryKey: keys.lists(prefix) })
    .some((query) => {
      const params = query.queryKey[3] as { filter?: Record<string, unknown> | null } | undefined;
      const wanted = params?.filter?.[field];
      return wanted === value || (Array.isArray(wanted) && wanted.includes(value));
    });
}

const pendingRefresh = new Map<string, ReturnType<typeof setTimeout>>();

/** Refreshes a resource's lists once for a burst of events that they do not hold yet. */
function refreshSoon(client: QueryClient, prefix: string): void {
  if (pendingRefresh.has(prefix)) return;
  pendingRefresh.set(
    prefix,
    setTimeout(() => {
      pendingRefresh.delete(prefix);
      void client.invalidateQueries({ queryKey: keys.lists(prefix) });
    }, 1000),
  );
}

/**
 * Writes one live event into the cached answers of the query API, so every screen showing the
 * record redraws without a reload: latest values, connection statuses and writes in place; a
 * list filtered to the event's device that lacks it is refetched.
 */
export function applyLiveEvent(client: QueryClient, event: ConsoleEvent): void {
  if (event.type === 'value') {
    const { deviceId, deviceChannelTemplateId, subChannel, value, status, dateTime } = event;
    const found = patchLists(
      client,
      'channel-values',
      (r) =>
        r.deviceId === deviceId &&
        r.deviceChannelTemplateId === deviceChannelTemplateId &&
        (r.subChannel ?? 0) === subChannel,
      { value, status, dateTime },
    );
    if (!found && listsWaitingFor(client, 'channel-values', 'deviceId', deviceId))
      refreshSoon(client, 'channel-values');
  } else if (event.type === 'status') {
    const { deviceId, status, dateTime, rssi, snr } = event;
    const found = patchLists(client, 'device-connection-status', (r) => r.deviceId === deviceId, {
      status,
      dateTime,
      rssi,
      snr,
    });
    if (!found && listsWaitingFor(client, 'device-connection-status', 'deviceId', deviceId))
      refreshSoon(client, 'device-connection-status');
  } else if (event.type === 'write') {
    const { id, status, message, value, sentAt, answeredAt, updatedAt } = event;
    const patch = { status, message, value, sentAt, answeredAt, updatedAt };
    const found = patchLists(client, 'channel-write-values', (r) => r.id === id, patch);
    client.setQueryData<Row>(keys.detail('channel-write-values', id), (row) => (row ? { ...row, ...patch } : row));
    if (!found) refreshSoon(client, 'channel-write-values');
  } else if (event.type === 'alarm') {
    const { type: _type, ...alarm } = event;
    if (applyAlarmEvent(client, alarm)) refreshSoon(client, ALARMS);
  } else if (event.type === 'notification') {
    // The notification list's rows are written by the server: a new one is fetched, not built here.
    refreshSoon(client, 'alert-notification-list');
  } else if (event.type === 'deploy') {
    const { id, status, resendCount, reportedVersion, responseTime } = event;
    const found = patchLists(client, 'deploy-response-logs', (r) => r.id === id, {
      status,
      resendCount,
      reportedVersion,
      responseTime,
    });
    if (!found) refreshSoon(client, 'deploy-response-logs');
  }
}

type Listener = (event: ConsoleEvent) => void;
const listeners = new Set<Listener>();

/** Hears every live event of this tab's shared connection. */
export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const RETRY_MS = 5000;
let source: EventSource | undefined;
let users = 0;
let retry: ReturnType<typeof setTimeout> | undefined;
/** Bumped by every open and close, so a ticket that arrives late opens nothing. */
let attempt = 0;

/**
 * The stream's URL with a fresh single-use ticket: EventSource cannot send the Authorization
 * header, and a token never goes into a URL, so the ticket is asked for with the token (and the
 * selected account) first. A refused ticket call goes through the client: an expired token is
 * renewed, a revoked session ends.
 */
export async function streamUrl(): Promise<string | undefined> {
  if (!authToken() || !selectedAccountId()) return undefined;
  const { ticket } = await request<{ ticket: string }>('query', 'stream/ticket', { method: 'POST', body: {} });
  const url = apiUrl('query', 'stream');
  return `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams({ ticket })}`;
}

function dispatch(type: ConsoleEvent['type'], data: string): void {
  let event: ConsoleEvent;
  try {
    event = { type, ...(JSON.parse(data) as object) } as ConsoleEvent;
  } catch {
    return;
  }
  applyLiveEvent(queryClient, event);
  useLiveState.setState((s) => ({ events: s.events + 1 }));
  for (const listener of listeners) listener(event);
}

function close(): void {
  attempt += 1;
  clearTimeout(retry);
  retry = undefined;
  source?.close();
  source = undefined;
}

function retryLater(): void {
  useLiveState.setState({ state: 'retrying' });
  clearTimeout(retry);
  retry = setTimeout(() => {
    if (users > 0) void open();
  }, RETRY_MS);
}

async function open(): Promise<void> {
  close();
  const mine = attempt;
  if (typeof EventSource === 'undefined') return;
  useLiveState.setState({ state: 'connecting' });
  let url: string | undefined;
  try {
    url = await streamUrl();
  } catch {
    if (mine === attempt) retryLater();
    return;
  }
  if (!url || mine !== attempt) return;
  const es = new EventSource(url);
  source = es;
  es.onopen = () => useLiveState.setState({ state: 'open' });
  for (const type of EVENT_TYPES) es.addEventListener(type, (e) => dispatch(type, (e as MessageEvent<string>).data));
  es.onerror = () => {
    // A ticket opens one connection: the browser's own reconnect would be refused, so a dropped
    // or refused stream is closed here and opened again with a new ticket.
    if (source !== es) return;
    es.close();
    source = undefined;
    retryLater();
  };
}

/**
 * One live connection per tab, shared by every screen that uses this hook; opened by the first,
 * closed after the last. Events land in the TanStack Query cache (see applyLiveEvent).
 */
export function useLiveStream(): LiveState {
  useEffect(() => {
    users += 1;
    if (users === 1) void open();
    return () => {
      users -= 1;
      if (users === 0) {
        close();
        useLiveState.setState({ state: 'idle' });
      }
    };
  }, []);
  return useLiveState((s) => s.state);
}
