import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { PgliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** How many migrations this opening applied (0: the schema was up to date). */
  migrated?: number;
  /**
   * After a large write (the first start's demo history): gives back the memory it grew. PGlite
   * reopens its thread (its WebAssembly memory never shrinks otherwise); PostgreSQL has nothing to do.
   */
  releaseMemory?(): Promise<void>;
  /**
   * PostgreSQL only: a transaction on a connection of its own, handed with that connection's client
   * for what Drizzle does not speak (the ingest's `COPY … FROM STDIN`). A connection that failed
   * is discarded, not returned to the pool.
   */
  transactionWithClient?: <T>(work: (tx: Db, client: pg.ClientBase) => Promise<T>) => Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url?: string;
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL: a statement running longer is cancelled (ms; 0 = no limit). Default 30 s. */
  statementTimeoutMs?: number;
  /** PostgreSQL: a session idle inside a transaction longer is ended (ms; 0 = no limit). Default 60 s. */
  idleInTransactionTimeoutMs?: number;
  /** PostgreSQL: the statement timeout of the migration connection (ms; 0 = no limit, the default). */
  migrationTimeoutMs?: number;
  /** PostgreSQL: named prepared statements kept per connection; older ones are deallocated. Default 100. */
  preparedStatementsPerConnection?: number;
  /** Where connection errors go (they are never thrown: the pool replaces the connection). */
  log?: (message: string) => void;
}

export const DATABASE_DEFAULTS = {
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 60_000,
  migrationTimeoutMs: 0,
  preparedStatementsPerConnection: 100,
  /** How long a request waits for a connection (pool full, or the database unreachable). */
  connectionTimeoutMs: 15_000,
} as const;

/**
 * Every Lampyr process takes this session-level advisory lock around its migrations: a second
 * process starting at the same moment waits, then finds the migrations applied. (Any 64-bit number
 * of our own; this one spells "lampyr".)
 */
export const MIGRATION_LOCK_KEY = 0x6c616d707972n;

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

const defaultLog = (message: string) => process.stderr.write(`${message}\n`);

/**
 * Opens the database: PostgreSQL when a URL is given, otherwise PGlite persisted under `dataDir`
 * (or in memory for `dataDir === 'memory://'`). Migrations are applied before it is returned.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options);
  let target = options.dataDir;
  if (target !== 'memory://') {
    target = join(options.dataDir, 'pglite');
    mkdirSync(target, { recursive: true });
  }
  // PGlite runs in a thread of this process, one session, no network: no pool to lose, no prepared names.
  if (target !== 'memory://' && !existsSync(join(target, 'PG_VERSION'))) await createPgliteDirectory(target);
  const client = await PgliteThread.open(target, PGLITE_START_PARAMS);
  // Drizzle's driver calls only what PgliteThread offers (query, exec, transaction).
  const db = drizzlePglite({ client: client as unknown as PGlite, schema, casing: 'snake_case' });
  const before = await appliedMigrations(client);
  await migratePglite(db, { migrationsFolder });
  const migrated = (await appliedMigrations(client)) - before;
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrated,
    releaseMemory: () => client.restart(),
    close: () => client.close(),
  };
}

/**
 * PGlite's settings beside its own defaults. shared_buffers is PostgreSQL's default 128 MB in
 * PGlite, all of it resident in this process once touched; 32 MB keeps the embedded server's
 * memory low (measured with 1 M rows inserted: 347 MB RSS at 128 MB, 206 MB at 32 MB, 200 MB at
 * 16 MB) while the working set of a fleet's latest values and today's readings' indexes still fits.
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=32MB',
  '-c',
  'maintenance_work_mem=16MB',
];

/**
 * A new PGlite data directory is made (initdb) in a child process: initdb runs in a WebAssembly
 * instance of its own whose memory is never given back to the system, so doing it here would leave
 * this process ~500 MB larger for its whole life (measured: 780 MB RSS after creating in process,
 * 277 MB opening a directory a child made).
 */
async function createPgliteDirectory(target: string): Promise<void> {
  const script = `const { PGlite } = await import(process.argv[1]); await (await PGlite.create(process.argv[2])).close();`;
  const module = import.meta.resolve('@electric-sql/pglite');
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '--eval', script, module, target],
      { timeout: 120_000 },
      (error, _stdout, stderr) =>
        error
          ? reject(new Error(`could not create the database in ${target}: ${stderr.trim() || error.message}`))
          : resolve(),
    );
  });
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const log = options.log ?? defaultLog;
  const migrated = await migrateUnderLock(url, options.migrationTimeoutMs ?? DATABASE_DEFAULTS.migrationTimeoutMs);
  const limit = Math.max(
    1,
    options.preparedStatementsPerConnection ?? DATABASE_DEFAULTS.preparedStatementsPerConnection,
  );
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 20,
    Client: boundedClient(limit),
    // Sent with the start-up packet: every connection carries its limits, at no extra round trip.
    statement_timeout: options.statementTimeoutMs ?? DATABASE_DEFAULTS.statementTimeoutMs,
    idle_in_transaction_session_timeout:
      options.idleInTransactionTimeoutMs ?? DATABASE_DEFAULTS.idleInTransactionTimeoutMs,
    connectionTimeoutMillis: DATABASE_DEFAULTS.connectionTimeoutMs,
    keepAlive: true,
    // No JIT: Lampyr's statements are short (lists, a map view, a report of precomputed rollups)
    // and PostgreSQL's JIT compiles for hundreds of milliseconds whenever an estimate runs high —
    // measured 888 → 355 ms for the lamp states of 100,000 devices (bench:scale).
    options: '-c jit=off',
  });
  // An idle connection that dies (the server restarted, an administrator ended it, a timeout):
  // the pool has already dropped it and the next query opens a fresh one. Log, never throw.
  pool.on('error', (error) => log(`database: an idle connection was lost (${describe(error)}); it will be replaced`));
  pool.on('connect', (client) => {
    // A connection lost while checked out (between the statements of a transaction) fails that
    // work; without a listener the client's 'error' event would end the process.
    client.on('error', (error) => log(`database: a connection in use was lost (${describe(error)})`));
  });
  pool.on('release', (error, client) => {
    if (!error) (client as unknown as BoundedClient).deallocateEvicted();
  });
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  // One Drizzle instance per pooled connection, made the first time it is asked for.
  const bound = new WeakMap<pg.PoolClient, Db>();
  const transactionWithClient = async <T>(work: (tx: Db, client: pg.ClientBase) => Promise<T>) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      let onClient = bound.get(client);
      if (!onClient) {
        onClient = drizzlePg({ client, schema, casing: 'snake_case' }) as unknown as Db;
        bound.set(client, onClient);
      }
      return await onClient.transaction((tx) => work(tx as unknown as Db, client));
    } catch (error) {
      // A statement's error (a SQLSTATE, on it or the error Drizzle wraps it in) leaves the
      // connection usable; anything else may not have.
      const codes = [error, (error as { cause?: unknown }).cause].map((e) => String((e as { code?: unknown })?.code));
      if (!codes.some((code) => /^[0-9A-Z]{5}$/.test(code))) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  };
  return { db: db as unknown as Db, kind: 'postgres', migrated, transactionWithClient, close: () => pool.end() };
}

/**
 * Migrations on a connection of their own, under a session advisory lock: two processes starting on
 * one empty database both succeed, one after the other. The connection has its own statement
 * timeout (none by default): a migration may rewrite a large table.
 */
async function migrateUnderLock(url: string, timeoutMs: number): Promise<number> {
  const client = new pg.Client({ connectionString: url, statement_timeout: timeoutMs });
  client.on('error', () => {}); // a lost connection fails the pending query, which is reported
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      const before = await appliedMigrations(client);
      await migratePg(drizzlePg({ client, schema, casing: 'snake_case' }), { migrationsFolder });
      return (await appliedMigrations(client)) - before;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    await client.end();
  }
}

/** Migrations recorded as applied (none before the first). */
async function appliedMigrations(client: { query(text: string): Promise<{ rows: unknown[] }> }): Promise<number> {
  // Two statements: a relation that does not exist cannot even be named in one that is planned.
  const exists = await client.query("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present");
  if (!(exists.rows[0] as { present: boolean } | undefined)?.present) return 0;
  const result = await client.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
  return Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
}

const describe = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 200);

/** What node-postgres keeps per connection about named statements (not part of its typed API). */
interface StatementBook {
  parsedStatements?: Record<string, string>;
}

export interface BoundedClient extends pg.Client {
  /** Named statements this connection holds, oldest use first. */
  readonly preparedNames: readonly string[];
  deallocateEvicted(): void;
}

/**
 * A connection that keeps at most `limit` named prepared statements. The API prepares one per
 * request shape (see ResourceRepository); a client sending endless shapes would otherwise grow every
 * connection's memory on the server without end. The least recently used statement is deallocated
 * once the connection is back in the pool (so never inside someone's transaction), and
 * node-postgres is told to parse it again should it come back.
 */
function boundedClient(limit: number): typeof pg.Client {
  return class extends pg.Client implements BoundedClient {
    private readonly used = new Map<string, true>();
    private evicted = new Set<string>();

    get preparedNames(): readonly string[] {
      return [...this.used.keys()];
    }

    override query(...args: unknown[]): never {
      const config = args[0] as { name?: unknown } | undefined;
      if (config && typeof config === 'object' && typeof config.name === 'string') this.use(config.name);
      return (super.query as unknown as (...a: unknown[]) => never)(...args);
    }

    private use(name: string): void {
      if (this.used.delete(name)) {
        this.used.set(name, true);
        return;
      }
      // Back before its deallocation ran: it still exists, keep it.
      this.evicted.delete(name);
      this.used.set(name, true);
      const book = this.book();
      for (const oldest of this.used.keys()) {
        if (this.used.size <= limit) break;
        // Only what the server has parsed can be deallocated; a statement still queued stays.
        if (book?.parsedStatements?.[oldest] === undefined) continue;
        this.used.delete(oldest);
        this.evicted.add(oldest);
      }
    }

    deallocateEvicted(): void {
      if (!this.evicted.size) return;
      const names = [...this.evicted];
      this.evicted = new Set();
      const book = this.book();
      for (const name of names) {
        // The callback runs before the next queued query is sent: that one parses afresh.
        const done = (error: Error | null) => {
          if (!error && book?.parsedStatements) delete book.parsedStatements[name];
        };
        (super.query as unknown as (text: string, callback: typeof done) => void)(
          `DEALLOCATE ${this.escapeIdentifier(name)}`,
          done,
        );
      }
    }

    private book(): StatementBook | undefined {
      return (this as unknown as { connection?: StatementBook }).connection;
    }
  } as unknown as typeof pg.Client;
}
