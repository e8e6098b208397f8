import { isTimeZone } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from './resource-repository.ts';

/** The zone of a place whose city and country name none. */
export const FALLBACK_TIME_ZONE = 'UTC';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The calendar an account counts its days in (report periods and their days, scheduled reports'
 * weeks and months, energy rollups' lighting days, the dashboard's today): the zone set on the
 * account; else the zone of the city most of its regions are in (the city's own, else its
 * country's); else UTC. A stored value that is not a zone the runtime knows is passed over, so a
 * bad setting shifts the days rather than failing the report.
 */
export async function accountTimeZones(db: Executor, accountIds: readonly number[]): Promise<Map<number, string>> {
  const zones = new Map<number, string>();
  if (!accountIds.length) return zones;
  const candidates = rowsOf<{ id: number; own: string | null; city: string | null }>(
    await db.execute(sql`
      SELECT a.id::int AS id, nullif(trim(a.time_zone), '') AS own,
        (SELECT coalesce(nullif(c.time_zone, ''), nullif(k.time_zone, ''))
         FROM regions r JOIN cities c ON c.id = r.city_id LEFT JOIN countries k ON k.id = c.country_id
         WHERE r.account_id = a.id AND coalesce(nullif(c.time_zone, ''), nullif(k.time_zone, '')) IS NOT NULL
         GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS city
      FROM accounts a WHERE a.id = ANY(${`{${accountIds.map(Number).join(',')}}`}::bigint[])`),
  );
  for (const row of candidates) {
    const zone = [row.own, row.city].find((z): z is string => typeof z === 'string' && isTimeZone(z));
    zones.set(row.id, zone ?? FALLBACK_TIME_ZONE);
  }
  for (const id of accountIds) if (!zones.has(id)) zones.set(id, FALLBACK_TIME_ZONE);
  return zones;
}

/** One account's calendar zone (accountTimeZones). */
export async function accountTimeZone(db: Executor, accountId: number): Promise<string> {
  return (await accountTimeZones(db, [accountId])).get(accountId) ?? FALLBACK_TIME_ZONE;
}

/**
 * SQL bounds of the days `from … to` (both included) of a zone's calendar: `[start, end)` as
 * timestamptz, for `column >= start AND column < end`.
 */
export function periodBounds(from: string, to: string, zone: string) {
  return {
    start: sql`(${from}::date::timestamp AT TIME ZONE ${zone})`,
    end: sql`((${to}::date + 1)::timestamp AT TIME ZONE ${zone})`,
  };
}
