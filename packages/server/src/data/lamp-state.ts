import { type DeviceLampState, LAMP_BURNING_WATTS, LAMP_FAILURE_SHARE, type StreetCount } from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Alarm kinds that say a device or its gateway is silent, not that its lamp is broken. */
const SILENCE_KINDS = sql`('nodeLoss', 'gatewayLoss')`;

/**
 * The lamp state of every device `scope` (an account scope over `devices`) and `where` select, as
 * a query with one row per device: `device_id, street, latitude, longitude, lamp, dim, power, state`. The
 * one definition of LAMP_STATES (contract lamp-state.ts): every screen, count and filter reads it.
 * The latest lamp, dim and power readings come from `device_lamp_values` (one row per device, kept
 * from `channel_values` by the database: the newest reading among the device's channels of each
 * code), the connection from `device_connection_status`, open faults from active alarms other than
 * silence, open fault reports and the installation status.
 */
export function lampStateQuery(scope: SQL, where: SQL = sql`true`): SQL {
  return sql`
    WITH chosen AS (
      SELECT devices.id, devices.street, devices.latitude, devices.longitude, devices.status AS installation,
             devices.device_type_model_id,
             coalesce(devices.rated_power, m.rated_power) AS rated
      FROM devices JOIN device_models m ON m.id = devices.device_type_model_id
      WHERE ${scope} AND ${where}
    ),
    open_faults AS (
      SELECT a.device_id FROM alert_logs a
      WHERE a.is_active AND a.kind NOT IN ${SILENCE_KINDS} AND a.device_id IN (SELECT id FROM chosen)
      UNION
      SELECT f.device_id FROM fault_reports f
      WHERE f.status IN ('open', 'in_progress') AND f.device_id IN (SELECT id FROM chosen)
    ),
    levels AS (
      SELECT c.id AS device_id, c.street, c.latitude, c.longitude, c.installation, c.rated, l.lamp, l.dim, l.power, s.status AS connection,
             -- The commanded light level now: 0 off, else the dim level (full when the device has none).
             CASE WHEN l.lamp IS NULL AND l.dim IS NULL THEN NULL
                  WHEN l.lamp = 0 THEN 0
                  ELSE coalesce(l.dim, 100) END AS level,
             f.device_id IS NOT NULL AS has_fault
      FROM chosen c
      LEFT JOIN device_lamp_values l ON l.device_id = c.id
      LEFT JOIN device_connection_status s ON s.device_id = c.id
      -- One row per device: UNION leaves each faulty device once.
      LEFT JOIN open_faults f ON f.device_id = c.id
    )
    SELECT device_id, street, latitude, longitude, lamp, dim, power,
      CASE
        WHEN has_fault OR installation = 'faulty' THEN 'fault'
        WHEN connection = 'offline' THEN 'offline'
        WHEN level > 0 AND power IS NOT NULL AND (
               CASE WHEN rated > 0 THEN power < ${LAMP_FAILURE_SHARE} * rated * level / 100.0
                    ELSE power <= ${LAMP_BURNING_WATTS} END) THEN 'fault'
        WHEN level IS NULL AND power IS NULL THEN 'unknown'
        WHEN level IS NULL THEN CASE WHEN power > ${LAMP_BURNING_WATTS} THEN 'on' ELSE 'off' END
        WHEN level <= 0 THEN 'off'
        WHEN level < 100 THEN 'dimmed'
        ELSE 'on'
      END AS state
    FROM levels`;
}

/** The lamp states of the devices a scope and an optional filter select, by device id. */
export async function lampStates(db: Db, scope: SQL, where?: SQL): Promise<DeviceLampState[]> {
  return rowsOf<DeviceLampState>(
    await db.execute(sql`
      SELECT device_id::int AS "deviceId", state, lamp, dim, power, street
      FROM (${lampStateQuery(scope, where)}) states
      ORDER BY device_id`),
  );
}

/** How many devices are in each lamp state, and the sum of their latest power readings (W). */
export async function lampStateCounts(
  db: Db,
  scope: SQL,
  where?: SQL,
): Promise<{ counts: Record<string, number>; powerW: number }> {
  const rows = rowsOf<{ state: string; devices: number; power: number | null }>(
    await db.execute(sql`
      SELECT state, count(*)::int AS devices, (sum(power) FILTER (WHERE state <> 'offline'))::float8 AS power
      FROM (${lampStateQuery(scope, where)}) states
      GROUP BY state`),
  );
  return {
    counts: Object.fromEntries(rows.map((r) => [r.state, r.devices])),
    powerW: rows.reduce((total, r) => total + (r.power ?? 0), 0),
  };
}

/** The distinct streets of the devices a scope selects, with their device counts, by name. */
export async function streets(db: Db, scope: SQL): Promise<StreetCount[]> {
  return rowsOf<StreetCount>(
    await db.execute(sql`
      SELECT btrim(devices.street) AS street, count(*)::int AS devices
      FROM devices
      WHERE ${scope} AND devices.street IS NOT NULL AND btrim(devices.street) <> ''
      GROUP BY btrim(devices.street)
      ORDER BY btrim(devices.street)
      LIMIT 5000`),
  );
}
