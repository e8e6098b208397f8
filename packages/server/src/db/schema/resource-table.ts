import type { PgTable } from 'drizzle-orm/pg-core';

const registry: Record<string, PgTable> = {};

/**
 * Marks a table as the storage of a catalogue resource. Declaring it beside the table keeps adding
 * an entity to its definition, its table, its migration and its translations.
 */
export function resourceTable<T extends PgTable>(resource: string, table: T): T {
  registry[resource] = table;
  return table;
}

/** The table behind each catalogue resource, by resource name. */
export const resourceTables: Readonly<Record<string, PgTable>> = registry;
