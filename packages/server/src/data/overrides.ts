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

/**
 * The overrides of these devices that overlap `from … until`, each over the time it held (from when
 * it was made to its `until`, or to when it was cancelled), per device: what the plan of those nights
 * takes as input.
 */
export async function overridesForPlan(
  db: Db,
  deviceIds: readonly number[],
  from: Date,
  until: Date,
): Promise<Map<number, { from: Date; until: Date; level: number }[]>> {
  const byDevice = new Map<number, { from: Date; until: Date; level: number }[]>();
  if (deviceIds.length === 0) return byDevice;
  const rows = rowsOf<{ device_id: number; created_at: string | Date; until: string | Date; level: number }>(
    await db.execute(sql`
      SELECT d.id::int AS device_id, o.created_at, least(o.until, coalesce(o.cancelled_at, o.until)) AS until, o.level
      FROM overrides o
      CROSS JOIN LATERAL jsonb_array_elements_text(o.device_ids) AS d(id)
      WHERE o.created_at < ${until.toISOString()}::timestamptz
        AND least(o.until, coalesce(o.cancelled_at, o.until)) > ${from.toISOString()}::timestamptz
        AND d.id::bigint = ANY(${`{${deviceIds.join(',')}}`}::bigint[])
      ORDER BY o.created_at`),
  );
  for (const r of rows) {
    const list = byDevice.get(r.device_id) ?? [];
    list.push({ from: new Date(r.created_at), until: new Date(r.until), level: Number(r.level) });
    byDevice.set(r.device_id, list);
  }
  return byDevice;
}
