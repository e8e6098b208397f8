import type { LiveWrite } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import type { LiveEvent, LiveEvents } from '../events/live-events.ts';
import { cleanLine, cleanText, LOGGED_PAYLOAD_BYTES, MAX_DETAIL_LENGTH } from './device-input.ts';

export interface Reading {
  accountId: number;
  deviceId: number;
  templateId: number;
  /** 0 for the channel itself; a sub-device channel's package order. */
  subChannel: number;
  channelCode: string;
  value: number;
  status: string;
  dateTime: Date;
  /**
   * With the time, the reading's identity: `fcnt:<n>` for LoRaWAN frames, the device's time for a
   * Lampyr uplink that states one, `h:<payload digest>` for one that does not (received-at time).
   */
  frameKey: string;
}

export interface DeviceSeen {
  accountId: number;
  deviceId: number;
  dateTime: Date;
  rssi: number | null;
  snr: number | null;
}

export interface DataLogEntry {
  accountId: number;
  topic: string;
  deviceUid: string | null;
  reason: string;
  payload: string;
  /** What exactly was wrong (the decoder's finding, the time a device gave…); never SQL. */
  detail?: string | null;
}

/** A channel write's answer from the device (or the network server). */
export interface WriteAnswer {
  /** The command's random id, and the device whose topic the answer came on: both must match. */
  downlinkId: string;
  deviceId: number;
  status: 'acknowledged' | 'failed';
  message: string | null;
  answeredAt: Date;
}

/** The message a unit came from, kept in the data log (`store_failed`) if the unit cannot be stored. */
export interface UnitSource {
  /** The device's account when known; the writer's fallback account otherwise. */
  accountId?: number;
  topic: string;
  deviceUid: string | null;
  /** The payload as text (the handler's, not the socket's buffer, which would keep its chunk alive). */
  payload: string;
}

/** Everything one MQTT message leads to; stored in one transaction with the rest of its batch. */
export interface IngestUnit {
  readings?: Reading[];
  seen?: DeviceSeen;
  logs?: DataLogEntry[];
  answers?: WriteAnswer[];
  source?: UnitSource;
}

export interface FrameQuery {
  deviceId: number;
  templateId: number;
  subChannel: number;
  frameKey: string;
  since: Date;
  until: Date;
}

interface Pending {
  unit: IngestUnit;
  resolve(): void;
  reject(error: Error): void;
}

export interface WriterOptions {
  /** Flushes running at once; PostgreSQL overlaps them, PGlite has one connection. */
  concurrency: number;
  /** Readings per transaction at most. */
  maxReadings?: number;
  /** Readings that make a flush worth starting while others run (default a tenth of the most). */
  minReadings?: number;
  /** Where a unit that cannot be stored is logged when its own account cannot take it. */
  fallbackAccount?: () => Promise<number | undefined>;
  /** The clock (readings are refused outside the months it makes sense to keep). */
  now?: () => number;
}

/**
 * Why a unit is refused before the database sees it (its message names the refused field and value).
 * Like a constraint the database enforces, it concerns the unit alone: the rest of its batch is
 * stored, the unit goes to the data log.
 */
export class StoreRefusal extends Error {}

/** The SQLSTATE of a database error (PostgreSQL's and PGlite's), also when Drizzle wraps it. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** node-postgres and PGlite say so in words when the connection, not the statement, failed. */
const TRANSIENT_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|not queryable|pool after calling end|pglite is closed/i;
const TRANSIENT_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * Whether an error is the database's condition rather than the message's: connection lost, server
 * shutting down or overloaded, a deadlock, a timeout, a missing table or privilege. Only data
 * exceptions (22), integrity constraints (23) and program limits (54) are a message's fault. A
 * message failing otherwise is not acknowledged, so the broker delivers it again later.
 */
export function isTransientError(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state) return !/^(22|23|54)/.test(state);
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && TRANSIENT_NODE_CODES.has(code)) return true;
    if (typeof message === 'string' && TRANSIENT_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * Why a unit was not stored, for the data log: the refused value or the SQLSTATE (data, not prose:
 * the reason `store_failed` is what is translated), never the statement.
 */
function failureDetail(error: unknown): string | null {
  if (error instanceof StoreRefusal) return cleanLine(error.message, MAX_DETAIL_LENGTH);
  const state = sqlStateOf(error);
  return state ? `SQLSTATE ${state}` : null;
}

/**
 * The latest-value writer waits this long at least, and ten times as long as its last write took,
 * up to the cap: idle, latest rows trail their readings by a tenth of a second; under a flood, the
 * writer coalesces more (a device reporting many times in the wait is written once) and keeps to
 * about a tenth of one database connection's time. (The live stream does not wait for it: its
 * events leave with the readings' commit.)
 */
const LATEST_DELAY_MS = 100;
const LATEST_DELAY_MAX_MS = 5000;

/**
 * One array parameter, written as PostgreSQL's array literal here: node-postgres would escape every
 * element through its generic value preparation, the largest single cost of a flush. Numbers go as
 * they print; a text goes bare when it holds only characters an array literal leaves alone.
 */
const BARE = /^[A-Za-z0-9_:.+-]+$/;
const element = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return BARE.test(text) && text.toUpperCase() !== 'NULL' ? text : `"${text.replace(/[\\"]/g, '\\$&')}"`;
};
/**
 * The array literal of one column of `rows`, written in one pass; a value equal to the one before
 * it (the five readings of an uplink share device, time and frame) reuses its text.
 */
export function columnLiteral<T>(rows: readonly T[], pick: (row: T) => unknown): string {
  let out = '{';
  let last: unknown;
  let lastText = '';
  for (let i = 0; i < rows.length; i++) {
    const value = pick(rows[i] as T);
    if (i === 0 || value !== last) {
      last = value;
      lastText = element(value);
    }
    out += i === 0 ? lastText : `,${lastText}`;
  }
  return `${out}}`;
}
export const arrayLiteral = (values: readonly unknown[]): string => columnLiteral(values, (v) => v);
/**
 * Readings outside these years are refused (`store_failed`) rather than given a partition: the ingest
 * bounds device times, and this keeps any other path from creating partitions for the year 275760.
 */
const FIRST_READING_YEAR = 2000;
const READING_YEARS_AHEAD = 1;
/** One column of `rows` as one array parameter. */
const column = <T>(rows: readonly T[], pick: (row: T) => unknown) => sql.param(columnLiteral(rows, pick));
/** ISO text of a time; the readings of one uplink share one Date, so the last answer is kept. */
function isoOf(): (d: Date) => string {
  let last: Date | undefined;
  let text = '';
  return (d) => {
    if (d !== last) {
      last = d;
      text = d.toISOString();
    }
    return text;
  };
}
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const monthKey = (d: Date) => `${d.getUTCFullYear()}-${d.getUTCMonth()}`;

/**
 * Group commit: while a flush runs, messages gather; the next flush stores them all at once with
 * `INSERT … SELECT FROM unnest(…)`. A unit's promise resolves only after its transaction commits,
 * which is when the MQTT message may be acknowledged.
 */
export class BatchWriter {
  private waiting: Pending[] = [];
  private running = 0;
  private scheduled = false;
  private months = new Map<string, Promise<unknown>>();
  private latestPending = new Map<string, Reading>();
  private seenPending = new Map<number, DeviceSeen>();
  private latestFlush: Promise<void> | undefined;
  private latestDelay = LATEST_DELAY_MS;
  private readonly maxReadings: number;
  private readonly minReadings: number;
  private waitingReadings = 0;

  constructor(
    private readonly db: Db,
    private readonly events: LiveEvents,
    private readonly options: WriterOptions,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.maxReadings = options.maxReadings ?? 10_000;
    this.minReadings = options.minReadings ?? this.maxReadings / 10;
  }

  submit(unit: IngestUnit): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ unit, resolve, reject });
      this.waitingReadings += unit.readings?.length ?? 0;
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far is stored, latest values included. */
  async drain(): Promise<void> {
    while (this.waiting.length || this.running || this.latestFlush) {
      await (this.latestFlush ?? new Promise((r) => setTimeout(r, 5)));
    }
  }

  /**
   * When a reading of this frame (device channel and frame key) was stored within `since … until`,
   * the newest such time: a message delivered again takes it, so it lands on the stored copy.
   */
  async storedFrameTime(frame: FrameQuery): Promise<Date | undefined> {
    const rows = rowsOf(
      await this.db.execute(sql`
        SELECT date_time FROM channel_read_values
        WHERE device_id = ${frame.deviceId} AND device_channel_template_id = ${frame.templateId}
          AND sub_channel = ${frame.subChannel} AND frame_key = ${frame.frameKey}
          AND date_time BETWEEN ${frame.since.toISOString()}::timestamptz AND ${frame.until.toISOString()}::timestamptz
        ORDER BY date_time DESC LIMIT 1`),
    );
    const at = rows[0]?.date_time;
    return at === undefined ? undefined : new Date(at as string | Date);
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.options.concurrency) return;
    this.scheduled = true;
    // Let the messages parsed from the same socket read join this batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flushNext();
    });
  }

  /**
   * Starts a flush when the writer is idle, or when enough has gathered to be worth a transaction
   * of its own beside those running: a handful of readings in a slot of their own would cost a
   * commit and keep the next flush from taking the many that arrive meanwhile.
   */
  private flushNext(): void {
    while (
      this.waiting.length &&
      this.running < this.options.concurrency &&
      (this.running === 0 || this.waitingReadings >= this.minReadings)
    ) {
      let count = 0;
      let readings = 0;
      while (count < this.waiting.length && (readings < this.maxReadings || count === 0)) {
        readings += this.waiting[count]?.unit.readings?.length ?? 0;
        count++;
      }
      const batch = this.waiting.splice(0, count);
      this.waitingReadings -= readings;
      this.running++;
      this.store(batch).finally(() => {
        this.running--;
        if (this.waiting.length) this.schedule();
      });
    }
  }

  /**
   * Stores a batch in one transaction. When that fails for a reason of the database's (connection,
   * deadlock), nothing is acknowledged and the broker delivers it all again. Otherwise one of its
   * units is at fault: each is stored on its own, and one that still fails is kept in the data log
   * (`store_failed`) and acknowledged, so one bad message never holds up the others or the ingest.
   */
  private async store(batch: Pending[]): Promise<void> {
    try {
      this.settle(batch, await this.flush(batch));
      return;
    } catch (error) {
      if (isTransientError(error)) {
        for (const p of batch) p.reject(error as Error);
        return;
      }
      if (batch.length === 1) {
        await this.storeFailure(batch[0] as Pending, error);
        return;
      }
    }
    for (const p of batch) {
      try {
        this.settle([p], await this.flush([p]));
      } catch (error) {
        if (isTransientError(error)) p.reject(error as Error);
        else await this.storeFailure(p, error);
      }
    }
  }

  private settle(batch: Pending[], events: Map<number, LiveEvent[]>): void {
    for (const p of batch) p.resolve();
    for (const [accountId, list] of events) this.events.publish(accountId, list);
  }

  /** Keeps a unit that cannot be stored in the data log, in its account or else the fallback one. */
  private async storeFailure(p: Pending, error: unknown): Promise<void> {
    this.onError(error);
    const { unit } = p;
    const own = unit.source?.accountId ?? unit.readings?.[0]?.accountId ?? unit.seen?.accountId;
    const entry = {
      topic: unit.source?.topic ?? '',
      deviceUid: unit.source?.deviceUid ?? null,
      reason: 'store_failed',
      payload: cleanText(unit.source?.payload ?? '', LOGGED_PAYLOAD_BYTES),
      detail: failureDetail(error),
    };
    let lastError = error;
    let accountId = own;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        if (attempt === 1 || accountId === undefined) {
          const fallback = await this.options.fallbackAccount?.();
          if (fallback === undefined || (attempt === 1 && fallback === accountId)) break;
          accountId = fallback;
        }
        await this.flush([{ unit: { logs: [{ accountId, ...entry }] }, resolve() {}, reject() {} }]);
        p.resolve();
        return;
      } catch (failure) {
        lastError = failure;
        if (isTransientError(failure)) break;
      }
    }
    p.reject(lastError as Error);
  }

  private async flush(batch: Pending[]): Promise<Map<number, LiveEvent[]>> {
    const readings: Reading[] = [];
    const seen = new Map<number, DeviceSeen>();
    const logs: DataLogEntry[] = [];
    const answers: WriteAnswer[] = [];
    for (const { unit } of batch) {
      if (unit.readings) for (const r of unit.readings) readings.push(r);
      if (unit.seen) {
        const before = seen.get(unit.seen.deviceId);
        if (!before || before.dateTime <= unit.seen.dateTime) seen.set(unit.seen.deviceId, unit.seen);
      }
      if (unit.logs) logs.push(...unit.logs);
      if (unit.answers) answers.push(...unit.answers);
    }
    await this.ensureMonths(readings);
    // The newest reading per device channel; sorted, so concurrent batches lock rows in one order.
    const latest = new Map<string, Reading>();
    for (const r of readings) {
      const key = `${r.deviceId}:${r.templateId}:${r.subChannel}`;
      const before = latest.get(key);
      if (!before || before.dateTime < r.dateTime) latest.set(key, r);
    }
    const latestRows = [...latest.values()].sort(
      (a, b) => a.deviceId - b.deviceId || a.templateId - b.templateId || a.subChannel - b.subChannel,
    );
    const seenRows = [...seen.values()].sort((a, b) => a.deviceId - b.deviceId);

    const iso = isoOf();
    const answered = await this.db.transaction(async (tx) => {
      if (readings.length) {
        await tx.execute(sql`
          INSERT INTO channel_read_values
            (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key)
          SELECT * FROM unnest(
            ${column(readings, (r) => r.accountId)}::bigint[], ${column(readings, (r) => r.deviceId)}::bigint[],
            ${column(readings, (r) => r.templateId)}::bigint[], ${column(readings, (r) => r.subChannel)}::int[],
            ${column(readings, (r) => r.value)}::float8[],
            ${column(readings, (r) => iso(r.dateTime))}::timestamptz[], ${column(readings, (r) => r.status)}::text[],
            ${column(readings, (r) => r.frameKey)}::text[])
          ON CONFLICT DO NOTHING`);
      }
      if (logs.length) {
        await tx.execute(sql`
          INSERT INTO data_logs (account_id, topic, device_uid, reason, payload, detail)
          SELECT * FROM unnest(
            ${column(logs, (l) => l.accountId)}::bigint[], ${column(logs, (l) => l.topic)}::text[],
            ${column(logs, (l) => l.deviceUid)}::text[], ${column(logs, (l) => l.reason)}::text[],
            ${column(logs, (l) => l.payload)}::text[], ${column(logs, (l) => l.detail)}::text[])`);
      }
      const changed: Record<string, unknown>[] = [];
      for (const answer of answers) {
        // A late answer does not undo a timeout, and an answer is taken once.
        const result = await tx.execute(sql`
          UPDATE channel_write_values
            SET status = ${answer.status}, message = ${answer.message}, answered_at = ${answer.answeredAt.toISOString()},
                updated_at = now()
            WHERE downlink_id = ${answer.downlinkId} AND device_id = ${answer.deviceId} AND status IN ('pending', 'sent')
            RETURNING ${WRITE_EVENT_COLUMNS}`);
        changed.push(...rowsOf(result));
      }
      return changed;
    });
    this.keepLatest(latestRows, seenRows);
    return this.eventsOf(latestRows, seenRows, answered);
  }

  /**
   * Latest values and connection status are written by one flusher, a moment after their readings
   * commit: concurrent batches would otherwise queue on the same rows' locks. They are derived data:
   * the readings, committed before the acknowledgement, remain the record.
   */
  private keepLatest(latestRows: Reading[], seenRows: DeviceSeen[]): void {
    for (const r of latestRows) {
      const key = `${r.deviceId}:${r.templateId}:${r.subChannel}`;
      const before = this.latestPending.get(key);
      if (!before || before.dateTime < r.dateTime) this.latestPending.set(key, r);
    }
    for (const seen of seenRows) {
      const before = this.seenPending.get(seen.deviceId);
      if (!before || before.dateTime <= seen.dateTime) this.seenPending.set(seen.deviceId, seen);
    }
    if (!this.latestFlush)
      this.latestFlush = new Promise((resolve) => setTimeout(resolve, this.latestDelay)).then(() => this.flushLatest());
  }

  private async flushLatest(): Promise<void> {
    const latestRows = [...this.latestPending.values()].sort(
      (a, b) => a.deviceId - b.deviceId || a.templateId - b.templateId || a.subChannel - b.subChannel,
    );
    const seenRows = [...this.seenPending.values()].sort((a, b) => a.deviceId - b.deviceId);
    this.latestPending.clear();
    this.seenPending.clear();
    const started = performance.now();
    try {
      await this.db.transaction(async (tx) => {
        if (latestRows.length) {
          await tx.execute(sql`
            INSERT INTO channel_values
              (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status)
            SELECT * FROM unnest(
              ${column(latestRows, (r) => r.accountId)}::bigint[], ${column(latestRows, (r) => r.deviceId)}::bigint[],
              ${column(latestRows, (r) => r.templateId)}::bigint[], ${column(latestRows, (r) => r.subChannel)}::int[],
              ${column(latestRows, (r) => r.value)}::float8[],
              ${column(latestRows, (r) => r.dateTime.toISOString())}::timestamptz[], ${column(latestRows, (r) => r.status)}::text[])
            ON CONFLICT (device_id, device_channel_template_id, sub_channel) DO UPDATE
              SET value = excluded.value, date_time = excluded.date_time, status = excluded.status, updated_at = now()
              WHERE channel_values.date_time < excluded.date_time`);
        }
        if (seenRows.length) {
          await tx.execute(sql`
            INSERT INTO device_connection_status (account_id, device_id, status, date_time, rssi, snr)
            SELECT a, d, 'online', t, r, s FROM unnest(
              ${column(seenRows, (r) => r.accountId)}::bigint[], ${column(seenRows, (r) => r.deviceId)}::bigint[],
              ${column(seenRows, (r) => r.dateTime.toISOString())}::timestamptz[], ${column(seenRows, (r) => r.rssi)}::float8[],
              ${column(seenRows, (r) => r.snr)}::float8[]) AS u(a, d, t, r, s)
            ON CONFLICT (device_id) DO UPDATE
              SET status = 'online', date_time = excluded.date_time, updated_at = now(),
                  rssi = coalesce(excluded.rssi, device_connection_status.rssi),
                  snr = coalesce(excluded.snr, device_connection_status.snr)
              WHERE device_connection_status.date_time <= excluded.date_time`);
        }
      });
    } catch (error) {
      this.onError(error);
    } finally {
      const took = performance.now() - started;
      this.latestDelay = Math.min(LATEST_DELAY_MAX_MS, Math.max(LATEST_DELAY_MS, 10 * took));
      this.latestFlush = undefined;
      if (this.latestPending.size || this.seenPending.size) this.keepLatest([], []);
    }
  }

  private eventsOf(latest: Reading[], seen: DeviceSeen[], answered: Record<string, unknown>[]) {
    const byAccount = new Map<number, LiveEvent[]>();
    const iso = isoOf();
    // Events are built only for accounts someone is listening to.
    const listOf = (accountId: number) => {
      if (!this.events.hasListeners(accountId)) return undefined;
      const list = byAccount.get(accountId) ?? [];
      byAccount.set(accountId, list);
      return list;
    };
    for (const r of latest) {
      listOf(r.accountId)?.push({
        type: 'value',
        deviceId: r.deviceId,
        deviceChannelTemplateId: r.templateId,
        subChannel: r.subChannel,
        channelCode: r.channelCode,
        value: r.value,
        status: r.status,
        dateTime: iso(r.dateTime),
      });
    }
    for (const s of seen) {
      listOf(s.accountId)?.push({
        type: 'status',
        deviceId: s.deviceId,
        status: 'online',
        dateTime: iso(s.dateTime),
        rssi: s.rssi,
        snr: s.snr,
      });
    }
    for (const row of answered) listOf(Number(row.account_id))?.push(writeEvent(row));
    return byAccount;
  }

  private async ensureMonths(readings: Reading[]): Promise<void> {
    const wanted = new Map<string, Date>();
    for (const r of readings) {
      const key = monthKey(r.dateTime);
      if (!this.months.has(key) && !wanted.has(key)) wanted.set(key, r.dateTime);
    }
    const lastYear = new Date(this.options.now?.() ?? Date.now()).getUTCFullYear() + READING_YEARS_AHEAD;
    for (const at of wanted.values()) {
      const year = at.getUTCFullYear();
      if (!(year >= FIRST_READING_YEAR && year <= lastYear))
        throw new StoreRefusal(`dateTime: ${Number.isNaN(year) ? 'NaN' : at.toISOString()}`);
    }
    for (const [key, at] of wanted) {
      // Another worker creating the same month at the same moment makes ours fail "already exists" (42P07).
      const ensured = this.db
        .execute(sql`SELECT lampyr_ensure_reading_partition(${at.toISOString()}::timestamptz)`)
        .catch((error: { cause?: { code?: string } }) => {
          if (error.cause?.code !== '42P07') throw error;
        });
      this.months.set(key, ensured);
      ensured.catch(() => this.months.delete(key));
    }
    await Promise.all(readings.length ? [...new Set(readings.map((r) => this.months.get(monthKey(r.dateTime))))] : []);
  }
}

/** What a statement changing a channel write returns for its live event. */
export const WRITE_EVENT_COLUMNS = sql.raw(
  'id, account_id, device_id, device_channel_template_id, value, status, message, sent_at, answered_at, updated_at',
);

const isoOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string | Date).toISOString();

/** A channel-write-values row (snake_case, from SQL) as a live event. */
export function writeEvent(row: Record<string, unknown>): LiveEvent {
  return {
    type: 'write',
    id: Number(row.id),
    deviceId: Number(row.device_id),
    deviceChannelTemplateId: Number(row.device_channel_template_id),
    value: Number(row.value),
    status: String(row.status) as LiveWrite['status'],
    message: (row.message as string | null) ?? null,
    sentAt: isoOrNull(row.sent_at),
    answeredAt: isoOrNull(row.answered_at),
    updatedAt: isoOrNull(row.updated_at) as string,
  };
}
