import type { EnergyFigures, EnergyReport, EnergyReportRow, energyReportRequestSchema } from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/connect.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
type Request = z.output<typeof energyReportRequestSchema>;

/** Longer periods are charted by month. */
const DAILY_SERIES_DAYS = 62;

const GROUPS: Record<Request['groupBy'], { key: SQL; label: SQL }> = {
  device: { key: sql`device_id::text`, label: sql`device_name` },
  street: { key: sql`coalesce(street, '')`, label: sql`coalesce(street, '')` },
  region: { key: sql`coalesce(region_id::text, '')`, label: sql`coalesce(region_name, '')` },
  account: { key: sql`account_id::text`, label: sql`account_name` },
};

const SORTS: Record<Request['sort'], SQL> = {
  energyKwh: sql`"energyKwh" DESC`,
  savingsKwh: sql`"savingsKwh" DESC NULLS LAST`,
  savingsPct: sql`"savingsPct" DESC NULLS LAST`,
  label: sql`label ASC`,
};

/**
 * The figures over rows that each carry `energy`, `baseline`, `energy_with_baseline`, `burn`,
 * `tariff` and `factor`. Savings count the energy of device-days with a baseline only, so a device
 * without a rated power neither saves everything nor nothing; money and CO₂ use each device's own
 * account's tariff and emission factor (null where unset).
 */
const FIGURES = sql`
  sum(energy)::float8 AS "energyKwh",
  sum(baseline)::float8 AS "baselineKwh",
  (sum(baseline) - sum(energy_with_baseline))::float8 AS "savingsKwh",
  CASE WHEN sum(baseline) > 0 THEN (100 * (sum(baseline) - sum(energy_with_baseline)) / sum(baseline))::float8 END
    AS "savingsPct",
  sum((baseline - energy_with_baseline) * tariff)::float8 AS money,
  sum((baseline - energy_with_baseline) * factor)::float8 AS "co2Kg",
  coalesce(sum(burn), 0)::float8 AS "burnHours"`;

/**
 * The energy report: sums of the daily rollups (never readings) of the devices `scope` lets the
 * caller see, over `from … to`, grouped, paged, with totals and a day or month series. Two
 * statements, each one pass over the period's rollups: the rollups are summed per device first
 * (a year of 10,000 devices is 3.65 million rows, 10,000 after), and only those sums are joined
 * to names and grouped.
 */
export async function energyReport(db: Db, scope: SQL, request: Request): Promise<EnergyReport> {
  const group = GROUPS[request.groupBy];
  const visible = sql`
    SELECT devices.id, devices.name, devices.street, devices.region_id, devices.account_id FROM devices
    WHERE ${scope}
      AND (${request.regionId ?? null}::bigint IS NULL OR devices.region_id = ${request.regionId ?? null}::bigint)
      AND (${request.street ?? null}::text IS NULL OR devices.street = ${request.street ?? null}::text)
      AND (${request.deviceId ?? null}::bigint IS NULL OR devices.id = ${request.deviceId ?? null}::bigint)`;
  const { from, to } = request;
  const [fullFrom, fullTo] = wholeMonths(from, to);
  /**
   * One row per device and month the period covers whole (from `energy_monthly`) or per device and
   * day at its edges (from `energy_daily`), with the same columns.
   */
  const facts = sql`
    SELECT m.device_id, m.account_id, m.month AS day, m.energy_kwh AS energy, m.baseline_kwh AS baseline,
           m.energy_with_baseline_kwh AS energy_with_baseline, m.burn_hours AS burn, m.days, m.metered_days
    FROM energy_monthly m
    WHERE m.device_id IN (SELECT id FROM visible) AND m.month >= ${fullFrom}::date AND m.month < ${fullTo}::date
    UNION ALL
    SELECT e.device_id, e.account_id, e.day, e.energy_kwh, e.baseline_kwh,
           CASE WHEN e.baseline_kwh IS NOT NULL THEN e.energy_kwh END, e.burn_hours, 1, e.metered::int
    FROM energy_daily e
    WHERE e.device_id IN (SELECT id FROM visible) AND e.day BETWEEN ${from}::date AND ${to}::date
      AND NOT (e.day >= ${fullFrom}::date AND e.day < ${fullTo}::date)`;

  const grouped = rowsOf<
    EnergyReportRow & {
      total: number;
      isTotal: number;
      deviceDays: number;
      meteredDays: number;
      currencies: number;
      currency: string | null;
    }
  >(
    await db.execute(sql`
      WITH visible AS (${visible}),
      per_device AS (
        SELECT device_id, sum(energy) AS energy, sum(baseline) AS baseline,
               sum(energy_with_baseline) AS energy_with_baseline, sum(burn) AS burn, sum(days) AS days,
               sum(metered_days) AS metered_days
        FROM (${facts}) f
        GROUP BY device_id
      ),
      joined AS (
        SELECT p.*, v.name AS device_name, v.street, v.region_id, g.name AS region_name,
               a.id AS account_id, a.name AS account_name, a.tariff_per_kwh AS tariff, a.emission_factor AS factor,
               a.currency
        FROM per_device p
        JOIN visible v ON v.id = p.device_id
        JOIN accounts a ON a.id = v.account_id
        LEFT JOIN regions g ON g.id = v.region_id
      ),
      grouped AS (
        SELECT ${group.key} AS key, ${group.label} AS label, GROUPING(${group.key}, ${group.label}) AS "isTotal",
               count(*)::int AS devices, sum(days)::int AS "deviceDays", sum(metered_days)::int AS "meteredDays",
               count(DISTINCT currency)::int AS currencies, min(currency) AS currency, ${FIGURES}
        FROM joined
        GROUP BY GROUPING SETS ((1, 2), ())
      )
      SELECT *, 0 AS total FROM grouped WHERE "isTotal" <> 0
      UNION ALL
      (SELECT *, count(*) OVER ()::int AS total FROM grouped WHERE "isTotal" = 0
       ORDER BY ${SORTS[request.sort]}, key
       LIMIT ${request.size} OFFSET ${request.page * request.size})`),
  );
  const totalsRow = grouped.find((r) => r.isTotal !== 0);
  const rows = grouped.filter((r) => r.isTotal === 0);

  // The chart: by day from the daily rows for short periods, by month from the facts otherwise,
  // summed per bucket and account first (tariffs are per account), then over accounts.
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  const bucket = days > DAILY_SERIES_DAYS ? 'month' : 'day';
  const source =
    bucket === 'day'
      ? sql`SELECT e.device_id, e.account_id, e.day, e.energy_kwh AS energy, e.baseline_kwh AS baseline,
                   CASE WHEN e.baseline_kwh IS NOT NULL THEN e.energy_kwh END AS energy_with_baseline,
                   e.burn_hours AS burn
            FROM energy_daily e WHERE e.device_id IN (SELECT id FROM visible) AND e.day BETWEEN ${from}::date AND ${to}::date`
      : facts;
  const series = rowsOf<EnergyFigures & { bucket: string }>(
    await db.execute(sql`
      WITH visible AS (${visible}),
      per_bucket AS (
        SELECT date_trunc(${bucket}, f.day) AS at, f.account_id, sum(f.energy) AS energy, sum(f.baseline) AS baseline,
               sum(f.energy_with_baseline) AS energy_with_baseline, sum(f.burn) AS burn
        FROM (${source}) f
        GROUP BY 1, 2
      )
      SELECT to_char(at, ${bucket === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM'}) AS bucket, ${FIGURES}
      FROM (SELECT p.*, a.tariff_per_kwh AS tariff, a.emission_factor AS factor
            FROM per_bucket p JOIN accounts a ON a.id = p.account_id) s
      GROUP BY at ORDER BY at`),
  );

  const figures = (row: Partial<EnergyFigures> | undefined): EnergyFigures => ({
    energyKwh: row?.energyKwh ?? 0,
    baselineKwh: row?.baselineKwh ?? null,
    savingsKwh: row?.savingsKwh ?? null,
    savingsPct: row?.savingsPct ?? null,
    money: row?.money ?? null,
    co2Kg: row?.co2Kg ?? null,
    burnHours: row?.burnHours ?? 0,
  });
  return {
    rows: rows.map((r) => ({ key: r.key, label: r.label, devices: r.devices, ...figures(r) })),
    totalRows: rows[0]?.total ?? 0,
    totals: {
      devices: totalsRow?.devices ?? 0,
      deviceDays: totalsRow?.deviceDays ?? 0,
      meteredDeviceDays: totalsRow?.meteredDays ?? 0,
      ...figures(totalsRow),
    },
    series: series.map((s) => ({ bucket: s.bucket, ...figures(s) })),
    bucket,
    // One currency only: figures in several are not added up under one symbol.
    currency: totalsRow && totalsRow.currencies === 1 ? totalsRow.currency : null,
  };
}

/**
 * The whole calendar months inside `from … to`, as `[first day, first day after]` (an empty span
 * `[x, x]` when none): read from the monthly rollups, the rest of the period from the daily ones.
 */
export function wholeMonths(from: string, to: string): [string, string] {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  const first = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + (start.getUTCDate() === 1 ? 0 : 1), 1));
  const afterEnd = new Date(end.getTime() + 86_400_000);
  const last = new Date(Date.UTC(afterEnd.getUTCFullYear(), afterEnd.getUTCMonth(), 1));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return first < last ? [day(first), day(last)] : [day(first), day(first)];
}
