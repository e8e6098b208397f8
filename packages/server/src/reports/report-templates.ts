import {
  parseRecipientList,
  type ReportKind,
  type ReportSchedule,
  type ReportTemplate,
  type reportTemplateInputSchema,
} from '@lampyr/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { accountTimeZone, FALLBACK_TIME_ZONE } from '../data/time-zones.ts';
import type { Db } from '../db/connect.ts';
import { reportTemplates } from '../db/schema/index.ts';
import { localDate } from '../engines/sun-times/zoned-time.ts';
import { ApiException, notFound } from '../errors/api-exception.ts';
import { chooseColumns, parseReportRequest } from './report-runner.ts';

type Input = z.output<typeof reportTemplateInputSchema>;
type Row = typeof reportTemplates.$inferSelect;

/** A template's filters with a stand-in period parse as its report's request: a bad filter is refused when saved. */
export function checkTemplate(input: Input): void {
  const { from: _f, to: _t, page: _p, size: _s, ...filters } = input.filters;
  const day = new Date().toISOString().slice(0, 10);
  parseReportRequest(input.kind, { ...filters, from: day, to: day });
  chooseColumns(input.kind, input.columns);
  if (input.schedule !== 'none') {
    const list = parseRecipientList('email', input.recipients);
    if (!list.ok || !list.recipients.length)
      throw new ApiException('BAD_REQUEST', 'errors.reportRecipients', {
        value: list.ok ? input.recipients : String(list.error.vars?.item ?? input.recipients),
      });
  }
}

const withoutPeriod = (filters: Record<string, unknown>) => {
  const { from: _f, to: _t, page: _p, size: _s, ...rest } = filters;
  return rest;
};

export const toWire = (row: Row): ReportTemplate => ({
  id: row.id,
  name: row.name,
  kind: row.kind as ReportKind,
  filters: row.filters as Record<string, unknown>,
  columns: (row.columns as string[] | null) ?? null,
  format: row.format as ReportTemplate['format'],
  schedule: row.schedule as ReportSchedule,
  recipients: row.recipients,
  language: row.language as 'en' | 'tr',
  lastPeriod: row.lastPeriod,
  lastRunAt: row.lastRunAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The account's templates, by name; never another account's. */
export async function listTemplates(db: Db, accountId: number): Promise<ReportTemplate[]> {
  const rows = await db
    .select()
    .from(reportTemplates)
    .where(eq(reportTemplates.accountId, accountId))
    .orderBy(asc(reportTemplates.name))
    .limit(500);
  return rows.map(toWire);
}

/** One template of the account: another account's id is "not found", like one that does not exist. */
export async function getTemplate(db: Db, accountId: number, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(reportTemplates)
    .where(and(eq(reportTemplates.id, id), eq(reportTemplates.accountId, accountId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function createTemplate(
  db: Db,
  accountId: number,
  userId: number,
  input: Input,
  now: Date = new Date(),
): Promise<ReportTemplate> {
  checkTemplate(input);
  const [row] = await db
    .insert(reportTemplates)
    .values({
      accountId,
      createdBy: userId,
      ...fields(input),
      // The first mail is for the first whole period after this one was saved.
      lastPeriod:
        input.schedule === 'none' ? null : duePeriod(input.schedule, now, await accountTimeZone(db, accountId)).key,
    })
    .returning();
  return toWire(row as Row);
}

export async function updateTemplate(
  db: Db,
  accountId: number,
  id: number,
  input: Input,
  now: Date = new Date(),
): Promise<ReportTemplate> {
  const before = await getTemplate(db, accountId, id);
  checkTemplate(input);
  const rescheduled = before.schedule !== input.schedule;
  const zone = await accountTimeZone(db, accountId);
  const [row] = await db
    .update(reportTemplates)
    .set({
      ...fields(input),
      updatedAt: now,
      ...(rescheduled
        ? { lastPeriod: input.schedule === 'none' ? null : duePeriod(input.schedule, now, zone).key, lastRunAt: null }
        : {}),
    })
    .where(and(eq(reportTemplates.id, id), eq(reportTemplates.accountId, accountId)))
    .returning();
  if (!row) throw notFound();
  return toWire(row);
}

export async function deleteTemplate(db: Db, accountId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(reportTemplates)
    .where(and(eq(reportTemplates.id, id), eq(reportTemplates.accountId, accountId)))
    .returning({ id: reportTemplates.id });
  if (!deleted.length) throw notFound();
}

const fields = (input: Input) => ({
  name: input.name,
  kind: input.kind,
  filters: withoutPeriod(input.filters),
  columns: input.columns ?? null,
  format: input.format,
  schedule: input.schedule,
  recipients: input.recipients,
  language: input.language,
});

/** The zone whose calendar is furthest ahead (UTC+14): no account's due period is later than its. */
export const FURTHEST_AHEAD_ZONE = 'Pacific/Kiritimati';

/**
 * The period a scheduled template is due for at `now` in the calendar of `timeZone` (the account's):
 * weekly, the ISO week before this one (Monday to Sunday, key `2026-W47`); monthly, the calendar
 * month before (key `2026-10`). Keys of one schedule sort in time order, so "not yet sent" is
 * `last_period < key`.
 */
export function duePeriod(
  schedule: Exclude<ReportSchedule, 'none'>,
  now: Date,
  timeZone: string = FALLBACK_TIME_ZONE,
): { key: string; from: string; to: string } {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  // Today's date on the account's wall calendar, as a UTC midnight to count days with.
  const today = new Date(`${localDate(now, timeZone)}T00:00:00Z`);
  if (schedule === 'monthly') {
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
    const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
    return { key: day(first).slice(0, 7), from: day(first), to: day(last) };
  }
  const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000);
  const from = new Date(monday.getTime() - 7 * 86_400_000);
  const to = new Date(monday.getTime() - 86_400_000);
  return { key: isoWeekKey(from), from: day(from), to: day(to) };
}

/** `2026-W47` of the ISO week a Monday begins. */
function isoWeekKey(monday: Date): string {
  const thursday = new Date(monday.getTime() + 3 * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}
