import {
  type MaintenanceFigures,
  type MaintenanceReport,
  type MaintenanceReportRow,
  type maintenanceReportRequestSchema,
  OPEN_STATUSES,
} from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { periodBounds } from '../data/time-zones.ts';
import type { Db } from '../db/connect.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
type Request = z.output<typeof maintenanceReportRequestSchema>;

const GROUPS: Record<Request['groupBy'], { key: SQL; label: SQL }> = {
  faultType: { key: sql`fault_type`, label: sql`fault_type` },
  region: { key: sql`coalesce(region_id::text, '')`, label: sql`coalesce(region_name, '')` },
};

/** Hours between two timestamptz columns. */
const hours = (later: string, earlier: string) => sql.raw(`extract(epoch FROM ${later} - ${earlier}) / 3600`);

/**
 * The maintenance figures of a group of work orders; `in_period` flags say which of a work order's
 * moments fall in the period. Mean time to repair runs from the report to the resolution, to close
 * from the report to the closing, over the work orders resolved (closed) in the period.
 */
const FIGURES = sql`
  count(*) FILTER (WHERE is_open)::int AS open,
  count(*) FILTER (WHERE reported_in)::int AS reported,
  count(*) FILTER (WHERE resolved_in)::int AS resolved,
  count(*) FILTER (WHERE closed_in)::int AS closed,
  coalesce(sum(reopens), 0)::int AS reopened,
  (avg(${hours('resolved_at', 'reported_at')}) FILTER (WHERE resolved_in))::float8 AS "mttrHours",
  (avg(${hours('closed_at', 'reported_at')}) FILTER (WHERE closed_in))::float8 AS "mttcHours"`;

/**
 * The fault and maintenance KPI report: the work orders `scope` (on fault_reports) lets the caller
 * see, of one region or all, over `from … to` (days of the account's calendar, `zone`): open now,
 * reported, resolved, closed and reopened in the period, mean times to repair and to close; grouped
 * by fault type or region, paged, with totals. A report folded into a reopened work order (status
 * `duplicate`) is not a fault of its own. One pass over the account's work orders that are open or
 * moved in the period (and their reopenings); only groups come back.
 */
export async function maintenanceReport(
  db: Db,
  scope: SQL,
  request: Request,
  zone: string,
): Promise<MaintenanceReport> {
  const group = GROUPS[request.groupBy];
  const { start, end } = periodBounds(request.from, request.to, zone);
  const regionId = request.regionId ?? null;
  const open = sql.raw(`(${OPEN_STATUSES.map((s) => `'${s}'`).join(',')})`);
  const within = (column: string) => sql`(${sql.raw(column)} >= ${start} AND ${sql.raw(column)} < ${end})`;
  const grouped = rowsOf<MaintenanceReportRow & { isTotal: number; total: number }>(
    await db.execute(sql`
      WITH reopens AS (
        SELECT h.fault_report_id, count(*) AS n FROM maintenance_history h
        WHERE h.action IN ('reopen', 'autoReopen') AND ${within('h.performed_at')}
        GROUP BY h.fault_report_id
      ),
      orders AS (
        SELECT fault_reports.fault_type, d.region_id, g.name AS region_name,
               fault_reports.reported_at, fault_reports.resolved_at, fault_reports.closed_at,
               fault_reports.status IN ${open} AS is_open,
               ${within('fault_reports.reported_at')} AS reported_in,
               ${within('fault_reports.resolved_at')} AS resolved_in,
               ${within('fault_reports.closed_at')} AS closed_in,
               o.n AS reopens
        FROM fault_reports
        JOIN devices d ON d.id = fault_reports.device_id
        LEFT JOIN regions g ON g.id = d.region_id
        LEFT JOIN reopens o ON o.fault_report_id = fault_reports.id
        WHERE ${scope} AND fault_reports.status <> 'duplicate'
          AND (${regionId}::bigint IS NULL OR d.region_id = ${regionId}::bigint)
          AND (fault_reports.status IN ${open} OR o.n IS NOT NULL OR ${within('fault_reports.reported_at')}
            OR ${within('fault_reports.resolved_at')} OR ${within('fault_reports.closed_at')})
      ),
      grouped AS (
        SELECT ${group.key} AS key, ${group.label} AS label, GROUPING(${group.key}, ${group.label}) AS "isTotal", ${FIGURES}
        FROM orders
        GROUP BY GROUPING SETS ((1, 2), ())
      )
      SELECT *, 0 AS total FROM grouped WHERE "isTotal" <> 0
      UNION ALL
      (SELECT *, count(*) OVER ()::int AS total FROM grouped WHERE "isTotal" = 0
       ORDER BY open DESC, reported DESC, label, key
       LIMIT ${request.size} OFFSET ${request.page * request.size})`),
  );
  const totals = grouped.find((r) => r.isTotal !== 0);
  const rows = grouped.filter((r) => r.isTotal === 0);
  const figures = (r: Partial<MaintenanceFigures> | undefined): MaintenanceFigures => ({
    open: r?.open ?? 0,
    reported: r?.reported ?? 0,
    resolved: r?.resolved ?? 0,
    closed: r?.closed ?? 0,
    reopened: r?.reopened ?? 0,
    mttrHours: r?.mttrHours ?? null,
    mttcHours: r?.mttcHours ?? null,
  });
  return {
    rows: rows.map((r) => ({ key: r.key, label: r.label, ...figures(r) })),
    totalRows: rows[0]?.total ?? 0,
    totals: figures(totals),
  };
}
