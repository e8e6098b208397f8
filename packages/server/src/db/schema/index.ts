import type { PgTable } from 'drizzle-orm/pg-core';
import * as system from './system.ts';

export * from './system.ts';

/** The table behind each catalogue resource, by resource name. */
export const resourceTables: Record<string, PgTable> = {
  accounts: system.accounts,
  roles: system.roles,
  users: system.users,
  'users-roles': system.usersRoles,
  countries: system.countries,
  states: system.states,
  cities: system.cities,
  addresses: system.addresses,
  regions: system.regions,
  sunsetsunrises: system.sunsetSunrises,
  'system-log-settings': system.systemLogSettings,
  'transaction-logs': system.transactionLogs,
};
