import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { column } from './array-codec.ts';
import type { DeviceSeen, Reading } from './ingest-units.ts';

/**
 * The latest-value writer waits this long at least, and ten times as long as its last write took,
 * up to the cap: idle, latest rows trail their readings by a tenth of a second; under a flood, the
 * writer coalesces more (a device reporting many times in the wait is written once) and keeps to
 * about a tenth of one database connection's time. (The live stream does not wait for it: its
 * events leave with the readings' commit.)
 */
const LATEST_DELAY_MS = 100;
const LATEST_DELAY_MAX_MS = 5000;

/** Orders latest rows by their key, so concurrent writers lock rows in one order. */
export const byChannel = (a: Reading, b: Reading) =>
  a.deviceId - b.deviceId || a.templateId - b.templateId || a.subChannel - b.subChannel;

/**
 * Latest values and connection status are written by one flusher, a moment after their readings
 * commit: concurrent batches would otherwise queue on the same rows' locks. They are derived data:
 * the readings, committed before the acknowledgement, remain the record.
 */
export class LatestWriter {
  private latestPending = new Map<string, Reading>();
  private seenPending = new Map<number, DeviceSeen>();
  private delay = LATEST_DELAY_MS;
  /** The flush under way or waiting to start, if any. */
  pending: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
  ) {}

  keep(latestRows: readonly Reading[], seenRows: readonly DeviceSeen[]): void {
    for (const r of latestRows) {
      const key = `${r.deviceId}:${r.templateId}:${r.subChannel}`;
      const before = this.latestPending.get(key);
      if (!before || before.dateTime < r.dateTime) this.latestPending.set(key, r);
    }
    for (const seen of seenRows) {
      const before = this.seenPending.get(seen.deviceId);
      if (!before || before.dateTime <= seen.dateTime) this.seenPending.set(seen.deviceId, seen);
    }
    if (!this.pending)
      this.pending = new Promise((resolve) => setTimeout(resolve, this.delay)).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    const latestRows = [...this.latestPending.values()].sort(byChannel);
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
      this.delay = Math.min(LATEST_DELAY_MAX_MS, Math.max(LATEST_DELAY_MS, 10 * took));
      this.pending = undefined;
      if (this.latestPending.size || this.seenPending.size) this.keep([], []);
    }
  }
}
