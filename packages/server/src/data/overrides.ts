import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';

const rowsOf = <T = Record<string, unknown>>(result: unknown) => (result as { rows: T[] }).rows;

export interface ActiveOverride {
  id: number;
  level: number;
  until: Date;
  reason: string;
}

/**
 * The overrides holding a device at an instant, newest first (the newest wins): made, not
 * cancelled, and not yet at their `until`. For the scheduler's plan (server-timed devices) and the
 * console; a deployed controller keeps its own copy and drops it at `until` by itself.
 */
export async function activeOverrides(db: Db, deviceId: number, at: Date): Promise<ActiveOverride[]> {
  const rows = rowsOf<{ id: number; level: number; until: string | Date; reason: string }>(
    await db.execute(sql`
      SELECT id::int AS id, level, until, reason FROM overrides
      WHERE status = 'active' AND until > ${at.toISOString()}::timestamptz AND created_at <= ${at.toISOString()}::timestamptz
        AND device_ids @> ${JSON.stringify([deviceId])}::jsonb
      ORDER BY created_at DESC, id DESC`),
  );
  return rows.map((r) => ({ id: r.id, level: r.level, until: new Date(r.until), reason: r.reason }));
}

/** Marks overrides past their time expired; returns them (for the live stream and the log). */
export async function expireOverrides(db: Db, now: Date): Promise<{ id: number; accountId: number }[]> {
  return rowsOf<{ id: number; accountId: number }>(
    await db.execute(sql`
      UPDATE overrides SET status = 'expired', updated_at = now()
      WHERE status = 'active' AND until <= ${now.toISOString()}::timestamptz
      RETURNING id::int AS id, account_id::int AS "accountId"`),
  );
}
