import type { AlarmFigures, AlarmReport, AlarmReportRow, alarmReportRequestSchema } from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { periodBounds } from '../data/time-zones.ts';
import type { Db } from '../db/connect.ts';
import { periodDays } from './report-period.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
type Request = z.output<typeof alarmReportRequestSchema>;

const GROUPS: Record<Request['groupBy'], { key: SQL; label: SQL; order: SQL }> = {
  level: {
    key: sql`coalesce(level, '')`,
    label: sql`coalesce(level, '')`,
    order: sql`CASE key WHEN 'high' THEN 0 WHEN 'medium' THEN 1 WHEN 'low' THEN 2 ELSE 3 END, key`,
  },
  device: {
    key: sql`coalesce(device_id::text, '')`,
    label: sql`coalesce(device_name, '')`,
    order: sql`raised DESC, label, key`,
  },
  region: {
    key: sql`coalesce(region_id::text, '')`,
    label: sql`coalesce(region_name, '')`,
    order: sql`raised DESC, label, key`,
  },
  day: {
    key: sql`to_char(raised_local, 'YYYY-MM-DD')`,
    label: sql`to_char(raised_local, 'YYYY-MM-DD')`,
    order: sql`key`,
  },
};

/**
 * Counts and mean times over a group of alarm rows: MTTA is the mean of (acknowledged − raised) over
 * the alarms acknowledged, MTTC the mean of (cleared − raised) over those cleared, in minutes.
 */
const FIGURES = sql`
  count(*)::int AS raised,
  count(*) FILTER (WHERE is_active)::int AS active,
  count(acknowledged_at)::int AS acknowledged,
  count(cleared_at)::int AS cleared,
  (avg(extract(epoch FROM acknowledged_at - raised_at)) / 60)::float8 AS "mttaMinutes",
  (avg(extract(epoch FROM cleared_at - raised_at)) / 60)::float8 AS "mttcMinutes"`;

/**
 * The alarm report: the alarms `scope` (on alert_logs) lets the caller see, raised in `from … to`
 * (days of the account's calendar, `zone`), grouped by level, device, region or day, paged, with
 * totals and a per-day (or month) series by level, days and months as the account's. One pass of the database over the period's alarms (indexed by account and time);
 * only groups come back.
 */
export async function alarmReport(db: Db, scope: SQL, request: Request, zone: string): Promise<AlarmReport> {
  const group = GROUPS[request.groupBy];
  const { from, to } = request;
  const period = periodBounds(from, to, zone);
  const level = request.level ?? null;
  const regionId = request.regionId ?? null;
  const deviceId = request.deviceId ?? null;
  const alarms = sql`
    SELECT alert_logs.id, alert_logs.alert_level AS level, alert_logs.date_time AS raised_at,
           alert_logs.date_time AT TIME ZONE ${zone} AS raised_local,
           alert_logs.acknowledged_at, alert_logs.cleared_at, alert_logs.is_active, alert_logs.device_id,
           d.name AS device_name, coalesce(d.region_id, alert_logs.region_id) AS region_id, g.name AS region_name
    FROM alert_logs
    LEFT JOIN devices d ON d.id = alert_logs.device_id
    LEFT JOIN regions g ON g.id = coalesce(d.region_id, alert_logs.region_id)
    WHERE ${scope}
      AND alert_logs.date_time >= ${period.start} AND alert_logs.date_time < ${period.end}
      AND (${level}::text IS NULL OR alert_logs.alert_level = ${level}::text)
      AND (${deviceId}::bigint IS NULL OR alert_logs.device_id = ${deviceId}::bigint)
      AND (${regionId}::bigint IS NULL OR coalesce(d.region_id, alert_logs.region_id) = ${regionId}::bigint)`;

  const grouped = rowsOf<AlarmReportRow & { isTotal: number; total: number }>(
    await db.execute(sql`
      WITH a AS (${alarms}),
      grouped AS (
        SELECT ${group.key} AS key, ${group.label} AS label, GROUPING(${group.key}, ${group.label}) AS "isTotal", ${FIGURES}
        FROM a
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

  const bucket = periodDays(from, to) > 62 ? 'month' : 'day';
  const series = rowsOf<{ bucket: string; low: number; medium: number; high: number; other: number }>(
    await db.execute(sql`
      WITH a AS (${alarms})
      SELECT to_char(raised_local, ${bucket === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM'}) AS bucket,
             count(*) FILTER (WHERE level = 'low')::int AS low,
             count(*) FILTER (WHERE level = 'medium')::int AS medium,
             count(*) FILTER (WHERE level = 'high')::int AS high,
             count(*) FILTER (WHERE level IS NULL OR level NOT IN ('low', 'medium', 'high'))::int AS other
      FROM a GROUP BY 1 ORDER BY 1`),
  );
  const figures = (r: Partial<AlarmFigures> | undefined): AlarmFigures => ({
    raised: r?.raised ?? 0,
    active: r?.active ?? 0,
    acknowledged: r?.acknowledged ?? 0,
    cleared: r?.cleared ?? 0,
    mttaMinutes: r?.mttaMinutes ?? null,
    mttcMinutes: r?.mttcMinutes ?? null,
  });
  return {
    rows: rows.map((r) => ({ key: r.key, label: r.label, ...figures(r) })),
    totalRows: rows[0]?.total ?? 0,
    totals: figures(totals),
    series: fillBuckets(series, from, to, bucket),
    bucket,
  };
}

/** Every day (or month) of the period, with zeros where nothing was raised, so the chart's axis is the period. */
function fillBuckets<T extends { bucket: string }>(
  rows: T[],
  from: string,
  to: string,
  bucket: 'day' | 'month',
): (T | { bucket: string; low: number; medium: number; high: number; other: number })[] {
  const byBucket = new Map(rows.map((r) => [r.bucket, r]));
  const out: (T | { bucket: string; low: number; medium: number; high: number; other: number })[] = [];
  const cursor = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  if (bucket === 'month') cursor.setUTCDate(1);
  while (cursor <= end) {
    const key = cursor.toISOString().slice(0, bucket === 'day' ? 10 : 7);
    out.push(byBucket.get(key) ?? { bucket: key, low: 0, medium: 0, high: 0, other: 0 });
    if (bucket === 'day') cursor.setUTCDate(cursor.getUTCDate() + 1);
    else cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return out;
}
