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
  .refine((r) => r.from <= r.to, { path: ['to'], message: 'must not be before from' })
  .refine((r) => (Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 + 1 <= MAX_REPORT_DAYS, {
    path: ['to'],
    message: `the period must be at most ${MAX_REPORT_DAYS} days`,
  });
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
