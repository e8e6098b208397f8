import type { AssetFigures, AssetReport, AssetReportRow, assetReportRequestSchema } from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { periodBounds } from '../data/time-zones.ts';
import type { Db } from '../db/connect.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
type Request = z.output<typeof assetReportRequestSchema>;

/** Age bands (years since the device was registered); their keys are translated by the console and exports. */
const AGE_BAND = sql`CASE WHEN age < 1 THEN 'lt1' WHEN age < 3 THEN '1to3' WHEN age < 5 THEN '3to5' ELSE 'ge5' END`;

const GROUPS: Record<Request['groupBy'], { key: SQL; label: SQL; order: SQL }> = {
  model: {
    key: sql`coalesce(device_type_model_id::text, '')`,
    label: sql`coalesce(model_name, '')`,
    order: sql`devices DESC, label, key`,
  },
  status: { key: sql`coalesce(status, '')`, label: sql`coalesce(status, '')`, order: sql`devices DESC, key` },
  region: {
    key: sql`coalesce(region_id::text, '')`,
    label: sql`coalesce(region_name, '')`,
    order: sql`devices DESC, label, key`,
  },
  age: {
    key: AGE_BAND,
    label: AGE_BAND,
    order: sql`CASE key WHEN 'lt1' THEN 0 WHEN '1to3' THEN 1 WHEN '3to5' THEN 2 ELSE 3 END`,
  },
};

/** A battery below this share (%) counts as low. */
export const LOW_BATTERY_PCT = 20;

const FIGURES = sql`
  count(*)::int AS devices,
  count(*) FILTER (WHERE connection = 'online')::int AS online,
  (100.0 * count(*) FILTER (WHERE connection = 'online') / nullif(count(*), 0))::float8 AS "onlinePct",
  coalesce(sum(faults), 0)::int AS faults,
  coalesce(sum(alarms), 0)::int AS alarms,
  avg(battery_level)::float8 AS "batteryAvg",
  count(*) FILTER (WHERE battery_level < ${LOW_BATTERY_PCT})::int AS "lowBattery",
  count(*) FILTER (WHERE external_power)::int AS "externalPower",
  avg(link_margin)::float8 AS "linkMarginAvg",
  avg(age)::float8 AS "ageYears"`;

/**
 * The device-asset report: the inventory `scope` (on devices) lets the caller see, grouped by model,
 * installation status, region or age, with the share online now, the fault reports and alarms of
 * `from … to` (days of the account's calendar, `zone`), and the health the network server reported (battery, external power, link margin).
 * Faults and alarms are counted per device in the database first; only groups come back.
 */
export async function assetReport(
  db: Db,
  scope: SQL,
  request: Request,
  zone: string,
  now: Date = new Date(),
): Promise<AssetReport> {
  const group = GROUPS[request.groupBy];
  const period = periodBounds(request.from, request.to, zone);
  const regionId = request.regionId ?? null;
  const modelId = request.deviceTypeModelId ?? null;
  const status = request.status ?? null;
  const grouped = rowsOf<AssetReportRow & { isTotal: number; total: number }>(
    await db.execute(sql`
      WITH visible AS (
        SELECT devices.id, devices.status, devices.region_id, devices.device_type_model_id, devices.created_at
        FROM devices
        WHERE ${scope}
          AND (${regionId}::bigint IS NULL OR devices.region_id = ${regionId}::bigint)
          AND (${modelId}::bigint IS NULL OR devices.device_type_model_id = ${modelId}::bigint)
          AND (${status}::text IS NULL OR devices.status = ${status}::text)
      ),
      faults AS (
        SELECT device_id, count(*) AS n FROM fault_reports
        WHERE device_id IN (SELECT id FROM visible) AND reported_at >= ${period.start} AND reported_at < ${period.end}
        GROUP BY device_id
      ),
      alarms AS (
        SELECT device_id, count(*) AS n FROM alert_logs
        WHERE device_id IN (SELECT id FROM visible) AND date_time >= ${period.start} AND date_time < ${period.end}
        GROUP BY device_id
      ),
      joined AS (
        SELECT v.*, m.model_name, g.name AS region_name, c.status AS connection, c.battery_level, c.external_power,
               c.link_margin, f.n AS faults, a.n AS alarms,
               extract(epoch FROM ${now.toISOString()}::timestamptz - v.created_at) / 31557600 AS age
        FROM visible v
        LEFT JOIN device_models m ON m.id = v.device_type_model_id
        LEFT JOIN regions g ON g.id = v.region_id
        LEFT JOIN device_connection_status c ON c.device_id = v.id
        LEFT JOIN faults f ON f.device_id = v.id
        LEFT JOIN alarms a ON a.device_id = v.id
      ),
      grouped AS (
        SELECT ${group.key} AS key, ${group.label} AS label, GROUPING(${group.key}, ${group.label}) AS "isTotal", ${FIGURES}
        FROM joined
        GROUP BY GROUPING SETS ((1, 2), ())
      )
      SELECT *, 0 AS total FROM grouped WHERE "isTotal" <> 0
      UNION ALL
      (SELECT *, count(*) OVER ()::int AS total FROM grouped WHERE "isTotal" = 0
       ORDER BY ${group.order}
       LIMIT ${request.size} OFFSET ${request.page * request.size})`),
  );
  const totals = grouped.find((r) => r.isTotal !== 0);
  const rows = grouped.filter((r) => r.isTotal === 0);
  const figures = (r: Partial<AssetFigures> | undefined): AssetFigures => ({
    devices: r?.devices ?? 0,
    online: r?.online ?? 0,
    onlinePct: r?.onlinePct ?? null,
    faults: r?.faults ?? 0,
    alarms: r?.alarms ?? 0,
    batteryAvg: r?.batteryAvg ?? null,
    lowBattery: r?.lowBattery ?? 0,
    externalPower: r?.externalPower ?? 0,
    linkMarginAvg: r?.linkMarginAvg ?? null,
    ageYears: r?.ageYears ?? null,
  });
  return {
    rows: rows.map((r) => ({ key: r.key, label: r.label, ...figures(r) })),
    totalRows: rows[0]?.total ?? 0,
    totals: figures(totals),
  };
}
