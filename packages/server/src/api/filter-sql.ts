import {
  type Condition,
  type FieldDef,
  type FieldKind,
  NUMERIC_KINDS,
  type ResourceDef,
  TEXT_KINDS,
  TIME_KINDS,
} from '@lampyr/contract';
import {
  and,
  asc,
  between,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  not,
  notInArray,
  or,
  type SQL,
} from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { badValue, invalidField } from './errors.ts';

/** A field a client may read, filter and sort by: its column and its kind. */
export interface QueryField {
  column: PgColumn;
  kind: FieldKind;
}

const systemKinds: Record<string, FieldKind> = {
  id: 'integer',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  accountId: 'reference',
};

/** The fields of a resource a request may name, mapped to their columns. Secrets are not among them. */
export function queryFields(resource: ResourceDef, columns: Record<string, PgColumn>): Map<string, QueryField> {
  const map = new Map<string, QueryField>();
  for (const [name, kind] of Object.entries(systemKinds)) {
    const column = columns[name];
    if (column && (name !== 'accountId' || resource.scope === 'account')) map.set(name, { column, kind });
  }
  for (const [name, def] of Object.entries(resource.fields) as [string, FieldDef][]) {
    const column = columns[name];
    if (def.kind !== 'secret' && column) map.set(name, { column, kind: def.kind });
  }
  return map;
}

function resolve(fields: Map<string, QueryField>, name: string): QueryField {
  const found = fields.get(name);
  if (!found) throw invalidField(name);
  return found;
}

/** Turns a JSON filter value into what the column compares with, or refuses it with a 400. */
function coerce(name: string, kind: FieldKind, value: unknown): unknown {
  if (NUMERIC_KINDS.includes(kind)) {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw badValue(name, 'expected a number');
    return n;
  }
  if (kind === 'boolean') {
    if (value === 'true' || value === true) return true;
    if (value === 'false' || value === false) return false;
    throw badValue(name, 'expected true or false');
  }
  if (kind === 'datetime') {
    const d = typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
    if (!d || Number.isNaN(d.getTime())) throw badValue(name, 'expected an ISO-8601 date and time');
    return d;
  }
  if (kind === 'json') throw badValue(name, 'only isNull and isNotNull apply');
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw badValue(name, 'expected a single value');
}

function list(name: string, kind: FieldKind, value: unknown, exactly?: number): unknown[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 1000) {
    throw badValue(name, exactly ? `expected [from, to]` : 'expected a list of 1 to 1000 values');
  }
  if (exactly && value.length !== exactly) throw badValue(name, 'expected [from, to]');
  return value.map((v) => coerce(name, kind, v));
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function textPattern(name: string, kind: FieldKind, value: unknown): string {
  if (!TEXT_KINDS.includes(kind)) throw badValue(name, 'contains and startsWith apply to text fields');
  return escapeLike(String(coerce(name, kind, value)));
}

export function conditionSql(fields: Map<string, QueryField>, c: Condition): SQL {
  const { column, kind } = resolve(fields, c.field);
  const v = c.value;
  switch (c.operator) {
    case 'isNull':
      return isNull(column);
    case 'isNotNull':
      return isNotNull(column);
    case 'eq':
      return v === null ? isNull(column) : eq(column, coerce(c.field, kind, v));
    case 'ne':
      return v === null ? isNotNull(column) : ne(column, coerce(c.field, kind, v));
    case 'gt':
      return gt(column, coerce(c.field, kind, v));
    case 'gte':
      return gte(column, coerce(c.field, kind, v));
    case 'lt':
      return lt(column, coerce(c.field, kind, v));
    case 'lte':
      return lte(column, coerce(c.field, kind, v));
    case 'between': {
      const [from, to] = list(c.field, kind, v, 2);
      return between(column, from, to);
    }
    case 'notBetween': {
      const [from, to] = list(c.field, kind, v, 2);
      return not(between(column, from, to));
    }
    case 'in':
      return inArray(column, list(c.field, kind, v));
    case 'notIn':
      return notInArray(column, list(c.field, kind, v));
    case 'contains':
      return ilike(column, `%${textPattern(c.field, kind, v)}%`);
    case 'startsWith':
      return ilike(column, `${textPattern(c.field, kind, v)}%`);
  }
}

/** The `filter` object of SPEC §7: field → value (equal) or list (one of); `q` searches text. */
export function filterObjectSql(
  resource: ResourceDef,
  fields: Map<string, QueryField>,
  filter: Record<string, unknown> | null | undefined,
): SQL[] {
  if (!filter) return [];
  const parts: SQL[] = [];
  for (const [name, value] of Object.entries(filter)) {
    if (name === 'q') {
      const text = typeof value === 'string' ? value.trim() : '';
      if (text) parts.push(textSearchSql(resource, fields, text));
      continue;
    }
    if (value === undefined) continue;
    const operator = Array.isArray(value) ? 'in' : 'eq';
    parts.push(conditionSql(fields, { field: name, operator, value: value as Condition['value'] }));
  }
  return parts;
}

function textSearchSql(resource: ResourceDef, fields: Map<string, QueryField>, text: string): SQL {
  const searchable = Object.entries(resource.fields)
    .filter(([, f]) => f.search)
    .map(([name]) => resolve(fields, name).column);
  const pattern = `%${escapeLike(text)}%`;
  const matches = searchable.map((column) => ilike(column, pattern));
  if (/^\d+$/.test(text)) matches.push(eq(resolve(fields, 'id').column, Number(text)));
  return or(...matches) ?? eq(resolve(fields, 'id').column, -1);
}

export function combine(parts: (SQL | undefined)[], logic: 'AND' | 'OR' = 'AND'): SQL | undefined {
  const present = parts.filter((p): p is SQL => p !== undefined);
  if (present.length === 0) return undefined;
  return logic === 'OR' ? or(...present) : and(...present);
}

/** `["name,asc"]` → ORDER BY, always ending with id so pages never overlap. */
export function orderSql(fields: Map<string, QueryField>, sort: string[], fallback: string): SQL[] {
  const entries = sort.length ? sort : [fallback];
  const order: SQL[] = [];
  let hasId = false;
  for (const entry of entries) {
    const [name = '', dir = 'asc'] = entry.split(',');
    const { column, kind } = resolve(fields, name);
    if (kind === 'json') throw badValue(name, 'cannot sort by this field');
    order.push(dir.toLowerCase() === 'desc' ? desc(column) : asc(column));
    if (name === 'id') hasId = true;
  }
  if (!hasId) order.push(asc(resolve(fields, 'id').column));
  return order;
}

export const isTimeKind = (kind: FieldKind) => TIME_KINDS.includes(kind);
