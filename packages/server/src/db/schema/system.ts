import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { recordColumns, refColumn } from './columns.ts';
import { resourceTable } from './resource-table.ts';

export const accounts = resourceTable(
  'accounts',
  pgTable(
    'accounts',
    {
      ...recordColumns(),
      accountId: refColumn().references((): AnyPgColumn => accounts.id),
      isSubAccount: boolean().notNull().default(false),
      isActive: boolean().notNull().default(true),
      isIntegrator: boolean().notNull().default(false),
      name: text().notNull(),
      companyName: text(),
      email: text(),
      phone: text(),
      web: text(),
      logoImage: text(),
      backgroundColor: text(),
      backgroundImage: text(),
      tariffPerKwh: doublePrecision(),
      currency: text(),
      emissionFactor: doublePrecision(),
      timeZone: text(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

/** The owning account of an account-scoped record. */
export function accountColumn() {
  return refColumn()
    .notNull()
    .references(() => accounts.id);
}

/** The columns of every account-scoped record. */
export const scopedColumns = () => ({ ...recordColumns(), accountId: accountColumn() });

export const roles = resourceTable(
  'roles',
  pgTable('roles', {
    ...recordColumns(),
    name: text().notNull().unique(),
    permissions: jsonb().notNull(),
  }),
);

export const users = resourceTable(
  'users',
  pgTable('users', {
    ...recordColumns(),
    title: text(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull().unique(),
    phoneNumber: text(),
    passwordHash: text(),
    language: text(),
    picture: text(),
    roleId: refColumn()
      .notNull()
      .references(() => roles.id),
    emailVerified: boolean().notNull().default(false),
    /** May change the account tree and shared reference data; granted only by another platform operator. */
    isPlatformOperator: boolean().notNull().default(false),
    /** A new address waiting for the code sent to it (change of e-mail). */
    pendingEmail: text(),
    /** In every token; bumping it revokes the user's tokens, refresh credentials and streams. */
    tokenVersion: integer().notNull().default(0),
  }),
);

export const usersRoles = resourceTable(
  'users-roles',
  pgTable(
    'users_roles',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      userId: refColumn()
        .notNull()
        .references(() => users.id),
      roleId: refColumn()
        .notNull()
        .references(() => roles.id),
    },
    (t) => [uniqueIndex().on(t.accountId, t.userId), index().on(t.userId)],
  ),
);

export const countries = resourceTable(
  'countries',
  pgTable('countries', {
    ...recordColumns(),
    name: text().notNull().unique(),
    timeZone: text(),
    isoCode: text(),
  }),
);

export const states = resourceTable(
  'states',
  pgTable(
    'states',
    {
      ...recordColumns(),
      name: text().notNull(),
      countryId: refColumn()
        .notNull()
        .references(() => countries.id),
    },
    (t) => [index().on(t.countryId)],
  ),
);

export const cities = resourceTable(
  'cities',
  pgTable(
    'cities',
    {
      ...recordColumns(),
      name: text().notNull(),
      stateId: refColumn()
        .notNull()
        .references(() => states.id),
      countryId: refColumn()
        .notNull()
        .references(() => countries.id),
      latitude: doublePrecision().notNull(),
      longitude: doublePrecision().notNull(),
      timeZone: text(),
    },
    (t) => [index().on(t.stateId)],
  ),
);

/** Where a record is: its city, state and country. */
const placeColumns = () => ({
  cityId: refColumn()
    .notNull()
    .references(() => cities.id),
  stateId: refColumn()
    .notNull()
    .references(() => states.id),
  countryId: refColumn()
    .notNull()
    .references(() => countries.id),
});

export const addresses = resourceTable(
  'addresses',
  pgTable(
    'addresses',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      name: text().notNull(),
      address: text().notNull(),
      street: text(),
      neighbourhood: text(),
      postalCode: text(),
      ...placeColumns(),
    },
    (t) => [
      index().on(t.accountId, t.cityId, t.name),
      index().on(t.accountId, t.street, t.name),
      index().on(t.accountId, t.name),
    ],
  ),
);

export const regions = resourceTable(
  'regions',
  pgTable(
    'regions',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      name: text().notNull(),
      district: text(),
      districtLatitude: doublePrecision(),
      districtLongitude: doublePrecision(),
      ...placeColumns(),
      address: text(),
      notes: text(),
    },
    (t) => [index().on(t.accountId, t.name)],
  ),
);

export const sunsetSunrises = resourceTable(
  'sunsetsunrises',
  pgTable(
    'sunset_sunrises',
    {
      ...recordColumns(),
      date: date({ mode: 'string' }).notNull(),
      sunrise: time(),
      sunset: time(),
      dawn: time(),
      dusk: time(),
      nauticalDawn: time(),
      nauticalDusk: time(),
      polarDay: boolean().notNull().default(false),
      polarNight: boolean().notNull().default(false),
      timeZone: text(),
      ...placeColumns(),
      // Computed rows go with their city.
      cityId: refColumn()
        .notNull()
        .references(() => cities.id, { onDelete: 'cascade' }),
    },
    (t) => [uniqueIndex().on(t.cityId, t.date)],
  ),
);

export const systemLogSettings = resourceTable(
  'system-log-settings',
  pgTable(
    'system_log_settings',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      name: text().notNull(),
      level: text().notNull(),
      retentionDays: integer().notNull(),
      isActive: boolean().notNull().default(true),
    },
    (t) => [index().on(t.accountId)],
  ),
);

/** The audit trail: no foreign keys, so it outlives what it describes. */
export const transactionLogs = resourceTable(
  'transaction-logs',
  pgTable(
    'transaction_logs',
    {
      ...recordColumns(),
      accountId: refColumn().notNull(),
      userId: refColumn(),
      resource: text().notNull(),
      action: text().notNull(),
      recordId: bigint({ mode: 'number' }),
      before: jsonb(),
      after: jsonb(),
    },
    (t) => [index().on(t.accountId, t.createdAt)],
  ),
);

/** One-time codes for e-mail verification and password reset, kept as hashes. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: refColumn()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().notNull(),
    codeHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer().notNull().default(0),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index().on(t.userId, t.purpose)],
);
