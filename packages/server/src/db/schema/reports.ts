import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, refColumn } from './columns.ts';
import { scopedColumns as scoped, users } from './system.ts';

/**
 * A saved report (SPEC "Report Templates"): kind, filters (the report's request without its period)
 * and columns under a name, to rerun; `schedule` weekly or monthly e-mails it as `format` to
 * `recipients`. `last_period` is the durable claim of a scheduled run: the engines' leader moves it
 * forward in the same transaction that queues the mail, so each period is sent once. Not a catalogue
 * resource: its own routes read and write it (`/query|command/api/report-templates`).
 */
export const reportTemplates = pgTable(
  'report_templates',
  {
    ...scoped(),
    name: text().notNull(),
    kind: text().notNull(),
    filters: jsonb().notNull().default({}),
    columns: jsonb(),
    format: text().notNull().default('pdf'),
    schedule: text().notNull().default('none'),
    recipients: text().notNull().default(''),
    language: text().notNull().default('en'),
    lastPeriod: text(),
    lastRunAt: at(),
    createdBy: refColumn().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex().on(t.accountId, t.name), index().on(t.schedule)],
);

/**
 * A rendered report a scheduled run attached to its mail (base64), kept while its notification rows
 * may still be sent or resent; the notification list row names it (`attachment_id`).
 */
export const reportFiles = pgTable(
  'report_files',
  {
    ...scoped(),
    templateId: refColumn().references(() => reportTemplates.id, { onDelete: 'set null' }),
    period: text().notNull(),
    filename: text().notNull(),
    contentType: text().notNull(),
    content: text().notNull(),
  },
  (t) => [index().on(t.accountId, t.createdAt)],
);
