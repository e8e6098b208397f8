import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { column } from './array-codec.ts';
import type { DeviceSeen, Reading } from './ingest-units.ts';
import { isTransientError } from './store-errors.ts';

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
 * Two sightings of one device as one: the newer one's time and signal, the health a status event
 * brought (from either), and every gateway that heard either.
 */
export function mergeSeen(before: DeviceSeen | undefined, next: DeviceSeen): DeviceSeen {
  if (!before) return next;
  const nextIsNewer = before.dateTime <= next.dateTime;
  const older = nextIsNewer ? before : next;
  const newer = nextIsNewer ? next : before;
  // Every field written out (a spread copy takes a hidden class of its own per source shape).
  return {
    accountId: newer.accountId,
    deviceId: newer.deviceId,
    dateTime: newer.dateTime,
    rssi: newer.rssi,
    snr: newer.snr,
    gateway: newer.gateway ?? older.gateway,
    gateways: unionOf(older.gateways, newer.gateways),
    health: newer.health ?? older.health,
    healthAt: newer.health ? newer.dateTime : (older.healthAt ?? (older.health ? older.dateTime : undefined)),
  };
}

/** Both lists' gateways once each, the older's first; mostly one gateway heard both frames. */
function unionOf(older: readonly string[] = [], newer: readonly string[] = []): string[] {
  if (!newer.length || (older.length === 1 && newer.length === 1 && older[0] === newer[0])) return [...older];
  if (!older.length) return [...newer];
  return [...new Set([...older, ...newer])];
}

/**
 * The newest reading of each device channel and sub-channel among those offered: per device, keyed
 * by channel and sub-channel as one number (no text key built per reading).
 */
export class NewestReadings {
  private byDevice = new Map<number, Map<number | string, Reading>>();

  offer(r: Reading): void {
    let channels = this.byDevice.get(r.deviceId);
    if (!channels) {
      channels = new Map();
      this.byDevice.set(r.deviceId, channels);
    }
    const key = channelKey(r);
    const before = channels.get(key);
    if (!before || before.dateTime.getTime() < r.dateTime.getTime()) channels.set(key, r);
  }

  get size(): number {
    return this.byDevice.size;
  }

  /** In the order their devices were first offered. */
  rows(): Reading[] {
    const rows: Reading[] = [];
    for (const channels of this.byDevice.values()) for (const r of channels.values()) rows.push(r);
    return rows;
  }

  /** Sorted by device, channel and sub-channel, so concurrent writers lock rows in one order. */
  sorted(): Reading[] {
    return this.rows().sort(byChannel);
  }

  clear(): void {
    this.byDevice.clear();
  }
}

/** A channel template id below 2³² and a sub-channel below 2²⁰ make one exact number; else a text. */
const channelKey = (r: Reading): number | string =>
  r.templateId >= 0 && r.templateId < 2 ** 32 && r.subChannel >= 0 && r.subChannel < 2 ** 20
    ? r.subChannel * 2 ** 32 + r.templateId
    : `${r.templateId}:${r.subChannel}`;

/** The sighting is at least as new as the one stored (status, time, signal and gateway follow it). */
const NEWER = sql.raw('device_connection_status.date_time <= excluded.date_time');
/** The status event is newer than the health stored (a status event may arrive after a newer uplink). */
const HEALTH_NEWER = sql.raw(
  '(excluded.health_at IS NOT NULL AND (device_connection_status.health_at IS NULL OR device_connection_status.health_at <= excluded.health_at))',
);

/** Orders latest rows by their key, so concurrent writers lock rows in one order. */
export const byChannel = (a: Reading, b: Reading) =>
  a.deviceId - b.deviceId || a.templateId - b.templateId || a.subChannel - b.subChannel;

/**
 * Latest values and connection status are written by one flusher, a moment after their readings
 * commit: concurrent batches would otherwise queue on the same rows' locks. They are derived data:
 * the readings, committed before the acknowledgement, remain the record.
 */
export class LatestWriter {
  private latestPending = new NewestReadings();
  private seenPending = new Map<number, DeviceSeen>();
  private delay = LATEST_DELAY_MS;
  /** The flush under way or waiting to start, if any. */
  pending: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
  ) {}

  keep(latestRows: readonly Reading[], seenRows: readonly DeviceSeen[]): void {
    for (const r of latestRows) this.latestPending.offer(r);
    for (const seen of seenRows)
      this.seenPending.set(seen.deviceId, mergeSeen(this.seenPending.get(seen.deviceId), seen));
    if (!this.pending)
      this.pending = new Promise((resolve) => setTimeout(resolve, this.delay)).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    const latestRows = this.latestPending.sorted();
    const seenRows = [...this.seenPending.values()].sort((a, b) => a.deviceId - b.deviceId);
    this.latestPending.clear();
    this.seenPending.clear();
    const started = performance.now();
    let failed: { latestRows: Reading[]; seenRows: DeviceSeen[] } | undefined;
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
          const healthAt = (r: DeviceSeen) => (r.health ? (r.healthAt ?? r.dateTime).toISOString() : null);
          await tx.execute(sql`
            INSERT INTO device_connection_status
              (account_id, device_id, status, date_time, rssi, snr, gateway_eui, battery_level, external_power, link_margin, health_at,
               gateway_euis)
            SELECT a, d, 'online', t, r, s, g, b, e, m, h, string_to_array(nullif(gs, ''), ',') FROM unnest(
              ${column(seenRows, (r) => r.accountId)}::bigint[], ${column(seenRows, (r) => r.deviceId)}::bigint[],
              ${column(seenRows, (r) => r.dateTime.toISOString())}::timestamptz[], ${column(seenRows, (r) => r.rssi)}::float8[],
              ${column(seenRows, (r) => r.snr)}::float8[], ${column(seenRows, (r) => r.gateway ?? null)}::text[],
              ${column(seenRows, (r) => r.health?.batteryLevel ?? null)}::float8[],
              ${column(seenRows, (r) => (r.health ? r.health.externalPower : null))}::boolean[],
              ${column(seenRows, (r) => r.health?.linkMargin ?? null)}::float8[],
              ${column(seenRows, healthAt)}::timestamptz[],
              ${column(seenRows, (r) => (r.gateways ?? []).join(','))}::text[]) AS u(a, d, t, r, s, g, b, e, m, h, gs)
            ON CONFLICT (device_id) DO UPDATE
              SET status = CASE WHEN ${NEWER} THEN 'online' ELSE device_connection_status.status END,
                  date_time = greatest(device_connection_status.date_time, excluded.date_time), updated_at = now(),
                  rssi = CASE WHEN ${NEWER} THEN coalesce(excluded.rssi, device_connection_status.rssi)
                              ELSE device_connection_status.rssi END,
                  snr = CASE WHEN ${NEWER} THEN coalesce(excluded.snr, device_connection_status.snr)
                             ELSE device_connection_status.snr END,
                  gateway_eui = CASE WHEN ${NEWER} THEN coalesce(excluded.gateway_eui, device_connection_status.gateway_eui)
                                     ELSE device_connection_status.gateway_eui END,
                  gateway_euis = CASE WHEN ${NEWER} THEN coalesce(excluded.gateway_euis, device_connection_status.gateway_euis)
                                      ELSE device_connection_status.gateway_euis END,
                  battery_level = CASE WHEN ${HEALTH_NEWER} THEN excluded.battery_level
                                       ELSE device_connection_status.battery_level END,
                  external_power = CASE WHEN ${HEALTH_NEWER} THEN excluded.external_power
                                        ELSE device_connection_status.external_power END,
                  link_margin = CASE WHEN ${HEALTH_NEWER} THEN excluded.link_margin
                                     ELSE device_connection_status.link_margin END,
                  health_at = CASE WHEN ${HEALTH_NEWER} THEN excluded.health_at ELSE device_connection_status.health_at END
              WHERE ${NEWER} OR ${HEALTH_NEWER}`);
          // Gateways are alive while they forward frames: online, last seen at the newest frame.
          const heard = new Map<string, Date>();
          for (const r of seenRows)
            for (const g of r.gateways ?? [])
              if (!(heard.get(g) && (heard.get(g) as Date) >= r.dateTime)) heard.set(g, r.dateTime);
          if (heard.size) {
            const gateways = [...heard].sort(([a], [b]) => a.localeCompare(b));
            await tx.execute(sql`
              UPDATE gateways SET status = 'online', last_seen_at = greatest(gateways.last_seen_at, u.t), updated_at = now()
              FROM unnest(${column(gateways, ([g]) => g)}::text[], ${column(gateways, ([, t]) => t.toISOString())}::timestamptz[]) AS u(g, t)
              WHERE lower(gateways.dev_eui) = u.g`);
          }
        }
      });
    } catch (error) {
      this.onError(error);
      // The database's condition (a deadlock between two replicas' flushes, a lost connection):
      // the rows wait for the next flush, merged with anything newer that came meanwhile.
      if (isTransientError(error)) failed = { latestRows, seenRows };
    } finally {
      const took = performance.now() - started;
      this.delay = Math.min(LATEST_DELAY_MAX_MS, Math.max(LATEST_DELAY_MS, 10 * took));
      // Tried again after a pause that doubles while the database stays away.
      if (failed) this.delay = Math.min(LATEST_DELAY_MAX_MS, Math.max(1000, 2 * this.delay));
      this.pending = undefined;
      if (failed) this.keep(failed.latestRows, failed.seenRows);
      else if (this.latestPending.size || this.seenPending.size) this.keep([], []);
    }
  }
}
