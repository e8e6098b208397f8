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
import { badValue, invalidField } from '../errors/api-exception.ts';

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

/**
 * A WHERE clause planned before it is written: its shape (fields, operators, how many values) and
 * its values are known first, so a clause of a shape seen before reuses its prepared statement and
 * only the values travel. A node writes its SQL given `bind`, which yields for the n-th value either
 * a placeholder (prepared) or the value itself (direct).
 */
export type WhereNode = (bind: (index: number) => unknown) => SQL | undefined;

export class WherePlan {
  readonly values: unknown[] = [];
  private readonly tokens: string[] = [];

  /** Identifies the clause's shape: equal keys, same SQL text. */
  get key(): string {
    return this.tokens.join('|');
  }

  leaf(token: string, values: unknown[], write: (bound: unknown[]) => SQL): WhereNode {
    const start = this.values.length;
    this.values.push(...values);
    this.tokens.push(`${token}/${values.length}`);
    return (bind) => write(values.map((_, i) => bind(start + i)));
  }

  group(logic: 'AND' | 'OR', nodes: (WhereNode | undefined)[]): WhereNode {
    const present = nodes.filter((n): n is WhereNode => n !== undefined);
    this.tokens.push(`${logic}(${present.length})`);
    return (bind) =>
      combine(
        present.map((n) => n(bind)),
        logic,
      );
  }
}

export const bindValues =
  (plan: WherePlan) =>
  (index: number): unknown =>
    plan.values[index];

/** A value as a comparison takes it: the value itself or a placeholder. */
type Bound = Parameters<typeof eq>[1];

export function conditionNode(plan: WherePlan, fields: Map<string, QueryField>, c: Condition): WhereNode {
  const { column, kind } = resolve(fields, c.field);
  const v = c.value;
  const token = `${c.field}:${c.operator}`;
  const one = (write: (b: Bound) => SQL) => plan.leaf(token, [coerce(c.field, kind, v)], ([b]) => write(b as Bound));
  switch (c.operator) {
    case 'isNull':
      return plan.leaf(token, [], () => isNull(column));
    case 'isNotNull':
      return plan.leaf(token, [], () => isNotNull(column));
    case 'eq':
      return v === null ? plan.leaf(`${c.field}:isNull`, [], () => isNull(column)) : one((b) => eq(column, b));
    case 'ne':
      return v === null ? plan.leaf(`${c.field}:isNotNull`, [], () => isNotNull(column)) : one((b) => ne(column, b));
    case 'gt':
      return one((b) => gt(column, b));
    case 'gte':
      return one((b) => gte(column, b));
    case 'lt':
      return one((b) => lt(column, b));
    case 'lte':
      return one((b) => lte(column, b));
    case 'between':
      return plan.leaf(token, list(c.field, kind, v, 2), ([from, to]) => between(column, from as Bound, to as Bound));
    case 'notBetween':
      return plan.leaf(token, list(c.field, kind, v, 2), ([from, to]) =>
        not(between(column, from as Bound, to as Bound)),
      );
    case 'in':
      return plan.leaf(token, list(c.field, kind, v), (bound) => inArray(column, bound as Bound[]));
    case 'notIn':
      return plan.leaf(token, list(c.field, kind, v), (bound) => notInArray(column, bound as Bound[]));
    case 'contains':
      return plan.leaf(token, [`%${textPattern(c.field, kind, v)}%`], ([b]) => ilike(column, b as string));
    case 'startsWith':
      return plan.leaf(token, [`${textPattern(c.field, kind, v)}%`], ([b]) => ilike(column, b as string));
  }
}

/** The `filter` object of SPEC §7: field → value (equal) or list (one of); `q` searches text. */
export function filterObjectNodes(
  plan: WherePlan,
  resource: ResourceDef,
  fields: Map<string, QueryField>,
  filter: Record<string, unknown> | null | undefined,
): WhereNode[] {
  if (!filter) return [];
  const nodes: WhereNode[] = [];
  for (const [name, value] of Object.entries(filter)) {
    if (name === 'q') {
      const text = typeof value === 'string' ? value.trim() : '';
      if (text) nodes.push(textSearchNode(plan, resource, fields, text));
      continue;
    }
    if (value === undefined) continue;
    const operator = Array.isArray(value) ? 'in' : 'eq';
    nodes.push(conditionNode(plan, fields, { field: name, operator, value: value as Condition['value'] }));
  }
  return nodes;
}

function textSearchNode(
  plan: WherePlan,
  resource: ResourceDef,
  fields: Map<string, QueryField>,
  text: string,
): WhereNode {
  const searchable = Object.entries(resource.fields)
    .filter(([, f]) => f.search)
    .map(([name]) => resolve(fields, name).column);
  const id = resolve(fields, 'id').column;
  const values: unknown[] = [`%${escapeLike(text)}%`];
  if (/^\d{1,15}$/.test(text)) values.push(Number(text));
  return plan.leaf('q', values, ([pattern, number]) => {
    const matches = searchable.map((column) => ilike(column, pattern as string));
    if (number !== undefined) matches.push(eq(id, number as Bound));
    return or(...matches) ?? eq(id, -1);
  });
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

/**
 * The tightest range that conditions joined by AND put on a date-time field, in epoch ms; a side
 * nothing bounds is absent. (Values that are not dates are left to `conditionNode` to refuse.)
 */
export function timeBounds(field: string, conditions: readonly Condition[]): { from?: number; to?: number } {
  let from: number | undefined;
  let to: number | undefined;
  const atLeast = (v: unknown) => {
    const ms = timeOf(v);
    if (ms !== undefined) from = from === undefined ? ms : Math.max(from, ms);
  };
  const atMost = (v: unknown) => {
    const ms = timeOf(v);
    if (ms !== undefined) to = to === undefined ? ms : Math.min(to, ms);
  };
  for (const c of conditions) {
    if (c.field !== field) continue;
    const v = c.value;
    if (c.operator === 'between' && Array.isArray(v) && v.length === 2) {
      atLeast(v[0]);
      atMost(v[1]);
    } else if (c.operator === 'gte' || c.operator === 'gt') atLeast(v);
    else if (c.operator === 'lte' || c.operator === 'lt') atMost(v);
    else if (c.operator === 'eq' || c.operator === 'in') {
      const times = (Array.isArray(v) ? v : [v]).map(timeOf);
      if (times.length && times.every((t) => t !== undefined)) {
        atLeast(Math.min(...(times as number[])));
        atMost(Math.max(...(times as number[])));
      }
    }
  }
  return { from, to };
}

function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

export const isTimeKind = (kind: FieldKind) => TIME_KINDS.includes(kind);
