import type { ReportKind } from '@lampyr/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { type ReportRequestOf, useReport } from '../../data/reports.ts';

/** Rows of a report's table per page. */
export const REPORT_PAGE_SIZE = 20;

type Controlled = 'from' | 'to' | 'groupBy' | 'page' | 'size' | 'sort';
/** What a report screen filters on besides its period and grouping (region, device, level, model). */
export type ReportFiltersOf<K extends ReportKind> = Omit<ReportRequestOf<K>, Controlled>;
export type ReportGroupOf<K extends ReportKind> = NonNullable<ReportRequestOf<K>['groupBy']>;

const lastDays = (days: number): [Dayjs, Dayjs] => [dayjs().subtract(days - 1, 'day'), dayjs()];

/** The period presets of every report: the last week, month and year, today included. */
export const periodPresets = () => ({ week: lastDays(7), month: lastDays(30), year: lastDays(365) });

/**
 * A report screen's state: the period (the last 30 days to begin with), the grouping, the filters
 * and the page of its table; changing any but the page goes back to the first. `body` is the
 * request as on screen (what the toolbar exports and saves), `report` the server's answer.
 */
export function useReportPage<K extends ReportKind>(kind: K, initialGroup: ReportGroupOf<K>) {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => lastDays(30));
  const [groupBy, setGroupBy] = useState<ReportGroupOf<K>>(initialGroup);
  const [filters, setFilters] = useState<Partial<ReportFiltersOf<K>>>({});
  const [page, setPage] = useState(0);
  // A filter left empty is no filter: it stays out of the request.
  const chosen = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== null));
  const body = {
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
    groupBy,
    ...chosen,
    page,
    size: REPORT_PAGE_SIZE,
  } as ReportRequestOf<K>;
  const report = useReport(kind, body);
  return {
    kind,
    range,
    setRange: (next: [Dayjs, Dayjs]) => {
      setRange(next);
      setPage(0);
    },
    groupBy,
    setGroupBy: (next: ReportGroupOf<K>) => {
      setGroupBy(next);
      setPage(0);
    },
    filters,
    setFilter: <F extends keyof ReportFiltersOf<K>>(key: F, value: ReportFiltersOf<K>[F] | undefined) => {
      setFilters((current) => ({ ...current, [key]: value }));
      setPage(0);
    },
    page,
    setPage,
    body,
    report,
    data: report.data,
  };
}

export type ReportPage<K extends ReportKind> = ReturnType<typeof useReportPage<K>>;
