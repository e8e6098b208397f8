import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import type { Leadership } from '../scheduler/leadership.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const DAY_MS = 86_400_000;
/** Rows deleted per statement: each delete is a short transaction that never holds the ingest up. */
export const RETENTION_BATCH = 5000;
/** Months of readings partitions made ahead of the current one. */
export const PARTITIONS_AHEAD = 2;
/** A partition is named after its month: `channel_read_values_2026_11`. */
const PARTITION_NAME = /^channel_read_values_(\d{4})_(\d{2})$/;

export interface RetentionResult {
  /** Partitions of the current month and the ones ahead, made sure of. */
  partitionsAhead: string[];
  /** Whole monthly partitions dropped: every reading in them is older than the longest retention. */
  partitionsDropped: string[];
  dataLogs: number;
  systemLogs: number;
  notifications: number;
}

/**
 * The data lifecycle, once: the readings partitions of this month and the next ones are created
 * ahead; a readings partition whose month ended before the longest retention of the active System
 * Log Settings is dropped whole (partitions hold every account's readings, so no account loses
 * readings before its own retention; readings are never deleted row by row); data logs, system
 * logs and finished notifications (sent or given up) older than their account's retention (its own
 * active settings, the longest of them; else the longest anywhere) are deleted in batches. With no
 * active setting at all, nothing is dropped or deleted.
 */
export async function runRetention(db: Db, now: Date = new Date()): Promise<RetentionResult> {
  const result: RetentionResult = {
    partitionsAhead: [],
    partitionsDropped: [],
    dataLogs: 0,
    systemLogs: 0,
    notifications: 0,
  };
  for (let ahead = 0; ahead <= PARTITIONS_AHEAD; ahead++) {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
    const made = rowsOf<{ name: string }>(
      await db.execute(sql`SELECT lampyr_ensure_reading_partition(${month.toISOString()}::timestamptz) AS name`),
    );
    result.partitionsAhead.push(String(made[0]?.name));
  }

  const retention = rowsOf<{ account_id: number; days: number | null }>(
    await db.execute(sql`
      WITH own AS (
        SELECT account_id, max(retention_days) AS days FROM system_log_settings
        WHERE is_active AND retention_days > 0 GROUP BY account_id
      )
      SELECT a.id::int AS account_id,
             coalesce((SELECT days FROM own WHERE own.account_id = a.id), (SELECT max(days) FROM own))::int AS days
      FROM accounts a`),
  );
  const longest = Math.max(0, ...retention.map((r) => r.days ?? 0));
  if (longest > 0) {
    const cutoff = now.getTime() - longest * DAY_MS;
    const partitions = rowsOf<{ name: string }>(
      await db.execute(sql`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'channel_read_values'::regclass ORDER BY c.relname`),
    );
    for (const { name } of partitions) {
      const match = PARTITION_NAME.exec(name);
      if (!match) continue;
      const end = Date.UTC(Number(match[1]), Number(match[2]), 1); // the first moment of the next month
      if (end > cutoff) continue;
      // A short lock wait: behind a long reader, the drop waits for the next run rather than stall the ingest.
      await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL lock_timeout = '5s'`);
        await tx.execute(sql.raw(`DROP TABLE IF EXISTS "${name}"`));
      });
      result.partitionsDropped.push(name);
    }
  }

  for (const { account_id: accountId, days } of retention) {
    if (!days) continue;
    const before = new Date(now.getTime() - days * DAY_MS).toISOString();
    result.dataLogs += await deleteInBatches(
      db,
      sql`SELECT id FROM data_logs WHERE account_id = ${accountId} AND created_at < ${before}::timestamptz LIMIT ${RETENTION_BATCH}`,
      sql`data_logs`,
    );
    result.systemLogs += await deleteInBatches(
      db,
      sql`SELECT id FROM system_logs WHERE account_id = ${accountId} AND created_at < ${before}::timestamptz LIMIT ${RETENTION_BATCH}`,
      sql`system_logs`,
    );
    // Notifications still to be sent (queued, or failed and due again) are kept whatever their age.
    result.notifications += await deleteInBatches(
      db,
      sql`SELECT id FROM alert_notification_list WHERE account_id = ${accountId} AND date_time < ${before}::timestamptz
            AND coalesce(status, '') NOT IN ('queued', 'failed') LIMIT ${RETENTION_BATCH}`,
      sql`alert_notification_list`,
    );
  }
  return result;
}

async function deleteInBatches(db: Db, select: ReturnType<typeof sql>, table: ReturnType<typeof sql>) {
  let total = 0;
  for (;;) {
    const deleted = rowsOf<{ n: number }>(
      await db.execute(sql`WITH gone AS (DELETE FROM ${table} WHERE id IN (${select}) RETURNING 1)
        SELECT count(*)::int AS n FROM gone`),
    );
    const n = Number(deleted[0]?.n ?? 0);
    total += n;
    if (n < RETENTION_BATCH) return total;
  }
}

/**
 * Runs the retention now and every `everyMs` (default hourly). Meant for the engines' leader only
 * (one replica), like the energy rollup; a run still under way is not started twice.
 */
export class RetentionEngine {
  private timer?: NodeJS.Timeout;
  private running?: Promise<RetentionResult>;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly now: () => Date = () => new Date(),
    private readonly onRun: (result: RetentionResult) => void = () => {},
  ) {}

  /** Runs now and every `everyMs`; with a leadership, only while this replica leads. */
  start(leadership?: Leadership, everyMs = 60 * 60_000): () => void {
    const run = async () => {
      if (leadership && !(await leadership.isLeader())) return;
      await this.tick();
    };
    run().catch(this.onError);
    this.timer = setInterval(() => run().catch(this.onError), everyMs);
    this.timer.unref();
    return () => clearInterval(this.timer);
  }

  tick(): Promise<RetentionResult> {
    this.running ??= runRetention(this.db, this.now())
      .then((result) => {
        this.onRun(result);
        return result;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
