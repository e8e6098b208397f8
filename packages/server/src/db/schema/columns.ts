import { bigint, timestamp } from 'drizzle-orm/pg-core';

/** Columns every table has: a bigint identity id and its two times. */
export const recordColumns = () => ({
  id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** A reference column, stored as bigint and sent as a JSON number. */
export const refColumn = () => bigint({ mode: 'number' });

/** A point in time, with its time zone. */
export const at = () => timestamp({ withTimezone: true, mode: 'date' });
