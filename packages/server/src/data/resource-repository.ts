import {
  type AggregateBody,
  type AggregateResult,
  BUCKETS,
  CONSTANTS,
  type Condition,
  checkRules,
  type FieldError,
  type ListBody,
  NUMERIC_KINDS,
  type ResourceDef,
  referencesTo,
  type ServiceSearch,
  validateRecord,
} from '@lampyr/contract';
import { and, count, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TFunction } from 'i18next';
import type { Actor } from '../access/access.ts';
import { hashSecret } from '../auth/passwords.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { Db } from '../db/connect.ts';
import { transactionLogs, usersRoles } from '../db/schema/index.ts';
import { ApiException, badValue, invalidField, notFound } from '../errors/api-exception.ts';
import { fieldLabel } from '../i18n/translate.ts';
import {
  bindValues,
  conditionNode,
  filterObjectNodes,
  orderSql,
  type QueryField,
  queryFields,
  timeBounds,
  type WhereNode,
  WherePlan,
} from './filter-sql.ts';
import { withFastRows } from './row-mapper.ts';

type Row = Record<string, unknown>;
export type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

const SERVER_SET = new Set(['id', 'createdAt', 'updatedAt', 'accountId']);

/** A prepared statement's placeholder names (`v0`, `v1`, …), made once rather than on every call. */
const PLACEHOLDERS: string[] = [];
const placeholderName = (index: number): string => {
  let name = PLACEHOLDERS[index];
  if (name === undefined) {
    name = `v${index}`;
    PLACEHOLDERS[index] = name;
  }
  return name;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Prepared statements kept per resource; names are never reused, so a connection never sees one name twice. */
const PREPARED_LIMIT = 200;
let nextStatement = 0;
type Prepared = { execute(params: Record<string, unknown>): Promise<unknown> };

/** Generic list/get/search/aggregate/create/update/delete for one catalogue resource. */
export class ResourceRepository {
  readonly fields: Map<string, QueryField>;
  private readonly prepared = new Map<string, { page: Prepared; count: Prepared }>();
  private readonly columns: Record<string, PgColumn>;
  private readonly selection: Record<string, PgColumn>;
  /** The full selection's columns, as a statement's key names them. */
  private readonly selectionKey: string;

  constructor(
    private readonly db: Db,
    readonly resource: ResourceDef,
    readonly table: PgTable,
    private readonly registry: Map<string, ResourceRepository>,
    private readonly options: RepositoryOptions,
  ) {
    this.columns = getTableColumns(table) as Record<string, PgColumn>;
    this.fields = queryFields(resource, this.columns);
    this.selection = Object.fromEntries([...this.fields].map(([name, f]) => [name, f.column]));
    this.selectionKey = Object.keys(this.selection).join(',');
  }

  private column(name: string): PgColumn {
    const column = this.columns[name];
    if (!column) throw new Error(`${this.resource.name} has no column ${name}`);
    return column;
  }

  /** The one place where a call is confined to what its account may see. */
  scopeNode(plan: WherePlan, actor: Actor): WhereNode | undefined {
    const accountId = actor.account?.accountId ?? -1;
    switch (this.resource.scope) {
      case 'global':
        return undefined;
      case 'account':
        return plan.leaf('scope', [accountId], ([id]) => eq(this.column('accountId'), id));
      case 'accounts': {
        const ids = actor.accessibleAccountIds.length ? actor.accessibleAccountIds : [-1];
        return plan.leaf('scope', ids, (bound) => inArray(this.column('id'), bound));
      }
      // The people who act in the account (access.ts): its members, and the members of its active
      // integrator when it is an active sub-account (the integrator's staff).
      case 'members':
        return plan.leaf(
          'scope',
          [accountId],
          ([id]) => sql`EXISTS (SELECT 1 FROM users_roles m WHERE m.user_id = ${this.column('id')} AND (
            m.account_id = ${id} OR m.account_id IN (SELECT p.id FROM accounts c JOIN accounts p ON p.id = c.account_id
              WHERE c.id = ${id} AND c.is_active AND p.is_active AND p.is_integrator)))`,
        );
    }
  }

  /**
   * The account filter for `actor` as SQL on this resource's table, for a query written outside the
   * repository (the dashboard's counts): the same scope every list, search and count uses.
   */
  scope(actor: Actor): SQL | undefined {
    const plan = new WherePlan();
    const node = this.scopeNode(plan, actor);
    return node?.(bindValues(plan));
  }

  /** This record, if the caller may see it. */
  private byId(actor: Actor, id: number): SQL | undefined {
    const plan = new WherePlan();
    const where = plan.group('AND', [
      plan.leaf('id', [id], ([v]) => eq(this.column('id'), v)),
      this.scopeNode(plan, actor),
    ]);
    return where(bindValues(plan));
  }

  private projection(selectedColumns: Record<string, boolean> | null | undefined): Record<string, PgColumn> {
    if (!selectedColumns) return this.selection;
    const chosen: Record<string, PgColumn> = { id: this.column('id') };
    for (const [name, wanted] of Object.entries(selectedColumns)) {
      if (this.resource.fields[name]?.virtual) continue;
      const f = this.fields.get(name);
      if (!f) throw invalidField(name);
      if (wanted) chosen[name] = f.column;
    }
    return chosen;
  }

  /** Works out the virtual fields of the rows (those chosen, or all when no columns are chosen). */
  private async withVirtual(
    actor: Actor,
    rows: Row[],
    selectedColumns?: Record<string, boolean> | null,
    executor: Executor = this.db,
  ): Promise<Row[]> {
    const fields = this.options.virtualFields?.[this.resource.name] ?? {};
    for (const [name, compute] of Object.entries(fields)) {
      if (selectedColumns && !selectedColumns[name]) continue;
      if (rows.length) await compute(executor, actor, rows, name);
    }
    return rows;
  }

  /**
   * Runs a page and its count. Statements are prepared once per shape of request (resource, clause
   * shape, sort, columns); later requests of that shape send only their values.
   */
  private async page(
    actor: Actor,
    plan: WherePlan,
    where: WhereNode,
    sort: string[],
    selectedColumns: Record<string, boolean> | null | undefined,
    offset: number,
    size: number,
    forJson = false,
  ) {
    const projection = this.projection(selectedColumns);
    const columns = projection === this.selection ? this.selectionKey : Object.keys(projection).join(',');
    const key = `${plan.key}#${sort.join(';')}#${columns}${forJson ? '#json' : ''}`;
    let statements = this.prepared.get(key);
    if (!statements) {
      const clause = where((index) => sql.placeholder(placeholderName(index)));
      const order = orderSql(this.fields, sort, this.resource.defaultSort);
      const name = `${this.resource.name.replace(/-/g, '_')}_${nextStatement++}`;
      statements = {
        page: this.db
          .select(projection)
          .from(this.table)
          .where(clause)
          .orderBy(...order)
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset'))
          .prepare(name),
        count: this.db.select({ n: count() }).from(this.table).where(clause).prepare(`${name}_count`),
      };
      withFastRows(statements.page, { isoTimestamps: forJson });
      if (this.prepared.size >= PREPARED_LIMIT) this.prepared.delete(this.prepared.keys().next().value as string);
      this.prepared.set(key, statements);
    }
    const params: Record<string, unknown> = { limit: size, offset };
    plan.values.forEach((value, index) => {
      params[placeholderName(index)] = value;
    });
    const [content, total] = await Promise.all([statements.page.execute(params), statements.count.execute(params)]);
    return {
      content: await this.withVirtual(actor, content as Row[], selectedColumns),
      totalElements: (total as { n: number }[])[0]?.n ?? 0,
    };
  }

  /**
   * SPEC §7 list and search bodies; `base` is 1 for the list call and 0 for search. `forJson`: the
   * page goes straight into a JSON answer, so its timestamps come as the ISO text the answer writes.
   */
  list(actor: Actor, body: ListBody, base: 0 | 1, { forJson = false } = {}) {
    const { page, size, sort } = body.pageable;
    if (page < base) throw new ApiException('BAD_REQUEST', 'errors.listPageBase');
    const { plan, where } = this.listWhere(actor, body);
    return this.page(actor, plan, where, sort, body.selectedColumns, (page - base) * size, size, forJson);
  }

  /** Every row a list body selects, up to `limit` (exports). */
  async listAll(actor: Actor, body: ListBody, limit: number): Promise<Row[]> {
    const { plan, where } = this.listWhere(actor, body);
    return (await this.page(actor, plan, where, body.pageable.sort, body.selectedColumns, 0, limit)).content;
  }

  /** The list body's clause: the account scope, the `filter` object and the detail conditions. */
  private listWhere(actor: Actor, body: ListBody) {
    const plan = new WherePlan();
    const field = this.resource.timeWindow;
    const inFilter = field === undefined ? undefined : body.filter?.[field];
    const window = this.timeWindow(plan, [
      ...(body.detailFilter ?? []),
      ...(field && inFilter !== undefined && inFilter !== null
        ? [{ field, operator: Array.isArray(inFilter) ? 'in' : 'eq', value: inFilter } as Condition]
        : []),
    ]);
    const where = plan.group('AND', [
      this.scopeNode(plan, actor),
      ...filterObjectNodes(plan, this.resource, this.fields, body.filter),
      ...(body.detailFilter ?? []).map((c) => conditionNode(plan, this.fields, c)),
      ...window,
    ]);
    return { plan, where };
  }

  /**
   * Readings and data logs grow without end, so no call over them scans (or counts) all of
   * history: a range on the resource's time field wider than `timeWindowMaxDays` is refused, and a
   * side left open is closed at that many days from the other (from now back, with none) — so a
   * client written from SPEC §7 alone (the sub-channel pairing search names no time) still works.
   * Conditions joined by OR bound nothing unless there is only one.
   */
  private timeWindow(plan: WherePlan, conditions: readonly Condition[], logic: 'AND' | 'OR' = 'AND'): WhereNode[] {
    const field = this.resource.timeWindow;
    if (!field) return [];
    const { from, to } = timeBounds(field, logic === 'AND' || conditions.length === 1 ? conditions : []);
    const span = CONSTANTS.timeWindowMaxDays * DAY_MS;
    if (from !== undefined && to !== undefined) {
      if (to - from > span)
        throw new ApiException(
          'BAD_REQUEST',
          'errors.timeRangeTooWide',
          { days: CONSTANTS.timeWindowMaxDays },
          undefined,
          { resource: this.resource.name, field },
        );
      return [];
    }
    const iso = (ms: number) => new Date(ms).toISOString();
    if (from !== undefined)
      return [conditionNode(plan, this.fields, { field, operator: 'lte', value: iso(from + span) })];
    return [conditionNode(plan, this.fields, { field, operator: 'gte', value: iso((to ?? Date.now()) - span) })];
  }

  /** The search service's body: conditions joined by `logic`, page from 0. */
  search(actor: Actor, body: ServiceSearch, { forJson = false } = {}) {
    const plan = new WherePlan();
    const where = plan.group('AND', [
      this.scopeNode(plan, actor),
      this.conditions(plan, body.filters, body.logic),
      ...this.timeWindow(plan, body.filters, body.logic),
    ]);
    const direction = body.sortDirection.toLowerCase();
    const sort = [`${body.sortBy ?? 'id'},${direction}`];
    return this.page(actor, plan, where, sort, null, body.page * body.size, body.size, forJson);
  }

  private conditions(plan: WherePlan, filters: Condition[], logic: 'AND' | 'OR'): WhereNode {
    return plan.group(
      logic,
      filters.map((c) => conditionNode(plan, this.fields, c)),
    );
  }

  async get(actor: Actor, id: number, executor: Executor = this.db): Promise<Row> {
    const rows = await executor.select(this.selection).from(this.table).where(this.byId(actor, id)).limit(1);
    if (!rows[0]) throw notFound();
    return (await this.withVirtual(actor, rows as Row[], null, executor))[0] as Row;
  }

  async visible(actor: Actor, id: number, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor
      .select({ id: this.column('id') })
      .from(this.table)
      .where(this.byId(actor, id))
      .limit(1);
    return rows.length > 0;
  }

  /** Counts, sums and averages, optionally per group and per time bucket (what charts use). */
  async aggregate(actor: Actor, body: AggregateBody): Promise<AggregateResult<Row>> {
    const select: Record<string, SQL.Aliased> = {};
    const groups: SQL[] = [];
    for (const g of body.groupBy) {
      const name = typeof g === 'string' ? g : g.field;
      const f = this.fields.get(name);
      if (!f) throw invalidField(name);
      let expr: SQL;
      let decode: (v: unknown) => unknown;
      if (typeof g === 'string') {
        expr = sql`${f.column}`;
        decode = (v) => f.column.mapFromDriverValue(v);
      } else {
        if (f.kind !== 'datetime') throw badValue(name, 'time buckets apply to date-time fields');
        // The interval comes from the fixed BUCKETS table, never from the request text.
        expr = sql`date_bin(${sql.raw(`'${BUCKETS[g.interval]}'`)}::interval, ${f.column}, timestamptz '2000-01-01')`;
        decode = (v) => new Date(v as string);
      }
      select[name] = sql`${expr}`.mapWith(decode).as(name);
      groups.push(expr);
    }
    for (const a of body.aggregations) {
      const f = this.fields.get(a.field);
      if (!f) throw invalidField(a.field);
      const alias = a.as ?? `${a.fn}${a.field[0]?.toUpperCase()}${a.field.slice(1)}`;
      if (alias in select) throw badValue(alias, 'duplicate output name');
      if (a.fn === 'count') select[alias] = sql<number>`count(${f.column})::int`.mapWith(Number).as(alias);
      else {
        const numeric = NUMERIC_KINDS.includes(f.kind) && f.kind !== 'reference';
        const ordered = numeric || f.kind === 'datetime' || f.kind === 'date';
        if (!(a.fn === 'min' || a.fn === 'max' ? ordered : numeric))
          throw badValue(a.field, `${a.fn} needs a number field`);
        const fn = sql.raw(a.fn);
        select[alias] = numeric
          ? sql<number>`${fn}(${f.column})::double precision`.mapWith(Number).as(alias)
          : sql`${fn}(${f.column})`.as(alias);
      }
    }
    const plan = new WherePlan();
    const where = plan.group('AND', [
      this.scopeNode(plan, actor),
      this.conditions(plan, body.filters, body.logic),
      ...this.timeWindow(plan, body.filters, body.logic),
    ]);
    let query = this.db
      .select(select)
      .from(this.table)
      .where(where(bindValues(plan)))
      .$dynamic();
    if (groups.length) query = query.groupBy(...groups).orderBy(...groups);
    const rows = await query.limit(10_000);
    return { rows: rows as Row[] };
  }

  // ─── commands ──────────────────────────────────────────────────────────────

  private validate(input: Row, mode: 'create' | 'update', t: TFunction): Row {
    for (const key of Object.keys(input)) {
      if (!(key in this.resource.fields) && !SERVER_SET.has(key)) throw invalidField(key);
    }
    const result = validateRecord(this.resource, input, mode);
    if (result.ok) return result.value;
    throw new ApiException('VALIDATION', undefined, {}, this.translate(result.errors, t));
  }

  /** A reference must point at a record the caller can see: no writing across accounts. */
  private async checkReferences(actor: Actor, value: Row, t: TFunction, executor: Executor): Promise<void> {
    const fields: Record<string, string> = {};
    for (const [name, def] of Object.entries(this.resource.fields)) {
      const id = value[name];
      if (def.kind !== 'reference' || typeof id !== 'number' || !def.ref) continue;
      const target = this.registry.get(def.ref);
      if (target && !(await target.visible(actor, id, executor))) {
        fields[name] = t('validation.notFound', { field: fieldLabel(t, this.resource.name, name) });
      }
    }
    if (Object.keys(fields).length) throw new ApiException('VALIDATION', undefined, {}, fields);
  }

  /**
   * Catalogue values → column values: a password is hashed into `<name>Hash`, a secret Lampyr must
   * use again is sealed into `<name>Encrypted`. Neither is ever selected back out.
   */
  private async toColumns(value: Row): Promise<Row> {
    const out: Row = {};
    for (const [name, v] of Object.entries(value)) {
      const def = this.resource.fields[name];
      // A date-time arrives as ISO text (validated); its column takes a Date.
      if (def?.kind === 'datetime' && typeof v === 'string') out[name] = new Date(v);
      else if (def?.kind !== 'secret') out[name] = v;
      else if (typeof v === 'string' && v) {
        if (def.secret === 'hash') out[`${name}Hash`] = await hashSecret(v);
        else out[`${name}Encrypted`] = this.options.secretBox.seal(v);
      }
    }
    return out;
  }

  /** Rules across fields, on the record as it will be stored. */
  private checkRecord(record: Row, t: TFunction): void {
    const errors = checkRules(this.resource, record);
    if (!errors) return;
    throw new ApiException('VALIDATION', undefined, {}, this.translate(errors, t));
  }

  private translate(errors: Record<string, FieldError>, t: TFunction): Record<string, string> {
    const label = (name: string) => fieldLabel(t, this.resource.name, name);
    return Object.fromEntries(
      Object.entries(errors).map(([name, e]) => [
        name,
        t(e.key, { ...e.vars, field: label(name), ...(e.vars?.other ? { other: label(String(e.vars.other)) } : {}) }),
      ]),
    );
  }

  private log(
    executor: Executor,
    actor: Actor,
    action: string,
    recordId: number,
    before: Row | null,
    after: Row | null,
  ) {
    return executor.insert(transactionLogs).values({
      accountId: actor.account?.accountId ?? 0,
      userId: actor.userId,
      resource: this.resource.name,
      action,
      recordId,
      before,
      after,
    });
  }

  private get policy(): WritePolicy | undefined {
    return this.options.policies?.[this.resource.name];
  }

  async create(actor: Actor, input: Row, t: TFunction): Promise<Row> {
    this.policy?.refuse?.(input, t);
    const value = this.validate(input, 'create', t);
    this.checkRecord(value, t);
    const afterCommit = await this.policy?.create?.({ actor, input, value, t });
    const columns = await this.toColumns(value);
    const record = await this.db.transaction(async (tx) => {
      await this.checkReferences(actor, value, t, tx);
      await this.options.checks?.[this.resource.name]?.(tx, value, t);
      if (this.resource.scope === 'account') columns.accountId = actor.account?.accountId;
      const inserted = await tx.insert(this.table).values(columns).returning(this.selection);
      const record = inserted[0] as Row;
      const id = record.id as number;
      await this.afterCreate(tx, actor, record);
      await this.log(tx, actor, 'create', id, null, record);
      return record;
    });
    await afterCommit?.(record);
    return (await this.withVirtual(actor, [record]))[0] as Row;
  }

  /**
   * Keeps a new user reachable from the account it was created in. A new account needs nothing:
   * it is a sub-account, reached through its integrator (whose members get no explicit membership).
   */
  private async afterCreate(tx: Executor, actor: Actor, record: Row): Promise<void> {
    const membership = actor.account;
    if (!membership) return;
    if (this.resource.scope === 'members') {
      await tx
        .insert(usersRoles)
        .values({ accountId: membership.accountId, userId: record.id as number, roleId: record.roleId as number });
    }
  }

  async update(actor: Actor, input: Row, t: TFunction): Promise<Row> {
    const id = input.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
      throw badValue('id', 'expected the id of the record');
    const readAt = typeof input.updatedAt === 'string' ? new Date(input.updatedAt) : undefined;
    if (!readAt || Number.isNaN(readAt.getTime())) {
      throw new ApiException(
        'VALIDATION',
        undefined,
        {},
        {
          updatedAt: t('validation.required', { field: fieldLabel(t, this.resource.name, 'updatedAt') }),
        },
      );
    }
    this.policy?.refuse?.(input, t);
    const value = this.validate(input, 'update', t);
    const columns = await this.toColumns(value);
    const result = await this.db.transaction(async (tx) => {
      const locked = await tx.select(this.selection).from(this.table).where(this.byId(actor, id)).for('update');
      const before = locked[0] as Row | undefined;
      if (!before) throw notFound();
      // Both sides are JavaScript dates, so both carry milliseconds: compare them as such.
      if ((before.updatedAt as Date).getTime() !== readAt.getTime()) throw new ApiException('CONFLICT');
      this.checkRecord({ ...before, ...value }, t);
      const afterCommit = await this.policy?.update?.({ tx, actor, input, value, before, t });
      await this.checkReferences(actor, value, t, tx);
      await this.options.checks?.[this.resource.name]?.(tx, { ...before, ...value }, t);
      const updated = await tx
        .update(this.table)
        .set({ ...columns, updatedAt: new Date() })
        .where(eq(this.column('id'), id))
        .returning(this.selection);
      const after = updated[0] as Row;
      await this.log(tx, actor, 'update', id, before, after);
      return { after, afterCommit };
    });
    await result.afterCommit?.(result.after);
    return (await this.withVirtual(actor, [result.after]))[0] as Row;
  }

  async delete(actor: Actor, id: unknown, t: TFunction): Promise<{ id: number }> {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
      throw badValue('id', 'expected the id of the record');
    const result = await this.db.transaction(async (tx) => {
      const before = await this.get(actor, id, tx);
      const afterCommit = await this.policy?.delete?.({ tx, actor, before, t });
      if (this.resource.scope === 'members') {
        // A user leaves this account; the person is deleted only when no account holds them any more.
        await tx
          .delete(usersRoles)
          .where(and(eq(usersRoles.userId, id), eq(usersRoles.accountId, actor.account?.accountId ?? -1)));
        const others = await tx.select({ n: count() }).from(usersRoles).where(eq(usersRoles.userId, id));
        if ((others[0]?.n ?? 0) === 0) await this.deleteUnreferenced(tx, id, t);
      } else await this.deleteUnreferenced(tx, id, t);
      await this.log(tx, actor, 'delete', id, before, null);
      return { before, afterCommit };
    });
    await result.afterCommit?.(result.before);
    return { id };
  }

  private async deleteUnreferenced(tx: Executor, id: number, t: TFunction): Promise<void> {
    const by: string[] = [];
    for (const { resource, field } of this.referrers()) {
      const repo = this.registry.get(resource.name);
      if (!repo) continue;
      const rows = await tx
        .select({ one: sql`1` })
        .from(repo.table)
        .where(eq(repo.column(field), id))
        .limit(1);
      if (rows.length) by.push(t(`resources:${resource.name}.title`));
    }
    if (by.length) throw new ApiException('CONFLICT', 'errors.referenced', { by: [...new Set(by)].join(', ') });
    await tx.delete(this.table).where(eq(this.column('id'), id));
  }

  /** Who may point at this resource: reference fields, and for accounts every account-scoped record. */
  private referrers(): { resource: ResourceDef; field: string }[] {
    const refs = referencesTo(this.resource.name).filter(({ resource }) => !resource.readOnly);
    if (this.resource.scope === 'accounts') {
      for (const repo of this.registry.values()) {
        if (repo.resource.scope === 'account' && !repo.resource.readOnly)
          refs.push({ resource: repo.resource, field: 'accountId' });
      }
    }
    return refs;
  }
}

/** A check of one resource's record against other data, in the write's transaction; throws to refuse. */
export type RecordCheck = (executor: Executor, record: Row, t: TFunction) => Promise<void>;

export interface RepositoryOptions {
  secretBox: SecretBox;
  /** Per resource name: the rules of who may write what, beyond the role's permissions. */
  policies?: Record<string, WritePolicy>;
  /** Per resource name: checks of a record against other data, in the write's transaction. */
  checks?: Record<string, RecordCheck>;
  /** Per resource name and virtual field (`virtual: true` in the catalogue): how its value is worked out. */
  virtualFields?: Record<string, Record<string, VirtualField>>;
}

/** Sets a virtual field on rows just read, for the caller (`rows[i][name] = …`). */
export type VirtualField = (executor: Executor, actor: Actor, rows: Row[], name: string) => Promise<void>;

/** Runs once the write has committed (mail, revoking tokens), with the stored record. */
export type AfterCommit = (record: Row) => Promise<void> | void;

export interface WriteContext {
  actor: Actor;
  /** The body as sent. */
  input: Row;
  /** The validated values that will be written; a policy may set server-chosen fields here. */
  value: Row;
  t: TFunction;
}

/**
 * Checks a resource needs on top of its role permissions; each may refuse by throwing an
 * ApiException. Update and delete run inside the write's transaction, on the locked record.
 */
export interface WritePolicy {
  /** Refuses a body before the catalogue validates it (to explain a field the catalogue does not know). */
  refuse?(input: Row, t: TFunction): void;
  create?(write: WriteContext): Promise<AfterCommit | undefined>;
  update?(write: WriteContext & { tx: Executor; before: Row }): Promise<AfterCommit | undefined>;
  delete?(write: { tx: Executor; actor: Actor; before: Row; t: TFunction }): Promise<AfterCommit | undefined>;
}

export function createRepositories(
  db: Db,
  catalogue: readonly ResourceDef[],
  tables: Record<string, PgTable>,
  options: RepositoryOptions,
) {
  const registry = new Map<string, ResourceRepository>();
  for (const resource of catalogue) {
    const table = tables[resource.name];
    if (table) registry.set(resource.name, new ResourceRepository(db, resource, table, registry, options));
  }
  return registry;
}
