import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import type { LiveEvent, LiveEvents } from '../stream/live-events.ts';

export interface Reading {
  accountId: number;
  deviceId: number;
  templateId: number;
  channelCode: string;
  value: number;
  status: string;
  dateTime: Date;
  /** `fcnt:<n>` for LoRaWAN frames, the uplink time otherwise: with the time, the reading's identity. */
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
}

/** A channel write's answer from the device (or the network server). */
export interface WriteAnswer {
  id: number;
  status: 'acknowledged' | 'failed';
  message: string | null;
  answeredAt: Date;
}

/** Everything one MQTT message leads to; stored in one transaction with the rest of its batch. */
export interface IngestUnit {
  readings?: Reading[];
  seen?: DeviceSeen;
  logs?: DataLogEntry[];
  answers?: WriteAnswer[];
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
}

const LATEST_DELAY_MS = 100;

/** One array parameter (drizzle would otherwise spread a JavaScript array into a parameter list). */
const list = (values: unknown[]) => sql.param(values);
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
  private readonly maxReadings: number;

  constructor(
    private readonly db: Db,
    private readonly events: LiveEvents,
    private readonly options: WriterOptions,
    private readonly onLatestError: (error: unknown) => void = () => {},
  ) {
    this.maxReadings = options.maxReadings ?? 10_000;
  }

  submit(unit: IngestUnit): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ unit, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far is stored, latest values included. */
  async drain(): Promise<void> {
    while (this.waiting.length || this.running || this.latestFlush) {
      await (this.latestFlush ?? new Promise((r) => setTimeout(r, 5)));
    }
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

  private flushNext(): void {
    while (this.waiting.length && this.running < this.options.concurrency) {
      const batch: Pending[] = [];
      let readings = 0;
      while (this.waiting.length && (readings < this.maxReadings || !batch.length)) {
        const next = this.waiting.shift() as Pending;
        readings += next.unit.readings?.length ?? 0;
        batch.push(next);
      }
      this.running++;
      this.flush(batch)
        .then(
          (events) => {
            for (const p of batch) p.resolve();
            for (const [accountId, list] of events) this.events.publish(accountId, list);
          },
          (error: Error) => {
            for (const p of batch) p.reject(error);
          },
        )
        .finally(() => {
          this.running--;
          if (this.waiting.length) this.schedule();
        });
    }
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
      const key = `${r.deviceId}:${r.templateId}`;
      const before = latest.get(key);
      if (!before || before.dateTime < r.dateTime) latest.set(key, r);
    }
    const latestRows = [...latest.values()].sort((a, b) => a.deviceId - b.deviceId || a.templateId - b.templateId);
    const seenRows = [...seen.values()].sort((a, b) => a.deviceId - b.deviceId);

    const answered = await this.db.transaction(async (tx) => {
      if (readings.length) {
        await tx.execute(sql`
          INSERT INTO channel_read_values
            (account_id, device_id, device_channel_template_id, value, date_time, status, frame_key)
          SELECT * FROM unnest(
            ${list(readings.map((r) => r.accountId))}::bigint[], ${list(readings.map((r) => r.deviceId))}::bigint[],
            ${list(readings.map((r) => r.templateId))}::bigint[], ${list(readings.map((r) => r.value))}::float8[],
            ${list(readings.map((r) => r.dateTime.toISOString()))}::timestamptz[], ${list(readings.map((r) => r.status))}::text[],
            ${list(readings.map((r) => r.frameKey))}::text[])
          ON CONFLICT DO NOTHING`);
      }
      if (logs.length) {
        await tx.execute(sql`
          INSERT INTO data_logs (account_id, topic, device_uid, reason, payload)
          SELECT * FROM unnest(
            ${list(logs.map((l) => l.accountId))}::bigint[], ${list(logs.map((l) => l.topic))}::text[],
            ${list(logs.map((l) => l.deviceUid))}::text[], ${list(logs.map((l) => l.reason))}::text[],
            ${list(logs.map((l) => l.payload))}::text[])`);
      }
      const changed: Record<string, unknown>[] = [];
      for (const answer of answers) {
        // A late answer does not undo a timeout, and an answer is taken once.
        const result = await tx.execute(sql`
          UPDATE channel_write_values
            SET status = ${answer.status}, message = ${answer.message}, answered_at = ${answer.answeredAt.toISOString()},
                updated_at = now()
            WHERE id = ${answer.id} AND status IN ('pending', 'sent')
            RETURNING id, account_id, device_id, device_channel_template_id, value, status, message`);
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
      const key = `${r.deviceId}:${r.templateId}`;
      const before = this.latestPending.get(key);
      if (!before || before.dateTime < r.dateTime) this.latestPending.set(key, r);
    }
    for (const seen of seenRows) {
      const before = this.seenPending.get(seen.deviceId);
      if (!before || before.dateTime <= seen.dateTime) this.seenPending.set(seen.deviceId, seen);
    }
    if (!this.latestFlush)
      this.latestFlush = new Promise((resolve) => setTimeout(resolve, LATEST_DELAY_MS)).then(() => this.flushLatest());
  }

  private async flushLatest(): Promise<void> {
    const latestRows = [...this.latestPending.values()].sort(
      (a, b) => a.deviceId - b.deviceId || a.templateId - b.templateId,
    );
    const seenRows = [...this.seenPending.values()].sort((a, b) => a.deviceId - b.deviceId);
    this.latestPending.clear();
    this.seenPending.clear();
    try {
      await this.db.transaction(async (tx) => {
        if (latestRows.length) {
          await tx.execute(sql`
            INSERT INTO channel_values (account_id, device_id, device_channel_template_id, value, date_time, status)
            SELECT * FROM unnest(
              ${list(latestRows.map((r) => r.accountId))}::bigint[], ${list(latestRows.map((r) => r.deviceId))}::bigint[],
              ${list(latestRows.map((r) => r.templateId))}::bigint[], ${list(latestRows.map((r) => r.value))}::float8[],
              ${list(latestRows.map((r) => r.dateTime.toISOString()))}::timestamptz[], ${list(latestRows.map((r) => r.status))}::text[])
            ON CONFLICT (device_id, device_channel_template_id) DO UPDATE
              SET value = excluded.value, date_time = excluded.date_time, status = excluded.status, updated_at = now()
              WHERE channel_values.date_time < excluded.date_time`);
        }
        if (seenRows.length) {
          await tx.execute(sql`
            INSERT INTO device_connection_status (account_id, device_id, status, date_time, rssi, snr)
            SELECT a, d, 'online', t, r, s FROM unnest(
              ${list(seenRows.map((r) => r.accountId))}::bigint[], ${list(seenRows.map((r) => r.deviceId))}::bigint[],
              ${list(seenRows.map((r) => r.dateTime.toISOString()))}::timestamptz[], ${list(seenRows.map((r) => r.rssi))}::float8[],
              ${list(seenRows.map((r) => r.snr))}::float8[]) AS u(a, d, t, r, s)
            ON CONFLICT (device_id) DO UPDATE
              SET status = 'online', date_time = excluded.date_time, updated_at = now(),
                  rssi = coalesce(excluded.rssi, device_connection_status.rssi),
                  snr = coalesce(excluded.snr, device_connection_status.snr)
              WHERE device_connection_status.date_time <= excluded.date_time`);
        }
      });
    } catch (error) {
      this.onLatestError(error);
    } finally {
      this.latestFlush = undefined;
      if (this.latestPending.size || this.seenPending.size) this.keepLatest([], []);
    }
  }

  private eventsOf(latest: Reading[], seen: DeviceSeen[], answered: Record<string, unknown>[]) {
    const byAccount = new Map<number, LiveEvent[]>();
    const push = (accountId: number, event: LiveEvent) => {
      if (!this.events.hasListeners(accountId)) return;
      const list = byAccount.get(accountId) ?? [];
      byAccount.set(accountId, list);
      list.push(event);
    };
    for (const r of latest) {
      push(r.accountId, {
        type: 'value',
        deviceId: r.deviceId,
        deviceChannelTemplateId: r.templateId,
        channelCode: r.channelCode,
        value: r.value,
        status: r.status,
        dateTime: r.dateTime.toISOString(),
      });
    }
    for (const s of seen) {
      push(s.accountId, {
        type: 'status',
        deviceId: s.deviceId,
        status: 'online',
        dateTime: s.dateTime.toISOString(),
        rssi: s.rssi,
        snr: s.snr,
      });
    }
    for (const row of answered) push(Number(row.account_id), writeEvent(row));
    return byAccount;
  }

  private async ensureMonths(readings: Reading[]): Promise<void> {
    const wanted = new Map<string, Date>();
    for (const r of readings) {
      const key = monthKey(r.dateTime);
      if (!this.months.has(key) && !wanted.has(key)) wanted.set(key, r.dateTime);
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

/** A channel-write-values row (snake_case, from SQL) as a live event. */
export function writeEvent(row: Record<string, unknown>): LiveEvent {
  return {
    type: 'write',
    id: Number(row.id),
    deviceId: Number(row.device_id),
    deviceChannelTemplateId: Number(row.device_channel_template_id),
    value: Number(row.value),
    status: String(row.status),
    message: (row.message as string | null) ?? null,
  };
}
