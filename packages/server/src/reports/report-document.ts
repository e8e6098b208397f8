import type { Language } from '@lampyr/contract';
import type { TFunction } from 'i18next';
import type { AnyReport } from './report-runner.ts';

export type CellKind = 'text' | 'int' | 'number' | 'percent' | 'money';

export interface DocumentColumn {
  key: string;
  label: string;
  kind: CellKind;
}

export interface DocumentChart {
  title: string;
  categories: string[];
  series: { name: string; type: 'bar' | 'line'; values: (number | null)[] }[];
  /** Bars of one category stacked (alarm levels, online/offline) rather than side by side. */
  stacked: boolean;
}

/**
 * A report as every export format writes it: translated title, period and column labels, rows of
 * names (never ids) and numbers, totals and a chart. Made once, written as CSV, XLSX or PDF.
 */
export interface ReportDocument {
  kind: AnyReport['kind'];
  language: Language;
  title: string;
  subtitle: string;
  columns: DocumentColumn[];
  rows: Record<string, string | number | null>[];
  totals: Record<string, string | number | null>;
  chart?: DocumentChart;
  currency: string | null;
  generatedAt: Date;
  /** The account's calendar: the period's days were counted in it, the generation time is shown in it. */
  timeZone: string;
}

const KINDS: Record<string, CellKind> = {
  label: 'text',
  devices: 'int',
  raised: 'int',
  active: 'int',
  acknowledged: 'int',
  cleared: 'int',
  online: 'int',
  faults: 'int',
  alarms: 'int',
  lowBattery: 'int',
  externalPower: 'int',
  savingsPct: 'percent',
  onlinePct: 'percent',
  money: 'money',
  open: 'int',
  reported: 'int',
  resolved: 'int',
  closed: 'int',
  reopened: 'int',
};

/** The document of a computed report in `language`, with the chosen `columns` (`label` names the group). */
export function reportDocument(
  result: AnyReport,
  columns: string[],
  t: TFunction,
  language: Language,
  generatedAt: Date = new Date(),
): ReportDocument {
  const { kind, request } = result;
  const groupBy = String(request.groupBy ?? defaultGroup(kind));
  const label = (key: string, raw: string) => {
    if (!raw) return t('reports.none');
    if (kind === 'alarms' && groupBy === 'level') return t(`reports.level.${key}`, { defaultValue: raw });
    if (kind === 'assets' && groupBy === 'age') return t(`reports.age.${key}`, { defaultValue: raw });
    if (kind === 'maintenance' && groupBy === 'faultType') return t(`resources:values.${key}`, { defaultValue: raw });
    return raw;
  };
  const docColumns = columns.map((key) => ({
    key,
    label: key === 'label' ? t(`reports.groupBy.${kind}.${groupBy}`) : t(`reports.columns.${key}`),
    kind: KINDS[key] ?? 'number',
  }));
  const pick = (row: Record<string, unknown>, first: string) =>
    Object.fromEntries(
      columns.map((c) => [c, c === 'label' ? first : ((row[c] as number | null | undefined) ?? null)]),
    ) as Record<string, string | number | null>;
  const rows = (result.report.rows as unknown as Record<string, unknown>[]).map((r) =>
    pick(r, label(String(r.key ?? ''), String(r.label ?? ''))),
  );
  const totals = pick(result.report.totals as unknown as Record<string, unknown>, t('reports.total'));
  return {
    kind,
    language,
    title: t(`reports.title.${kind}`),
    subtitle: t('reports.period', { from: request.from, to: request.to }),
    columns: docColumns,
    rows,
    totals,
    chart: chartOf(result, rows, t),
    currency: result.kind === 'energy' ? result.report.currency : null,
    generatedAt,
    timeZone: result.timeZone,
  };
}

const defaultGroup = (kind: AnyReport['kind']) =>
  ({ energy: 'region', alarms: 'level', assets: 'model', maintenance: 'faultType' })[kind];

/**
 * The chart people look at on the screen: energy and baseline by day, alarms by day and level,
 * devices online per group, faults reported, repaired and open per fault type (region).
 */
function chartOf(result: AnyReport, rows: Record<string, string | number | null>[], t: TFunction): DocumentChart {
  if (result.kind === 'energy') {
    // Every day (month) of the period on the axis; one without rollups has no bar rather than a zero.
    const byBucket = new Map(result.report.series.map((p) => [p.bucket, p]));
    const categories = buckets(String(result.request.from), String(result.request.to), result.report.bucket);
    const s = categories.map((c) => byBucket.get(c));
    return {
      title: `${t('reports.chart.energy')} · ${t(result.report.bucket === 'day' ? 'reports.byDay' : 'reports.byMonth')}`,
      categories,
      series: [
        { name: t('reports.columns.energyKwh'), type: 'bar', values: s.map((p) => p?.energyKwh ?? null) },
        { name: t('reports.columns.baselineKwh'), type: 'line', values: s.map((p) => p?.baselineKwh ?? null) },
      ],
      stacked: false,
    };
  }
  if (result.kind === 'alarms') {
    const s = result.report.series;
    return {
      title: `${t('reports.chart.alarms')} · ${t(result.report.bucket === 'day' ? 'reports.byDay' : 'reports.byMonth')}`,
      categories: s.map((p) => p.bucket),
      series: (['high', 'medium', 'low', 'other'] as const).map((level) => ({
        name: t(`reports.level.${level}`),
        type: 'bar' as const,
        values: s.map((p) => p[level]),
      })),
      stacked: true,
    };
  }
  if (result.kind === 'maintenance') {
    const r = result.report.rows.slice(0, 30);
    return {
      title: t('reports.chart.maintenance'),
      categories: rows.slice(0, 30).map((row) => String(row.label ?? '')),
      series: [
        { name: t('reports.columns.reported'), type: 'bar', values: r.map((p) => p.reported) },
        { name: t('reports.columns.resolved'), type: 'bar', values: r.map((p) => p.resolved) },
        { name: t('reports.columns.open'), type: 'bar', values: r.map((p) => p.open) },
      ],
      stacked: false,
    };
  }
  const r = result.report.rows.slice(0, 30);
  return {
    title: t('reports.chart.assets'),
    categories: rows.slice(0, 30).map((row) => String(row.label ?? '')),
    series: [
      { name: t('reports.columns.online'), type: 'bar', values: r.map((p) => p.online) },
      { name: t('reports.offline'), type: 'bar', values: r.map((p) => p.devices - p.online) },
    ],
    stacked: true,
  };
}

/** The days (`YYYY-MM-DD`) or months (`YYYY-MM`) of `from … to`. */
function buckets(from: string, to: string, bucket: 'day' | 'month'): string[] {
  const out: string[] = [];
  const cursor = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  if (bucket === 'month') cursor.setUTCDate(1);
  while (cursor <= end && out.length < 400) {
    out.push(cursor.toISOString().slice(0, bucket === 'day' ? 10 : 7));
    if (bucket === 'day') cursor.setUTCDate(cursor.getUTCDate() + 1);
    else cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return out;
}
