import {
  type AnyPgColumn,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { alertLogs } from './alerts.ts';
import { devices } from './assets.ts';
import { at, refColumn } from './columns.ts';
import { resourceTable } from './resource-table.ts';
import { regions, scopedColumns as scoped, users } from './system.ts';

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
      // The work order (contract work-orders.ts): where, who, when, what was done.
      latitude: doublePrecision(),
      longitude: doublePrecision(),
      hasPhoto: boolean().notNull().default(false),
      assigneeId: refColumn().references(() => users.id, { onDelete: 'set null' }),
      crew: text(),
      plannedDate: date({ mode: 'string' }),
      startedAt: at(),
      resolvedAt: at(),
      resolution: text(),
      partsUsed: text(),
      closedAt: at(),
      reopenCount: integer().notNull().default(0),
      /** A report of a fault that came back within a week: the work order it reopened. */
      duplicateOfId: refColumn().references((): AnyPgColumn => faultReports.id, { onDelete: 'set null' }),
      reporter: text(),
      reportedAt: at().notNull(),
      status: text().notNull().default('open'),
      /** Who found it: `reported` by a person, or `detected` by the fault engine (engines/faults). */
      source: text().notNull().default('reported'),
      /** The alarm a detected fault raised. */
      alertLogId: refColumn().references(() => alertLogs.id, { onDelete: 'set null' }),
      /** The fault rule that detected it (`lampFailure`, `dayBurning`, …; FAULT_RULES). */
      ruleCode: text(),
    },
    (t) => [index().on(t.accountId, t.reportedAt), index().on(t.deviceId, t.ruleCode)],
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
      faultReportId: refColumn().references(() => faultReports.id, { onDelete: 'cascade' }),
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
      action: text(),
      work: text().notNull(),
      partsUsed: text(),
      performedBy: text().notNull(),
      performedAt: at().notNull(),
      // A report deleted (made by mistake) takes the history of its work order with it.
      faultReportId: refColumn().references(() => faultReports.id, { onDelete: 'cascade' }),
    },
    (t) => [index().on(t.accountId, t.performedAt)],
  ),
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The photo a person took of a fault (one per report, JPEG/PNG/WebP, 2 MB at most: checked before
 * it is written). Not a catalogue resource: read through the work order's photo route only.
 */
export const faultPhotos = pgTable(
  'fault_photos',
  {
    ...scoped(),
    faultReportId: refColumn()
      .notNull()
      .references(() => faultReports.id, { onDelete: 'cascade' }),
    contentType: text().notNull(),
    byteSize: integer().notNull(),
    data: bytea().notNull(),
  },
  (t) => [uniqueIndex().on(t.faultReportId)],
);
