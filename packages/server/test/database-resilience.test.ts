/**
 * The database side holds (issue 9), on the real PostgreSQL: a process survives every backend of
 * its database being terminated under load; statements and idle transactions have time limits and
 * a statement that exceeds its limit answers a clean 503; named prepared statements stay bounded per
 * connection; two processes migrating one empty database both succeed. PGlite (one in-process
 * session, no network, no named statements) has none of these failure modes: skipped there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DEMO_APPLICATION_ID, devEuiOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Database, MIGRATION_LOCK_KEY, openDatabase } from '../src/db/connect.ts';
import { seed } from '../src/seed/seed.ts';
import { ADMIN, Client, JWT_SECRET, page, testSecretBox } from './support/test-app.ts';
import { connectClient, eventually, startTestBroker, type TestBroker } from './support/test-telemetry.ts';

const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
const onPostgres = target.startsWith('postgres');

/** An administrator's connection of its own, to disturb the database from outside. */
async function adminClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: target });
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function emptySchema(): Promise<void> {
  const admin = await adminClient();
  await admin.query(
    'DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;',
  );
  await admin.end();
}

/** Ends every other session on the test database; answers how many there were. */
async function terminateAll(admin: pg.Client): Promise<number> {
  const result = await admin.query<{ n: number }>(`
    SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`);
  return result.rows[0]?.n ?? 0;
}

function spawnChild(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'support', script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const output = (child: ChildProcess) => {
  const lines: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  return lines;
};

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!onPostgres)('a server process when every backend is terminated under load', () => {
  let broker: TestBroker | undefined;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited(child), sleep(5000)]);
      child.kill('SIGKILL');
    }
    await broker?.close();
  });

  it('stays alive, answers clean errors meanwhile, and resumes serving and storing within seconds', async () => {
    await emptySchema();
    const setup = await openDatabase({ url: target, dataDir: 'unused' });
    const seeded = await seed(setup.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: true });
    await setup.close();
    broker = await startTestBroker();
    child = spawnChild('server-child.ts', {
      CHILD_DB: target,
      CHILD_MQTT_URL: broker.url,
      CHILD_MQTT_USERNAME: broker.username ?? '',
      CHILD_MQTT_PASSWORD: broker.password ?? '',
      CHILD_CLIENT_ID: `lampyr-resilience-${randomBytes(4).toString('hex')}`,
      CHILD_SHARE_GROUP: broker.shareGroup,
    });
    const log = output(child);
    const port = await eventually(async () => log.join('').match(/ready (\d+)/)?.[1], 30_000);
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/command/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()).data;
    const accountId = seeded.subAccountIds[0];
    const headers = {
      authorization: `Bearer ${token}`,
      'x-account-id': String(accountId),
      'content-type': 'application/json',
    };
    const apiCall = async () => {
      const response = await fetch(`${base}/query/api/devices`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ filter: null, pageable: page(1, 20, ['name,asc']) }),
      });
      return { status: response.status, text: await response.text() };
    };
    expect((await apiCall()).status).toBe(200);

    const admin = await adminClient();
    const publisher = await connectClient(broker, 'resilience-publisher');
    const devEui = devEuiOf(11);
    const data = Buffer.from([1, 100, 0, 120, 0x08, 0xfc, 0x01, 0xf4, 0, 0, 0x27, 0x10, 0, 5, 0, 30]).toString(
      'base64',
    );
    const fcntBase = 500_000 + Math.floor(Math.random() * 100_000);
    let sent = 0;
    const uplink = (n: number) =>
      publisher.publishAsync(
        `application/${DEMO_APPLICATION_ID}/device/${devEui}/event/up`,
        JSON.stringify({
          time: new Date().toISOString(),
          deviceInfo: { devEui, applicationId: DEMO_APPLICATION_ID },
          fCnt: fcntBase + n,
          fPort: 10,
          data,
          rxInfo: [{ gatewayId: 'a840411b2c3d4e5f', rssi: -90, snr: 7 }],
        }),
        { qos: 1 },
      );
    const stored = async (fcnt: number) => {
      const r = await admin.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM channel_read_values WHERE frame_key = $1',
        [`fcnt:${fcnt}`],
      );
      return r.rows[0]?.n ?? 0;
    };

    // Load: eight API callers and a stream of uplinks, while every backend is terminated twice.
    const answers: { status: number; text: string }[] = [];
    let loading = true;
    const callers = Array.from({ length: 8 }, async () => {
      while (loading) answers.push(await apiCall().catch((e: Error) => ({ status: 0, text: e.message })));
    });
    const uplinks = (async () => {
      while (loading) {
        await uplink(sent++);
        await sleep(5);
      }
    })();
    await sleep(800);
    const firstRound = await terminateAll(admin);
    await sleep(300);
    const secondRound = await terminateAll(admin);
    await sleep(800);
    loading = false;
    await Promise.all([...callers, uplinks]);
    expect(firstRound + secondRound).toBeGreaterThan(0);

    // Still the same process, and it never said anything that looks like SQL.
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
    expect(answers.length).toBeGreaterThan(20);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text).error.code).toBe('UNAVAILABLE');
      expect(answer.text).not.toMatch(/select|from "|devices"|stack/i);
    }

    // Serving again within seconds...
    const back = await eventually(async () => (await apiCall()).status === 200, 10_000);
    expect(back).toBe(true);
    // ... and storing: a new uplink lands, and every uplink of the load is eventually stored once.
    const fresh = sent + 1;
    await uplink(fresh);
    await eventually(async () => (await stored(fcntBase + fresh)) === 8, 15_000);
    const counts = await eventually(async () => {
      const r = await admin.query<{ n: number; frames: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT frame_key)::int AS frames FROM channel_read_values
         WHERE device_id = (SELECT id FROM devices WHERE dev_eui = $1) AND frame_key LIKE 'fcnt:%'
           AND substr(frame_key, 6)::int BETWEEN $2 AND $3`,
        [devEui, fcntBase, fcntBase + fresh],
      );
      const row = r.rows[0];
      return row && row.frames === sent + 1 && row;
    }, 20_000);
    expect(counts).toEqual({ n: (sent + 1) * 8, frames: sent + 1 });
    expect(child.exitCode).toBeNull();
    await publisher.endAsync();
    await admin.end();
  }, 90_000);
});

describe.skipIf(!onPostgres)('time limits and prepared statements on every connection', () => {
  let database: Database;
  let app: FastifyInstance;
  let api: Client;
  const logged: string[] = [];

  beforeAll(async () => {
    await emptySchema();
    database = await openDatabase({
      url: target,
      dataDir: 'unused',
      poolSize: 3,
      statementTimeoutMs: 700,
      idleInTransactionTimeoutMs: 1000,
      preparedStatementsPerConnection: 10,
      log: (line) => logged.push(line),
    });
    const seeded = await seed(database.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: true });
    ({ app } = await buildApp({
      db: database.db,
      jwtSecret: JWT_SECRET,
      secretBox: testSecretBox(),
      dataDir: 'unused',
    }));
    await app.ready();
    api = new Client(app);
    await api.login();
    api.accountId = seeded.subAccountIds[0];
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

  it('sets statement_timeout and idle_in_transaction_session_timeout on the pool connections', async () => {
    const [settings] = rowsOf<{ statement: string; idle: string }>(
      await database.db.execute(
        sql`SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle`,
      ),
    );
    expect(settings).toEqual({ statement: '700ms', idle: '1s' });
  });

  it('answers a statement that exceeds its limit with a clean 503, in the caller language, not a hang', async () => {
    const admin = await adminClient();
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE devices IN ACCESS EXCLUSIVE MODE');
    try {
      const started = Date.now();
      const blocked = await api.list('devices', { filter: null, pageable: page(1, 10) });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(blocked.status).toBe(503);
      expect(blocked.body.error).toEqual({
        code: 'UNAVAILABLE',
        message: 'The database took too long to answer. Narrow the request or try again.',
      });
      expect(blocked.raw).not.toMatch(/select|devices|statement timeout|cancel/i);
      api.language = 'tr';
      const turkish = await api.list('devices', { filter: null, pageable: page(1, 10) });
      expect(turkish.status).toBe(503);
      expect(turkish.body.error?.message).toBe('Veritabanı çok geç yanıt verdi. İsteği daraltın veya tekrar deneyin.');
    } finally {
      api.language = undefined;
      await admin.query('ROLLBACK');
      await admin.end();
    }
    // The same request shape works again once the lock is gone.
    const after = await api.list('devices', { filter: null, pageable: page(1, 10) });
    expect(after.status).toBe(200);
    expect(after.body.data.totalElements).toBeGreaterThan(0);
  });

  it('ends a transaction left idle past its limit, without harm to the process or the pool', async () => {
    const left = database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      await sleep(1800);
      await tx.execute(sql`SELECT 1`);
    });
    await expect(left).rejects.toThrow();
    // The pool replaced the lost connection: every connection answers again.
    const checks = await Promise.all(
      Array.from({ length: 6 }, async () => rowsOf<{ one: number }>(await database.db.execute(sql`SELECT 1 AS one`))),
    );
    expect(checks.every((r) => r[0]?.one === 1)).toBe(true);
    expect(logged.join('\n')).toMatch(/connection .*lost/);
  });

  it('keeps at most the configured number of named statements on each connection, whatever the shapes', async () => {
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    // 60 request shapes (a list of k ids is a shape of its own), each a page and a count statement.
    const totals = new Map<number, number>();
    for (let k = 1; k <= 60; k++) {
      const ids = Array.from({ length: k }, (_, i) => i + 1);
      const res = await api.list('cities', {
        filter: null,
        detailFilter: [{ field: 'id', operator: 'in', value: ids }],
        pageable: page(1, 5),
      });
      expect(res.status).toBe(200);
      totals.set(k, res.body.data.totalElements);
    }
    expect(totals.get(60)).toBeGreaterThan(10);
    // Held on every connection of the pool at once, so each is looked at.
    const clients = await Promise.all(Array.from({ length: 3 }, () => pool.connect()));
    try {
      const counts = await Promise.all(
        clients.map(
          async (c) =>
            (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]?.n ?? 0,
        ),
      );
      // Named statements are really in use (so the bound is what keeps them few)...
      expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(3);
      // ... and no connection holds more than the bound (plus what one call adds before its release).
      for (const n of counts) expect(n).toBeLessThanOrEqual(12);
    } finally {
      for (const c of clients) c.release();
    }
    // Shapes whose statements were deallocated are prepared again when they come back.
    for (const k of [1, 2, 3, 30, 59, 60]) {
      const ids = Array.from({ length: k }, (_, i) => i + 1);
      const res = await api.list('cities', {
        filter: null,
        detailFilter: [{ field: 'id', operator: 'in', value: ids }],
        pageable: page(1, 5),
      });
      expect(res.status).toBe(200);
      expect(res.body.data.totalElements).toBe(totals.get(k));
    }
  });
});

describe.skipIf(!onPostgres)('two processes migrating one empty database at once', () => {
  it('both succeed: the second waits for the first under the advisory lock', async () => {
    await emptySchema();
    const admin = await adminClient();
    // Hold the lock first, so both processes are seen waiting on it, then let them race.
    await admin.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    const children = [0, 1].map(() => spawnChild('migrate-child.ts', { CHILD_DB: target }));
    const logs = children.map(output);
    const codes = Promise.all(children.map(exited));
    await eventually(async () => logs.every((l) => l.join('').includes('started')), 20_000);
    await sleep(1500);
    expect(children.map((c) => c.exitCode)).toEqual([null, null]);
    const waiting = await admin.query<{ n: number }>(`
      SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND NOT l.granted AND a.datname = current_database()`);
    expect(waiting.rows[0]?.n).toBe(2);
    await admin.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    expect(await codes, logs.map((l) => l.join('')).join('\n')).toEqual([0, 0]);
    const applied = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    const journal = await import('../src/db/migrations/meta/_journal.json', { with: { type: 'json' } });
    expect(applied.rows[0]?.n).toBe(journal.default.entries.length);
    await admin.end();
  }, 60_000);

  it('both succeed without help: two processes started together on an empty schema', async () => {
    await emptySchema();
    const children = [0, 1].map(() => spawnChild('migrate-child.ts', { CHILD_DB: target }));
    const logs = children.map(output);
    expect(await Promise.all(children.map(exited)), logs.map((l) => l.join('')).join('\n')).toEqual([0, 0]);
  }, 60_000);
});
