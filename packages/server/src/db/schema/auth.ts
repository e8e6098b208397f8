import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { refColumn } from './columns.ts';
import { accounts, users } from './system.ts';

/**
 * Sign-in limits shared by every replica: one row per key (`login-ip:<address>`,
 * `login-email:<e-mail>`, …), counting hits in a window and, for failed sign-ins, a backoff.
 */
export const authLimits = pgTable('auth_limits', {
  key: text().primaryKey(),
  hits: integer().notNull().default(0),
  windowStart: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  blockedUntil: timestamp({ withTimezone: true, mode: 'date' }),
});

/**
 * Refresh credentials (hashes only), rotated on every use. A family is one sign-in; presenting a
 * rotated credential after its grace period ends the whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: refColumn()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    family: text().notNull(),
    tokenHash: text().notNull().unique(),
    tokenVersion: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    replacedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId), index().on(t.family)],
);

/** Single-use, short-lived tickets that open the live stream (hashes only). */
export const streamTickets = pgTable(
  'stream_tickets',
  {
    ticketHash: text().primaryKey(),
    userId: refColumn()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: refColumn()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenVersion: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index().on(t.expiresAt)],
);
