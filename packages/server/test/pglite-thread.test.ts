/**
 * The embedded database on a thread of its own (db/pglite-thread.ts): Drizzle's PGlite driver over
 * it keeps PGlite's behaviour — results, errors with their SQLSTATE, transactions that commit, roll
 * back and keep every other request out — and a thread that ends fails what waits on it with an
 * error the ingest takes for the database's (the message is delivered again), never a hang.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PGLITE_START_PARAMS } from '../src/db/connect.ts';
import { PgliteThread } from '../src/db/pglite-thread.ts';
import { isTransientError, sqlStateOf } from '../src/ingest/store-errors.ts';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

describe.runIf(process.env.LAMPYR_TEST_DB === 'pglite')('PGlite on its own thread', () => {
  // One thread for the tests that leave it working (a new database costs seconds); the test that
  // ends its thread opens its own.
  let shared: PgliteThread | undefined;
  let thread: PgliteThread | undefined;
  afterAll(async () => {
    await shared?.close();
  });
  afterEach(async () => {
    if (thread !== shared) await thread?.close();
    thread = undefined;
  });

  async function open(own = false) {
    if (own) thread = await PgliteThread.open('memory://', PGLITE_START_PARAMS);
    else thread = shared ??= await PgliteThread.open('memory://', PGLITE_START_PARAMS);
    const db = drizzle({ client: thread as unknown as PGlite, casing: 'snake_case' });
    await db.execute(sql`DROP TABLE IF EXISTS t`);
    await db.execute(sql`CREATE TABLE t (id int PRIMARY KEY, at timestamptz, note text)`);
    return db;
  }

  it('answers queries as PGlite does, timestamps kept as text for Drizzle', async () => {
    const db = await open();
    await db.execute(sql`INSERT INTO t VALUES (1, '2026-11-24T10:00:00Z', 'a'), (2, NULL, 'b')`);
    const rows = rowsOf(await db.execute(sql`SELECT id, at, note FROM t ORDER BY id`));
    expect(rows).toEqual([
      { id: 1, at: '2026-11-24 10:00:00+00', note: 'a' },
      { id: 2, at: null, note: 'b' },
    ]);
    const [settings] = rowsOf(await db.execute(sql`SELECT current_setting('shared_buffers') AS sb`));
    expect(settings?.sb).toBe('32MB');
  });

  it('fails a statement with its SQLSTATE and detail, and goes on', async () => {
    const db = await open();
    await db.execute(sql`INSERT INTO t VALUES (1, NULL, 'a')`);
    const failed = await db.execute(sql`INSERT INTO t VALUES (1, NULL, 'again')`).catch((e: unknown) => e);
    expect(sqlStateOf(failed)).toBe('23505');
    expect(isTransientError(failed)).toBe(false);
    expect(String((failed as { cause?: { detail?: string } }).cause?.detail)).toContain('already exists');
    expect(rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM t`))[0]?.n).toBe(1);
  });

  it('commits a transaction, rolls back one that throws, nested savepoints included', async () => {
    const db = await open();
    await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO t VALUES (1, NULL, 'kept')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`INSERT INTO t VALUES (2, NULL, 'undone')`);
          throw new Error('inner fails');
        })
        .catch(() => {});
    });
    const failed = await db
      .transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO t VALUES (3, NULL, 'rolled back')`);
        // A failed statement aborts the transaction; it is rolled back, not left open.
        await tx.execute(sql`INSERT INTO t VALUES (1, NULL, 'duplicate')`);
      })
      .catch((e: unknown) => e);
    expect(sqlStateOf(failed)).toBe('23505');
    const rows = rowsOf(await db.execute(sql`SELECT id, note FROM t ORDER BY id`));
    expect(rows).toEqual([{ id: 1, note: 'kept' }]);
  });

  it('keeps other requests out of an open transaction until it ends', async () => {
    const db = await open();
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let finish!: () => void;
    const release = new Promise<void>((resolve) => (finish = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO t VALUES (1, NULL, 'in the transaction')`);
      inside();
      await release;
      await tx.execute(sql`UPDATE t SET note = 'committed' WHERE id = 1`);
    });
    await entered;
    // Sent while the transaction is open: answered after it, with what it committed.
    const outside = db.execute(sql`SELECT note FROM t`);
    let answered = false;
    void outside.then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    finish();
    await transaction;
    expect(rowsOf(await outside)).toEqual([{ note: 'committed' }]);
  });

  it("fails what waits on a thread that ended, as the database's condition", async () => {
    const db = await open(true);
    const slow = db.execute(sql`SELECT pg_sleep(5)`).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    const error = await slow;
    expect(String((error as Error).message) + String((error as { cause?: Error }).cause?.message)).toMatch(
      /PGlite is closed/,
    );
    expect(isTransientError(error)).toBe(true);
    await expect(db.execute(sql`SELECT 1`)).rejects.toThrow();
    thread = undefined;
  });

  it('reopens on a new thread: an open transaction ends first, requests meanwhile wait, data stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lampyr-thread-'));
    // A data directory as the server makes it (initdb in a child), then opened on a thread.
    const { openDatabase } = await import('../src/db/connect.ts');
    const database = await openDatabase({ dataDir: dir });
    try {
      const { db } = database;
      await db.execute(sql`CREATE TABLE kept (id int PRIMARY KEY)`);
      let finish!: () => void;
      const release = new Promise<void>((resolve) => (finish = resolve));
      const transaction = db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO kept VALUES (1)`);
        await release;
        await tx.execute(sql`INSERT INTO kept VALUES (2)`);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const restarted = database.releaseMemory?.();
      const meanwhile = db.execute(sql`SELECT count(*)::int AS n FROM kept`);
      finish();
      await transaction;
      await restarted;
      expect(rowsOf(await meanwhile)).toEqual([{ n: 2 }]);
      await db.execute(sql`INSERT INTO kept VALUES (3)`);
      expect(rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM kept`))).toEqual([{ n: 3 }]);
    } finally {
      await database.close();
    }
  });

  it('reports a data directory it cannot open', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lampyr-thread-')), 'not-a-directory');
    writeFileSync(file, 'x');
    await expect(PgliteThread.open(file, PGLITE_START_PARAMS)).rejects.toThrow();
  });
});
