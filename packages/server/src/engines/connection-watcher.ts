import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import type { LiveEvent, LiveEvents } from '../events/live-events.ts';
import type { Leadership } from './scheduler/leadership.ts';

/** Minutes of silence after which a device with neither a node-loss setting nor a sleep time is offline. */
export const DEFAULT_SILENCE_MINUTES = 15;
/** Reports a device may miss (at its sleep time) before it counts as offline. */
export const MISSED_REPORTS = 3;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/**
 * Marks online devices offline once they have been silent too long: their active node-loss
 * setting's heartbeat threshold (minutes) when they have one, else three of their sleep times,
 * else a quarter of an hour. Their next uplink brings them back online (the batch writer). Each
 * change goes out on the live stream. Idempotent, so every ingest worker may run it.
 */
export class ConnectionWatcher {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly db: Db,
    private readonly live: LiveEvents,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Sweeps every `everyMs`; with a leadership, only while this replica leads. */
  start(everyMs: number, leadership?: Leadership): () => void {
    this.timer = setInterval(() => {
      const run = async () => {
        if (leadership && !(await leadership.isLeader())) return;
        await this.sweep();
      };
      run().catch(this.onError);
    }, everyMs);
    this.timer.unref();
    return () => clearInterval(this.timer);
  }

  /** One pass; resolves with how many devices went offline. */
  sweep(): Promise<number> {
    this.running ??= this.markSilentOffline().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async markSilentOffline(): Promise<number> {
    const changed = rowsOf(
      await this.db.execute(sql`
        UPDATE device_connection_status s SET status = 'offline', updated_at = now()
        FROM devices d
        WHERE s.device_id = d.id AND s.status = 'online'
          AND s.date_time < now() - make_interval(mins => coalesce(
            (SELECT min(n.heartbeat_threshold) FROM device_node_loss_settings n
              WHERE n.device_id = d.id AND n.is_active),
            d.sleep_time * ${MISSED_REPORTS},
            ${DEFAULT_SILENCE_MINUTES}))
        RETURNING s.account_id, s.device_id, s.date_time, s.rssi, s.snr`),
    );
    const byAccount = new Map<number, LiveEvent[]>();
    for (const row of changed) {
      const accountId = Number(row.account_id);
      const events = byAccount.get(accountId) ?? [];
      byAccount.set(accountId, events);
      events.push({
        type: 'status',
        deviceId: Number(row.device_id),
        status: 'offline',
        dateTime: new Date(row.date_time as string | Date).toISOString(),
        rssi: row.rssi === null ? null : Number(row.rssi),
        snr: row.snr === null ? null : Number(row.snr),
      });
    }
    for (const [accountId, events] of byAccount) this.live.publish(accountId, events);
    await this.markSilentGatewaysOffline();
    return changed.length;
  }

  /**
   * A gateway is online while it forwards frames (the batch writer marks it so); silent for three
   * of its stats intervals, and at least a quarter of an hour (street lights report every few
   * minutes), it is offline.
   */
  private async markSilentGatewaysOffline(): Promise<void> {
    await this.db.execute(sql`
      UPDATE gateways SET status = 'offline', updated_at = now()
      WHERE status = 'online' AND last_seen_at < now() - make_interval(secs => greatest(
        coalesce(stats_interval, 30) * ${MISSED_REPORTS}, ${DEFAULT_SILENCE_MINUTES * 60}))`);
  }
}
