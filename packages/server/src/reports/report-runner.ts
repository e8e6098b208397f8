import {
  type AlarmReport,
  type AssetReport,
  type EnergyReport,
  MAX_EXPORT_ROWS,
  type MaintenanceReport,
  REPORT_COLUMNS,
  REPORT_REQUEST_SCHEMAS,
  type ReportKind,
} from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import { parseBody } from '../api/parse-body.ts';
import { energyReport } from '../data/energy-report.ts';
import { accountTimeZone } from '../data/time-zones.ts';
import type { Db } from '../db/connect.ts';
import { ApiException } from '../errors/api-exception.ts';
import { alarmReport } from './alarm-report.ts';
import { assetReport } from './asset-report.ts';
import { maintenanceReport } from './maintenance-report.ts';
import { checkPeriod } from './report-period.ts';

/** A computed report, with the calendar (the account's time zone) its days were counted in. */
export type AnyReport = { request: Record<string, unknown>; timeZone: string } & (
  | { kind: 'energy'; report: EnergyReport }
  | { kind: 'alarms'; report: AlarmReport }
  | { kind: 'assets'; report: AssetReport }
  | { kind: 'maintenance'; report: MaintenanceReport }
);

/**
 * What a report may read of one account: its devices (energy, assets), its alarm log (alarms) or its
 * work orders (maintenance). All are `account`-scoped resources, so this is the same filter the
 * catalogue's repositories apply; the scheduled runs use it with the template's account.
 */
export function reportScope(kind: ReportKind, accountId: number): SQL {
  if (kind === 'alarms') return sql`alert_logs.account_id = ${accountId}`;
  if (kind === 'maintenance') return sql`fault_reports.account_id = ${accountId}`;
  return sql`devices.account_id = ${accountId}`;
}

/** Parses a report's request (a 400 naming the field when it is wrong) and checks its period. */
export function parseReportRequest(kind: ReportKind, body: unknown, now?: Date) {
  const request = parseBody(REPORT_REQUEST_SCHEMAS[kind], body) as Record<string, unknown> & {
    from: string;
    to: string;
  };
  checkPeriod(request, now);
  return request;
}

/** One page of a report, as the query API answers it. */
export async function runReport(
  db: Db,
  kind: ReportKind,
  accountId: number,
  request: Record<string, unknown>,
  now: Date = new Date(),
): Promise<AnyReport> {
  const scope = reportScope(kind, accountId);
  const timeZone = await accountTimeZone(db, accountId);
  // biome-ignore lint/suspicious/noExplicitAny: each branch hands its own parsed request on.
  const r = request as any;
  const common = { request, timeZone };
  // Energy is read from rollups already made by the account's lighting days.
  if (kind === 'energy') return { kind, ...common, report: await energyReport(db, scope, r) };
  if (kind === 'alarms') return { kind, ...common, report: await alarmReport(db, scope, r, timeZone) };
  if (kind === 'maintenance') return { kind, ...common, report: await maintenanceReport(db, scope, r, timeZone) };
  return { kind, ...common, report: await assetReport(db, scope, r, timeZone, now) };
}

const EXPORT_PAGE = 1000;

/**
 * A whole report for an export: page after page of EXPORT_PAGE groups, refused before any is kept
 * when it has more than MAX_EXPORT_ROWS groups (a narrower filter or coarser grouping is asked for).
 */
export async function runWholeReport(
  db: Db,
  kind: ReportKind,
  accountId: number,
  request: Record<string, unknown>,
  now: Date = new Date(),
): Promise<AnyReport> {
  const first = await runReport(db, kind, accountId, { ...request, page: 0, size: EXPORT_PAGE }, now);
  const total = first.report.totalRows;
  if (total > MAX_EXPORT_ROWS)
    throw new ApiException('BAD_REQUEST', 'errors.reportTooManyRows', { count: total, max: MAX_EXPORT_ROWS });
  const rows: unknown[] = [...first.report.rows];
  for (let page = 1; rows.length < total; page++) {
    const next = await runReport(db, kind, accountId, { ...request, page, size: EXPORT_PAGE }, now);
    if (!next.report.rows.length) break;
    rows.push(...next.report.rows);
  }
  return { ...first, report: { ...first.report, rows } } as AnyReport;
}

/** The columns an export or template asked for, in the report's order; the group label always first. */
export function chooseColumns(kind: ReportKind, wanted: readonly string[] | null | undefined): string[] {
  const all: readonly string[] = REPORT_COLUMNS[kind];
  if (!wanted?.length) return [...all];
  for (const c of wanted)
    if (!all.includes(c)) throw new ApiException('BAD_REQUEST', 'errors.reportColumn', { column: c });
  return all.filter((c) => c === 'label' || wanted.includes(c));
}
