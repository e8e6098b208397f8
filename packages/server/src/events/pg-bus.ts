import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { CommandEvent, CommandEvents } from './command-events.ts';
import type { LiveEvent, LiveEvents } from './live-events.ts';

/**
 * One event bus across replicas on what Lampyr already runs: PostgreSQL LISTEN/NOTIFY. What a
 * replica publishes on its LiveEvents and emits on its CommandEvents is NOTIFYed; every other
 * replica delivers it to its own listeners (consoles streaming, caches, the ingest's downlinks).
 * Each replica also announces which accounts its consoles stream, so an ingest replica builds live
 * events only when someone, somewhere, watches. A bus connection that is lost is opened again;
 * what the replica missed meanwhile is made good by `onResync` (caches re-read).
 *
 * The embedded database (PGlite) serves one process: its events stay in process, no bus.
 */
export const BUS_CHANNELS = {
  live: 'lampyr_live',
  commands: 'lampyr_commands',
  listeners: 'lampyr_listeners',
} as const;

/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7800;
/** Command events kept while the bus is down (then sent), at most. */
const MAX_QUEUED = 2000;
/**
 * Live NOTIFYs sent and not yet answered, at most: past it live events are dropped, not queued —
 * they are of the moment, and a queue that grows while the database is slow grew the process by
 * hundreds of MB a minute (the soak at 7,500 uplinks/s).
 */
export const MAX_LIVE_IN_FLIGHT = 64;

export interface PgEventBusOptions {
  url: string;
  live: LiveEvents;
  commands: CommandEvents;
  /** How often the streamed accounts are announced (a listener counts for 3 of these). */
  announceMs?: number;
  /** The bus connection was lost and is back: events may have been missed, caches are re-read. */
  onResync?: () => void;
  /** Told when the bus connection is lost or regained. */
  onConnection?: (up: boolean, detail?: string) => void;
}

export class PgEventBus {
  readonly origin = randomBytes(6).toString('hex');
  private client?: pg.Client;
  private ready = false;
  private closed = false;
  private retry?: NodeJS.Timeout;
  private announcer?: NodeJS.Timeout;
  private attempt = 0;
  private everConnected = false;
  private pendingLive: [number, readonly LiveEvent[]][] = [];
  private liveScheduled = false;
  private queued: [string, string][] = [];
  private liveInFlight = 0;
  /** Live events dropped because the bus was behind (MAX_LIVE_IN_FLIGHT). */
  droppedLive = 0;
  private readonly announceMs: number;

  constructor(private readonly options: PgEventBusOptions) {
    this.announceMs = options.announceMs ?? 10_000;
  }

  get connected(): boolean {
    return this.ready;
  }

  /** Relays this replica's events and listens to the others'; resolves on the first connection (or its failure: it keeps trying). */
  async start(): Promise<void> {
    this.options.live.setRelay({
      publish: (accountId, events) => this.relayLive(accountId, events),
      listenersChanged: () => this.announce(),
    });
    this.options.commands.setRelay({ publish: (event) => this.relayCommand(event) });
    this.announcer = setInterval(() => this.announce(), this.announceMs);
    this.announcer.unref();
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.announcer);
    this.options.live.setRelay(undefined);
    this.options.commands.setRelay(undefined);
    this.flushLive();
    const client = this.client;
    this.client = undefined;
    this.ready = false;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: 'lampyr-event-bus',
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || this.client !== client) return;
      lost = true;
      const wasReady = this.ready;
      this.ready = false;
      this.client = undefined;
      client.end().catch(() => {});
      if (wasReady) this.options.onConnection?.(false, error?.message);
      this.scheduleRetry();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => this.receive(message.channel, message.payload ?? ''));
    try {
      await client.connect();
      await client.query(
        `LISTEN ${BUS_CHANNELS.live}; LISTEN ${BUS_CHANNELS.commands}; LISTEN ${BUS_CHANNELS.listeners}`,
      );
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (this.client !== client) return;
    this.ready = true;
    this.attempt = 0;
    const again = this.everConnected;
    this.everConnected = true;
    if (again) {
      this.options.onConnection?.(true);
      this.options.onResync?.();
    }
    const queued = this.queued;
    this.queued = [];
    for (const [channel, payload] of queued) this.notify(channel, payload);
    this.announce();
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    const delay = Math.min(5000, 200 * 2 ** this.attempt++);
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref();
  }

  private notify(channel: string, payload: string): void {
    const client = this.client;
    if (!client || !this.ready) {
      // Live values are of the moment: only what changes caches and sends commands waits.
      if (channel === BUS_CHANNELS.commands && this.queued.length < MAX_QUEUED) this.queued.push([channel, payload]);
      return;
    }
    const live = channel === BUS_CHANNELS.live;
    if (live) this.liveInFlight++;
    client
      .query('SELECT pg_notify($1, $2)', [channel, payload])
      .catch(() => {
        if (channel === BUS_CHANNELS.commands && this.queued.length < MAX_QUEUED) this.queued.push([channel, payload]);
      })
      .finally(() => {
        if (live) this.liveInFlight--;
      });
  }

  private relayLive(accountId: number, events: readonly LiveEvent[]): void {
    this.pendingLive.push([accountId, events]);
    if (this.liveScheduled) return;
    this.liveScheduled = true;
    // Everything published in one turn of the event loop goes out in as few NOTIFYs as fit.
    setImmediate(() => this.flushLive());
  }

  private flushLive(): void {
    this.liveScheduled = false;
    const pending = this.pendingLive;
    this.pendingLive = [];
    if (!pending.length || !this.ready) return;
    const prefix = `${this.origin}|`;
    let batch: string[] = [];
    let size = prefix.length + 2;
    const send = () => {
      if (batch.length) {
        if (this.liveInFlight < MAX_LIVE_IN_FLIGHT) this.notify(BUS_CHANNELS.live, `${prefix}[${batch.join(',')}]`);
        else this.droppedLive += batch.length;
      }
      batch = [];
      size = prefix.length + 2;
    };
    for (const [accountId, events] of pending) {
      for (const event of events) {
        const entry = `[${accountId},${JSON.stringify(event)}]`;
        const bytes = Buffer.byteLength(entry);
        if (bytes + prefix.length + 2 > MAX_PAYLOAD) continue; // no live event is this large
        if (size + bytes + 1 > MAX_PAYLOAD) send();
        batch.push(entry);
        size += bytes + 1;
      }
    }
    send();
  }

  private relayCommand(event: CommandEvent): void {
    let payload = `${this.origin}|${JSON.stringify(event)}`;
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
      // Listeners elsewhere need what changed, not the whole record.
      const { resource, action, accountId } = event;
      payload = `${this.origin}|${JSON.stringify({ resource, action, accountId, record: { id: event.record.id } })}`;
    }
    this.notify(BUS_CHANNELS.commands, payload);
  }

  private announce(): void {
    if (!this.ready) return;
    const accounts = this.options.live.localAccounts();
    if (!accounts.length) return;
    this.notify(BUS_CHANNELS.listeners, `${this.origin}|${JSON.stringify(accounts)}`);
  }

  private receive(channel: string, payload: string): void {
    const bar = payload.indexOf('|');
    if (bar < 0 || payload.slice(0, bar) === this.origin) return;
    let body: unknown;
    try {
      body = JSON.parse(payload.slice(bar + 1));
    } catch {
      return;
    }
    if (channel === BUS_CHANNELS.live && Array.isArray(body)) {
      const byAccount = new Map<number, LiveEvent[]>();
      for (const entry of body as [number, LiveEvent][]) {
        const list = byAccount.get(entry[0]) ?? [];
        list.push(entry[1]);
        byAccount.set(entry[0], list);
      }
      for (const [accountId, events] of byAccount) this.options.live.deliver(accountId, events);
    } else if (channel === BUS_CHANNELS.commands && body && typeof body === 'object') {
      this.options.commands.deliver(body as CommandEvent);
    } else if (channel === BUS_CHANNELS.listeners && Array.isArray(body)) {
      this.options.live.remoteListeners(body.map(Number).filter(Number.isFinite), this.announceMs * 3);
    }
  }
}
