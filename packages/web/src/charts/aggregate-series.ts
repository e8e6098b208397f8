import type { Bucket, Condition } from '@lampyr/contract';
import { aggregate } from '../lib/resource-api.ts';
import { type Range, rangeFilter } from './chart-range.ts';
import type { TimeSeries } from './time-series-chart.tsx';

export type AggregateRow = Record<string, unknown> & { dateTime?: string };

/**
 * Averages of channel readings per time bucket: `POST channel-read-values/aggregate` grouped by
 * the given fields and the bucket of `dateTime`.
 */
export async function averagesPerBucket(
  filters: Condition[],
  range: Range,
  bucket: Bucket,
  groupBy: string[] = [],
  signal?: AbortSignal,
): Promise<AggregateRow[]> {
  const data = await aggregate<AggregateRow>(
    'channel-read-values',
    {
      // A channel's own readings: a sub-device package's sub-channels would mix in under its id.
      filters: [...filters, { field: 'subChannel', operator: 'eq', value: 0 }, rangeFilter(range)],
      aggregations: [
        { field: 'value', fn: 'avg', as: 'avg' },
        { field: 'value', fn: 'min', as: 'min' },
        { field: 'value', fn: 'max', as: 'max' },
        { field: 'value', fn: 'count', as: 'count' },
      ],
      groupBy: [...groupBy, { field: 'dateTime', interval: bucket }],
    },
    { signal },
  );
  return data.rows;
}

const round = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1000) / 1000 : null;

/** One series per value of `key` (a channel template id), or one in all; points in time order. */
export function seriesBy(
  rows: readonly AggregateRow[],
  key: string | undefined,
  describe: (value: unknown) => { name: string; unit?: string },
  measure = 'avg',
): TimeSeries[] {
  const groups = new Map<unknown, [string, number | null][]>();
  for (const row of rows) {
    const group = key === undefined ? undefined : row[key];
    const points = groups.get(group) ?? [];
    points.push([String(row.dateTime), round(row[measure])]);
    groups.set(group, points);
  }
  return [...groups.entries()].map(([value, points]) => ({
    ...describe(value),
    points: points.sort((a, b) => a[0].localeCompare(b[0])),
  }));
}
