import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { authLimits } from '../db/schema/index.ts';

/**
 * Limits on the sign-in routes, kept in the database (`auth_limits`) so every replica counts the
 * same attempts. Two kinds:
 * - a fixed window per key (`hit`): at most `max` calls per `windowSeconds`, e.g. per address;
 * - a backoff per e-mail after failed sign-ins (`recordFailure`): from the FREE_FAILURES-th
 *   failure on, each failure blocks the e-mail for 1, 2, 4 … seconds, at most
 *   MAX_BACKOFF_SECONDS. An attacker cannot lock the owner out for longer than that after their
 *   last try, and a quiet hour (or a successful sign-in) forgets the failures.
 */
export const FREE_FAILURES = 5;
export const MAX_BACKOFF_SECONDS = 300;
const FAILURE_MEMORY_SECONDS = 3600;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Counts one call under `key`; false when it is over `max` in the current window. */
export async function hit(db: Db, key: string, max: number, windowSeconds: number): Promise<boolean> {
  const result = await db.execute(sql`
    INSERT INTO auth_limits (key, hits, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN auth_limits.window_start <= now() - ${windowSeconds} * interval '1 second'
        THEN 1 ELSE auth_limits.hits + 1 END,
      window_start = CASE WHEN auth_limits.window_start <= now() - ${windowSeconds} * interval '1 second'
        THEN now() ELSE auth_limits.window_start END
    RETURNING hits`);
  const hits = Number(rowsOf<{ hits: number }>(result)[0]?.hits ?? 0);
  if (Math.random() < 0.005) await pruneLimits(db);
  return hits <= max;
}

/** Whether `key` is still under `max` calls in its current window, without counting one. */
export async function under(db: Db, key: string, max: number, windowSeconds: number): Promise<boolean> {
  const result = await db.execute(sql`
    SELECT hits FROM auth_limits
    WHERE key = ${key} AND window_start > now() - ${windowSeconds} * interval '1 second'`);
  return Number(rowsOf<{ hits: number }>(result)[0]?.hits ?? 0) < max;
}

/** Seconds the key is still blocked for (0: not blocked). */
export async function blockedFor(db: Db, key: string): Promise<number> {
  const result = await db.execute(sql`
    SELECT ceil(extract(epoch FROM blocked_until - now()))::int AS seconds
    FROM auth_limits WHERE key = ${key} AND blocked_until > now()`);
  return Math.max(0, Number(rowsOf<{ seconds: number }>(result)[0]?.seconds ?? 0));
}

/** Counts a failure under `key` (`window_start` is the last failure) and sets its backoff. */
export async function recordFailure(db: Db, key: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO auth_limits (key, hits, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN auth_limits.window_start <= now() - ${FAILURE_MEMORY_SECONDS} * interval '1 second'
        THEN 1 ELSE auth_limits.hits + 1 END,
      window_start = now()`);
  await db.execute(sql`
    UPDATE auth_limits SET blocked_until = now() + least(
      power(2, hits - ${FREE_FAILURES}), ${MAX_BACKOFF_SECONDS}) * interval '1 second'
    WHERE key = ${key} AND hits >= ${FREE_FAILURES}`);
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(authLimits).where(eq(authLimits.key, key));
}

/** Forgets windows and backoffs that ended long ago, so the table stays small. */
export async function pruneLimits(db: Db): Promise<void> {
  await db.execute(sql`
    DELETE FROM auth_limits WHERE window_start < now() - interval '1 day'
      AND (blocked_until IS NULL OR blocked_until < now())`);
}
