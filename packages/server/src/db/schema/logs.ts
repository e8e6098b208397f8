import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { resourceTable } from './resource-table.ts';
import { scopedColumns as scoped } from './system.ts';

export const dataLogs = resourceTable(
  'data-logs',
  pgTable(
    'data_logs',
    { ...scoped(), topic: text(), deviceUid: text(), reason: text(), payload: text(), detail: text() },
    (t) => [index().on(t.accountId, t.createdAt)],
  ),
);

export const systemLogs = resourceTable(
  'system-logs',
  pgTable('system_logs', { ...scoped(), level: text(), source: text(), message: text(), context: jsonb() }, (t) => [
    index().on(t.accountId, t.createdAt),
  ]),
);
