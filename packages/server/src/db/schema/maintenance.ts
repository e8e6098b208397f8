import { date, index, pgTable, text } from 'drizzle-orm/pg-core';
import { devices } from './assets.ts';
import { at, refColumn } from './columns.ts';
import { resourceTable } from './resource-table.ts';
import { regions, scopedColumns as scoped } from './system.ts';

// ─── maintenance and logs ─────────────────────────────────────────────────────

export const faultReports = resourceTable(
  'report-a-fault',
  pgTable(
    'fault_reports',
    {
      ...scoped(),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id),
      faultType: text().notNull(),
      description: text(),
      reporter: text(),
      reportedAt: at().notNull(),
      status: text().notNull(),
    },
    (t) => [index().on(t.accountId, t.reportedAt)],
  ),
);

export const maintenancePlanning = resourceTable(
  'maintenance-planning',
  pgTable(
    'maintenance_planning',
    {
      ...scoped(),
      title: text().notNull(),
      deviceId: refColumn().references(() => devices.id),
      regionId: refColumn().references(() => regions.id),
      work: text().notNull(),
      dueDate: date({ mode: 'string' }).notNull(),
      assignee: text(),
      status: text().notNull(),
    },
    (t) => [index().on(t.accountId, t.dueDate)],
  ),
);

export const maintenanceHistory = resourceTable(
  'maintenance-history',
  pgTable(
    'maintenance_history',
    {
      ...scoped(),
      deviceId: refColumn().references(() => devices.id),
      work: text().notNull(),
      performedBy: text().notNull(),
      performedAt: at().notNull(),
      faultReportId: refColumn().references(() => faultReports.id),
    },
    (t) => [index().on(t.accountId, t.performedAt)],
  ),
);
