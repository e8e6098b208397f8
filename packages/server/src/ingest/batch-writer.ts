import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database, Db } from '../db/connect.ts';
import type { LiveEvent, LiveEvents } from '../events/live-events.ts';
import { column, isoOf, rowsOf } from './array-codec.ts';
import { cleanText, LOGGED_PAYLOAD_BYTES } from './device-input.ts';
import type {
  DataLogEntry,
  DeviceSeen,
  FrameQuery,
  GatewayStatsUnit,
  IngestUnit,
  Reading,
  WriteAnswer,
} from './ingest-units.ts';
import { LatestWriter, mergeSeen, NewestReadings } from './latest-writer.ts';
import { ReadingPartitions } from './reading-partitions.ts';
import { failureDetail, isTransientError, sqlStateOf } from './store-errors.ts';
import { WRITE_EVENT_COLUMNS, writeEvent } from './write-events.ts';

export type {
  DataLogEntry,
  DeviceSeen,
  FrameQuery,
  IngestUnit,
  Reading,
  UnitSource,
  WriteAnswer,
} from './ingest-units.ts';

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
  /**
   * Told, once a transaction has committed, what it stored: its readings and the devices heard
   * from (the alarm engine evaluates them). Must return at once; its errors go to `onError`.
   */
  onCommitted?: (readings: readonly Reading[], seen: readonly DeviceSeen[]) => void;
  /** PostgreSQL: transactions with their connection's client, so readings go in by COPY. */
  transactionWithClient?: Database['transactionWithClient'];
}

const READING_COLUMNS =
  'account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key';
const COPY_READINGS = `COPY channel_read_values (${READING_COLUMNS}) FROM STDIN`;

/** A text field of COPY's text format: backslash, tab, newline and carriage return escaped. */
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const copyField = (text: string) =>
  COPY_SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] as string) : text;

/**
 * Stores readings in one statement of the transaction. With the connection's client (PostgreSQL):
 * `COPY … FROM STDIN` in text format: 1.4–1.6× the rows per second of the `INSERT … SELECT FROM
 * unnest(…)` it replaces in bench:ingest's raw variants, a third less of PostgreSQL's CPU per uplink
 * end to end (`BENCH_COPY=0` runs the A/B); COPY has no `ON CONFLICT`, so a reading
 * already stored fails it with 23505 and the caller does the transaction again without the client.
 * Without one (PGlite, the fallback): that INSERT, skipping readings already stored.
 */
export async function insertReadings(tx: Db, readings: readonly Reading[], client?: pg.ClientBase): Promise<void> {
  const iso = isoOf();
  if (client) {
    const lines: string[] = [];
    for (const r of readings)
      lines.push(
        `${r.accountId}\t${r.deviceId}\t${r.templateId}\t${r.subChannel}\t${r.value}\t${iso(r.dateTime)}\t${copyField(r.status)}\t${copyField(r.frameKey)}\n`,
      );
    await pipeline(Readable.from([lines.join('')]), client.query(copyFrom(COPY_READINGS)));
    return;
  }
  await tx.execute(sql`
    INSERT INTO channel_read_values (${sql.raw(READING_COLUMNS)})
    SELECT * FROM unnest(
      ${column(readings, (r) => r.accountId)}::bigint[], ${column(readings, (r) => r.deviceId)}::bigint[],
      ${column(readings, (r) => r.templateId)}::bigint[], ${column(readings, (r) => r.subChannel)}::int[],
      ${column(readings, (r) => r.value)}::float8[],
      ${column(readings, (r) => iso(r.dateTime))}::timestamptz[], ${column(readings, (r) => r.status)}::text[],
      ${column(readings, (r) => r.frameKey)}::text[])
    ON CONFLICT DO NOTHING`);
}

/**
 * Group commit: while a flush runs, messages gather; the next flush stores them all at once with
 * `INSERT … SELECT FROM unnest(…)`. A unit's promise resolves only after its transaction commits,
 * which is when the MQTT message may be acknowledged.
 */
export class BatchWriter {
  private waiting: Pending[] = [];
  private running = 0;
  private scheduled = false;
  private readonly partitions: ReadingPartitions;
  private readonly latest: LatestWriter;
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
    this.partitions = new ReadingPartitions(db, options.now);
    this.latest = new LatestWriter(db, onError);
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
    while (this.waiting.length || this.running || this.latest.pending) {
      await (this.latest.pending ?? new Promise((r) => setTimeout(r, 5)));
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
    // The newest stats of each gateway in the batch.
    const stats = new Map<number, GatewayStatsUnit>();
    for (const { unit } of batch) {
      for (const g of unit.gatewayStats ?? []) {
        const before = stats.get(g.gatewayId);
        if (!before || before.at <= g.at) stats.set(g.gatewayId, g);
      }
      if (unit.readings) for (const r of unit.readings) readings.push(r);
      if (unit.seen) seen.set(unit.seen.deviceId, mergeSeen(seen.get(unit.seen.deviceId), unit.seen));
      if (unit.logs) logs.push(...unit.logs);
      if (unit.answers) answers.push(...unit.answers);
    }
    await this.partitions.ensure(readings);
    // The newest reading per device channel, for the live stream and the latest-value writer (which
    // sorts what it writes, so concurrent writers lock rows in one order).
    const latest = new NewestReadings();
    for (const r of readings) latest.offer(r);
    const latestRows = latest.rows();
    const seenRows = [...seen.values()];

    const iso = isoOf();
    const write = async (tx: Db, client?: pg.ClientBase) => {
      if (readings.length) await insertReadings(tx, readings, client);
      if (stats.size) {
        // A gateway sending its stats is alive, whether or not a luminaire's frame went through it;
        // its counters follow the newest stats only (a late one does not undo a newer one).
        const g = [...stats.values()].sort((a, b) => a.gatewayId - b.gatewayId);
        const newer = sql.raw('(gateways.stats_at IS NULL OR gateways.stats_at <= u.t)');
        await tx.execute(sql`
          UPDATE gateways SET status = 'online', last_seen_at = greatest(gateways.last_seen_at, u.t), updated_at = now(),
            stats_at = CASE WHEN ${newer} THEN u.t ELSE gateways.stats_at END,
            rx_packets_received = CASE WHEN ${newer} THEN u.rx ELSE gateways.rx_packets_received END,
            rx_packets_received_ok = CASE WHEN ${newer} THEN u.rx_ok ELSE gateways.rx_packets_received_ok END,
            tx_packets_received = CASE WHEN ${newer} THEN u.tx ELSE gateways.tx_packets_received END,
            tx_packets_emitted = CASE WHEN ${newer} THEN u.tx_sent ELSE gateways.tx_packets_emitted END
          FROM unnest(
            ${column(g, (x) => x.gatewayId)}::bigint[], ${column(g, (x) => iso(x.at))}::timestamptz[],
            ${column(g, (x) => x.rxPacketsReceived)}::int[], ${column(g, (x) => x.rxPacketsReceivedOk)}::int[],
            ${column(g, (x) => x.txPacketsReceived)}::int[], ${column(g, (x) => x.txPacketsEmitted)}::int[])
            AS u(id, t, rx, rx_ok, tx, tx_sent)
          WHERE gateways.id = u.id`);
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
              AND (${answer.unconfirmedOnly === true} = false OR confirmed = false)
            RETURNING ${WRITE_EVENT_COLUMNS}`);
        changed.push(...rowsOf(result));
      }
      return changed;
    };
    let answered: Record<string, unknown>[];
    const withClient = this.options.transactionWithClient;
    if (withClient && readings.length) {
      try {
        answered = await withClient(write);
      } catch (error) {
        // A reading already stored (a message delivered again) fails the COPY: the INSERT skips it.
        if (sqlStateOf(error) !== '23505') throw error;
        answered = await this.db.transaction((tx) => write(tx));
      }
    } else answered = await this.db.transaction((tx) => write(tx));
    this.latest.keep(latestRows, seenRows);
    if (this.options.onCommitted && (readings.length || seenRows.length)) {
      try {
        this.options.onCommitted(readings, seenRows);
      } catch (error) {
        this.onError(error);
      }
    }
    return this.eventsOf(latestRows, seenRows, answered);
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
}
