import { type Bucket, CONSTANTS } from '@lampyr/contract';
import type { Dayjs } from 'dayjs';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export type Range = [Dayjs, Dayjs];

/** SPEC §5/§9: a chart spans at most 15 days. */
export function rangeTooLong([from, to]: Range, maxDays: number = CONSTANTS.chartMaxDays): boolean {
  return to.valueOf() - from.valueOf() > maxDays * DAY_MS;
}

export function rangeInvalid([from, to]: Range): boolean {
  return !from.isValid() || !to.isValid() || to.valueOf() <= from.valueOf();
}

/** A bucket that gives a readable number of points (a few hundred at most) for the range. */
export function bucketFor([from, to]: Range): Bucket {
  const span = to.valueOf() - from.valueOf();
  if (span <= 6 * HOUR_MS) return '5m';
  if (span <= 2 * DAY_MS) return '15m';
  return '1h';
}

export const CHART_BUCKETS: readonly Bucket[] = ['5m', '15m', '1h', '1d'];

/** The aggregate API's filter for a time range (`dateTime between`). */
export function rangeFilter([from, to]: Range) {
  return { field: 'dateTime', operator: 'between' as const, value: [from.toISOString(), to.toISOString()] };
}

/** A range as the ISO times a chart's time axis spans. */
export function spanOf([from, to]: Range): [string, string] {
  return [from.toISOString(), to.toISOString()];
}
