import { MAX_REPORT_DAYS } from '@lampyr/contract';
import { ApiException } from '../errors/api-exception.ts';

const DAY_MS = 86_400_000;

/** The days `from … to` spans, both included. */
export const periodDays = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;

/**
 * Refuses a period a report cannot answer: one that ends before it begins, spans more than
 * MAX_REPORT_DAYS (too much to answer quickly) or begins after today (no data can exist yet).
 */
export function checkPeriod(period: { from: string; to: string }, now: Date = new Date()): void {
  const { from, to } = period;
  if (from > to) throw new ApiException('BAD_REQUEST', 'errors.reportBackwards');
  if (periodDays(from, to) > MAX_REPORT_DAYS)
    throw new ApiException('BAD_REQUEST', 'errors.reportTooLong', { max: MAX_REPORT_DAYS });
  const today = new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
  if (from > today) throw new ApiException('BAD_REQUEST', 'errors.reportInFuture');
}
