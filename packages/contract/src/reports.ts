import { z } from 'zod';

/** The longest period one energy report covers: a year of daily rollups per device. */
export const MAX_REPORT_DAYS = 366;

const day = z.iso.date();

/** `POST /query/api/reports/energy`: energy, baseline and savings over a period, grouped. */
export const energyReportRequestSchema = z
  .object({
    from: day,
    to: day,
    groupBy: z.enum(['device', 'street', 'region', 'account']).default('region'),
    regionId: z.number().int().positive().optional(),
    street: z.string().min(1).max(255).optional(),
    deviceId: z.number().int().positive().optional(),
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(1000).default(50),
    sort: z.enum(['energyKwh', 'savingsKwh', 'savingsPct', 'label']).default('energyKwh'),
  })
  .strict();
export type EnergyReportRequest = z.input<typeof energyReportRequestSchema>;

/** Energy figures of a group, a day or the whole period. Money and CO₂ are null where no tariff or factor is set. */
export interface EnergyFigures {
  energyKwh: number;
  /** Rated power over the dark hours, undimmed; null when no device of the group has a rated power. */
  baselineKwh: number | null;
  savingsKwh: number | null;
  savingsPct: number | null;
  money: number | null;
  co2Kg: number | null;
  burnHours: number;
}

export interface EnergyReportRow extends EnergyFigures {
  key: string;
  label: string;
  devices: number;
}

export interface EnergyReport {
  rows: EnergyReportRow[];
  totalRows: number;
  totals: EnergyFigures & { devices: number; deviceDays: number; meteredDeviceDays: number };
  /** By day, or by month when the period is longer than 62 days. */
  series: (EnergyFigures & { bucket: string })[];
  bucket: 'day' | 'month';
  currency: string | null;
}

// ─── alarm and device-asset reports, exports, templates ─────────────────────────────────────

/** The reports the query API computes; each exports to every format and may be saved as a template. */
export const REPORT_KINDS = ['energy', 'alarms', 'assets', 'maintenance'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** The most rows one export writes; a larger report is refused with a message to narrow it. */
export const MAX_EXPORT_ROWS = 5000;

const alarmLevel = z.enum(['low', 'medium', 'high']);

/** `POST /query/api/reports/alarms`: alarms raised over a period, grouped, with acknowledge and clear times. */
export const alarmReportRequestSchema = z
  .object({
    from: day,
    to: day,
    groupBy: z.enum(['level', 'device', 'region', 'day']).default('level'),
    level: alarmLevel.optional(),
    regionId: z.number().int().positive().optional(),
    deviceId: z.number().int().positive().optional(),
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(1000).default(50),
  })
  .strict();
export type AlarmReportRequest = z.input<typeof alarmReportRequestSchema>;

/** Counts and mean times of a group of alarms (minutes; null when none was acknowledged or cleared). */
export interface AlarmFigures {
  raised: number;
  active: number;
  acknowledged: number;
  cleared: number;
  mttaMinutes: number | null;
  mttcMinutes: number | null;
}
export interface AlarmReportRow extends AlarmFigures {
  key: string;
  label: string;
}
export interface AlarmReport {
  rows: AlarmReportRow[];
  totalRows: number;
  totals: AlarmFigures;
  /** Alarms raised per day (or month past 62 days) and level. */
  series: { bucket: string; low: number; medium: number; high: number; other: number }[];
  bucket: 'day' | 'month';
}

/** `POST /query/api/reports/assets`: the inventory grouped, its online share, faults and health. */
export const assetReportRequestSchema = z
  .object({
    /** Faults and alarms are counted over this period. */
    from: day,
    to: day,
    groupBy: z.enum(['model', 'status', 'region', 'age']).default('model'),
    regionId: z.number().int().positive().optional(),
    deviceTypeModelId: z.number().int().positive().optional(),
    status: z.string().min(1).max(64).optional(),
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(1000).default(50),
  })
  .strict();
export type AssetReportRequest = z.input<typeof assetReportRequestSchema>;

export interface AssetFigures {
  devices: number;
  online: number;
  /** Per cent of the group's devices online now. */
  onlinePct: number | null;
  faults: number;
  alarms: number;
  /** Mean battery level (%) of devices that report one. */
  batteryAvg: number | null;
  lowBattery: number;
  externalPower: number;
  /** Mean link margin (dB) of devices that report one. */
  linkMarginAvg: number | null;
  /** Mean age in years since the device was registered. */
  ageYears: number | null;
}
export interface AssetReportRow extends AssetFigures {
  key: string;
  label: string;
}
export interface AssetReport {
  rows: AssetReportRow[];
  totalRows: number;
  totals: AssetFigures;
}

/**
 * `POST /query/api/reports/maintenance`: the fault and maintenance KPIs over a period (days of the
 * account's calendar), by fault type or region: work orders open now, faults reported, work orders
 * resolved, closed and reopened in the period, mean times to repair and to close.
 */
export const maintenanceReportRequestSchema = z
  .object({
    from: day,
    to: day,
    groupBy: z.enum(['faultType', 'region']).default('faultType'),
    regionId: z.number().int().positive().optional(),
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(1000).default(50),
  })
  .strict();
export type MaintenanceReportRequest = z.input<typeof maintenanceReportRequestSchema>;

/**
 * The maintenance figures of a group of work orders (a fault that came back and reopened its work
 * order is not a fault of its own). Mean times in hours, null when none was resolved (closed).
 */
export interface MaintenanceFigures {
  /** Work orders open now (open, assigned, planned, in progress), whatever the period. */
  open: number;
  /** Faults reported in the period. */
  reported: number;
  resolved: number;
  closed: number;
  /** Work orders reopened in the period (by hand, or because the fault came back). */
  reopened: number;
  /** Mean hours from report to resolution, of the work orders resolved in the period. */
  mttrHours: number | null;
  /** Mean hours from report to closing, of the work orders closed in the period. */
  mttcHours: number | null;
}
export interface MaintenanceReportRow extends MaintenanceFigures {
  key: string;
  label: string;
}
export interface MaintenanceReport {
  rows: MaintenanceReportRow[];
  totalRows: number;
  totals: MaintenanceFigures;
}

export const REPORT_REQUEST_SCHEMAS = {
  energy: energyReportRequestSchema,
  alarms: alarmReportRequestSchema,
  assets: assetReportRequestSchema,
  maintenance: maintenanceReportRequestSchema,
} as const;

/** The columns each report has, in order; an export or template may choose a subset (the group label always). */
export const REPORT_COLUMNS = {
  energy: ['label', 'devices', 'energyKwh', 'baselineKwh', 'savingsKwh', 'savingsPct', 'money', 'co2Kg', 'burnHours'],
  alarms: ['label', 'raised', 'active', 'acknowledged', 'cleared', 'mttaMinutes', 'mttcMinutes'],
  assets: [
    'label',
    'devices',
    'online',
    'onlinePct',
    'faults',
    'alarms',
    'batteryAvg',
    'lowBattery',
    'externalPower',
    'linkMarginAvg',
    'ageYears',
  ],
  maintenance: ['label', 'open', 'reported', 'resolved', 'closed', 'reopened', 'mttrHours', 'mttcHours'],
} as const satisfies Record<ReportKind, readonly string[]>;

const columnList = z.array(z.string().min(1).max(64)).min(1).max(20).optional();

/** `POST /query/api/reports/{kind}/export`: the report (all pages, up to MAX_EXPORT_ROWS) as a file. */
export const reportExportRequestSchema = z
  .object({
    format: z.enum(REPORT_FORMATS),
    /** The report's own request; page and size are ignored. */
    request: z.record(z.string(), z.unknown()),
    columns: columnList,
    /** The labels' language; the request's Accept-Language when absent. */
    language: z.enum(['en', 'tr']).optional(),
  })
  .strict();
export type ReportExportRequest = z.input<typeof reportExportRequestSchema>;

export const REPORT_SCHEDULES = ['none', 'weekly', 'monthly'] as const;
export type ReportSchedule = (typeof REPORT_SCHEDULES)[number];

/**
 * A saved report: its kind, filters and columns under a name. A scheduled one is e-mailed each week
 * (Monday, over the week before) or month (the 1st, over the month before) as `format`.
 */
export const reportTemplateInputSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    kind: z.enum(REPORT_KINDS),
    /** The report's request without its period (a rerun or a scheduled run supplies it). */
    filters: z.record(z.string(), z.unknown()).default({}),
    columns: columnList,
    format: z.enum(REPORT_FORMATS).default('pdf'),
    schedule: z.enum(REPORT_SCHEDULES).default('none'),
    /** E-mail addresses, separated by commas; required when scheduled. */
    recipients: z.string().trim().max(1000).default(''),
    language: z.enum(['en', 'tr']).default('en'),
  })
  .strict();
export type ReportTemplateInput = z.input<typeof reportTemplateInputSchema>;

export interface ReportTemplate {
  id: number;
  name: string;
  kind: ReportKind;
  filters: Record<string, unknown>;
  columns: string[] | null;
  format: ReportFormat;
  schedule: ReportSchedule;
  recipients: string;
  language: 'en' | 'tr';
  /** The last period a scheduled run was sent for (`2026-W47`, `2026-10`). */
  lastPeriod: string | null;
  lastRunAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `POST /query/api/report-templates/{id}/export`: rerun a saved report over a period as a file. */
export const templateRunRequestSchema = z
  .object({
    from: day,
    to: day,
    format: z.enum(REPORT_FORMATS).optional(),
    language: z.enum(['en', 'tr']).optional(),
  })
  .strict();
export type TemplateRunRequest = z.input<typeof templateRunRequestSchema>;
