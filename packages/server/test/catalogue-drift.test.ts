import { catalogue, type FieldKind } from '@lampyr/contract';
import { getTableColumns } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { internalColumns, resourceTables } from '../src/db/schema/index.ts';

/** The column types each field kind may be stored in. */
const STORAGE: Record<FieldKind, string[]> = {
  text: ['PgText'],
  longText: ['PgText'],
  email: ['PgText'],
  phone: ['PgText'],
  url: ['PgText'],
  color: ['PgText'],
  image: ['PgText'],
  enum: ['PgText'],
  integer: ['PgInteger', 'PgBigInt53'],
  number: ['PgDoublePrecision', 'PgReal', 'PgNumeric'],
  boolean: ['PgBoolean'],
  reference: ['PgBigInt53'],
  date: ['PgDateString'],
  datetime: ['PgTimestamp'],
  time: ['PgTime'],
  json: ['PgJsonb'],
  secret: ['PgText'],
};

const SYSTEM = ['id', 'createdAt', 'updatedAt'];

describe('catalogue and tables stay in step', () => {
  for (const resource of catalogue) {
    it(resource.name, () => {
      const table = resourceTables[resource.name];
      expect(table, `${resource.name} has no table`).toBeDefined();
      const columns = getTableColumns(table as never) as Record<string, PgColumn>;
      for (const name of SYSTEM) expect(columns[name], `${resource.name}.${name}`).toBeDefined();
      if (resource.scope === 'account')
        expect(columns.accountId?.notNull, `${resource.name}.accountId NOT NULL`).toBe(true);
      const expected = new Set([
        ...SYSTEM,
        ...(resource.scope === 'account' ? ['accountId'] : []),
        ...(internalColumns[resource.name] ?? []),
      ]);
      for (const [name, field] of Object.entries(resource.fields)) {
        // A virtual field is worked out per request; it has no column, and nothing may write it.
        if (field.virtual) {
          expect(columns[name], `${resource.name}.${name} is virtual`).toBeUndefined();
          expect(field.readOnly, `${resource.name}.${name} virtual and read-only`).toBe(true);
          continue;
        }
        const columnName =
          field.kind !== 'secret' ? name : field.secret === 'hash' ? `${name}Hash` : `${name}Encrypted`;
        const column = columns[columnName];
        expect(column, `${resource.name}.${name} has no column`).toBeDefined();
        expect(STORAGE[field.kind], `${resource.name}.${name}: ${field.kind} in ${column?.columnType}`).toContain(
          column?.columnType,
        );
        // A required field is NOT NULL, unless a default fills it (booleans).
        if (field.required && !field.readOnly) expect(column?.notNull, `${resource.name}.${name} NOT NULL`).toBe(true);
        expected.add(columnName);
      }
      const extra = Object.keys(columns).filter((c) => !expected.has(c));
      expect(extra, `${resource.name} has columns the catalogue does not know`).toEqual([]);
    });
  }

  it('every reference names a resource of the catalogue', () => {
    const names = new Set(catalogue.map((r) => r.name));
    for (const resource of catalogue) {
      for (const [name, field] of Object.entries(resource.fields)) {
        if (field.kind === 'reference')
          expect(names.has(field.ref as string), `${resource.name}.${name} → ${field.ref}`).toBe(true);
      }
    }
  });
});
