import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  timestamp,
} from 'drizzle-orm/pg-core';
import { devices } from './assets.ts';
import { accountColumn, accounts } from './system.ts';

/**
 * What one luminaire used on one lighting day (noon on `day` to noon the next day, in its account's
 * time zone, so one night is one row), rolled up from its readings by the
 * energy engine (src/engines/energy): reports sum these rows, never the readings. `baselineKwh` is
 * its rated power over that night's dark hours (sunset to the next sunrise), undimmed; null when the
 * device has no rated power or its city no sun times for the day.
 */
export const energyDaily = pgTable(
  'energy_daily',
  {
    accountId: accountColumn(),
    deviceId: bigint({ mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    /** `meteredKwh` when the device's meter reported that day, else `powerKwh`. */
    energyKwh: doublePrecision().notNull(),
    /** From the device's energy meter channel (true) or power × time (false). */
    metered: boolean().notNull(),
    /** Power × time, each power reading up to the next (at most an hour); null without power readings. */
    powerKwh: doublePrecision(),
    /** The sum of the meter's increases; null when the meter reported none that day. */
    meteredKwh: doublePrecision(),
    burnHours: doublePrecision().notNull(),
    baselineKwh: doublePrecision(),
    nightHours: doublePrecision(),
    computedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.day] }), index().on(t.accountId, t.day)],
);

/**
 * `energy_daily` summed per device and calendar month, kept by the same rollup: a year's report
 * reads twelve rows per device instead of 365. Days at the edges of a period that do not cover a
 * whole month are read from `energy_daily`.
 */
export const energyMonthly = pgTable(
  'energy_monthly',
  {
    accountId: accountColumn(),
    deviceId: bigint({ mode: 'number' })
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** The month's first day. */
    month: date({ mode: 'string' }).notNull(),
    energyKwh: doublePrecision().notNull(),
    baselineKwh: doublePrecision(),
    /** Energy of the days that have a baseline: what savings are measured on. */
    energyWithBaselineKwh: doublePrecision(),
    burnHours: doublePrecision().notNull(),
    days: integer().notNull(),
    meteredDays: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.month] }), index().on(t.accountId, t.month)],
);

/**
 * How far the energy engine has rolled each account's readings up: every reading before
 * `rolledUntil` is counted in `energy_daily` (readings are taken in windows of their time, so a
 * reading that arrives later than that is counted when its day is repaired). `repairedThrough` is the
 * last lighting day recomputed whole after it closed.
 */
export const energyRollupMarks = pgTable('energy_rollup_marks', {
  accountId: bigint({ mode: 'number' })
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  rolledUntil: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  repairedThrough: date({ mode: 'string' }),
});
