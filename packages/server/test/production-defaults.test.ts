import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, wantsDemo } from '../src/config.ts';
import { ADMIN, Client, countRows, page, startTestApp, type TestApp } from './support/test-app.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');
const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
const onPostgres = target !== 'pglite';
// Nothing listens on port 9 here: a refusal must come from the configuration, before any connection.
const databaseUrl = onPostgres ? target : 'postgres://lampyr@127.0.0.1:9/lampyr';
const SAFE = {
  JWT_SECRET: 'production-secret-production-secret-0123',
  SECRETS_KEY: 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=',
  LAMPYR_ADMIN_PASSWORD: 'a-real-password-9',
};

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `main.ts` as `npm start` runs it, with only the given variables besides PATH and HOME. */
function startMain(env: Record<string, string>): { child: ChildProcess; output: () => string; exit: Promise<number> } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  return { child, output: () => output, exit };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The tables of the test database's public schema (PostgreSQL only). */
async function publicTables(): Promise<string[]> {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema in ('public', 'drizzle')",
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

async function emptyDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  await client.query(
    'DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;',
  );
  await client.end();
}

describe('start-up with DATABASE_URL refuses the defaults of the embedded setup', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['the default administrator password', { ...SAFE, LAMPYR_ADMIN_PASSWORD: 'lampyr-admin' }, 'LAMPYR_ADMIN_PASSWORD'],
    ['no administrator password (the default stands)', { ...SAFE, LAMPYR_ADMIN_PASSWORD: '' }, 'LAMPYR_ADMIN_PASSWORD'],
    ['no JWT_SECRET', { ...SAFE, JWT_SECRET: '' }, 'JWT_SECRET'],
    ['no SECRETS_KEY', { ...SAFE, SECRETS_KEY: '' }, 'SECRETS_KEY'],
  ];

  it.each(cases)('%s: exit 1 naming the variable, nothing created', async (_, given, variable) => {
    if (onPostgres) await emptyDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-refused-'));
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
    };
    for (const [name, value] of Object.entries(given)) if (value) env[name] = value;
    const run = startMain(env);
    expect(await run.exit).toBe(1);
    const output = run.output();
    expect(output).toContain('Invalid configuration');
    expect(output).toMatch(new RegExp(`${variable}: .*DATABASE_URL`));
    expect(output).not.toContain('Lampyr is running');
    expect(output).not.toMatch(/ECONNREFUSED|could not start/);
    // Refused before anything was generated or migrated.
    expect(readdirSync(dataDir)).toEqual([]);
    if (onPostgres) expect(await publicTables()).toEqual([]);
  });

  it.skipIf(!onPostgres)('starts with its own secrets and password, without demo data', async () => {
    await emptyDatabase();
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-production-'));
    const run = startMain({
      ...SAFE,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
    });
    const deadline = Date.now() + 60_000;
    while (!run.output().includes('Lampyr is running')) {
      if (run.child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const login = await fetch(`http://127.0.0.1:${port}/command/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: SAFE.LAMPYR_ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const refused = await fetch(`http://127.0.0.1:${port}/command/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: 'lampyr-admin' }),
    });
    expect(refused.status).toBe(401);
    expect(run.output()).not.toContain('Demo');
    expect(run.output()).toContain('(LAMPYR_ADMIN_PASSWORD)');
    expect(run.output()).not.toContain(SAFE.LAMPYR_ADMIN_PASSWORD);
    run.child.kill('SIGTERM');
    await run.exit;
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    const { rows } = await client.query<{ accounts: number; devices: number; users: number }>(
      'select (select count(*)::int from accounts) as accounts, (select count(*)::int from devices) as devices, (select count(*)::int from users) as users',
    );
    await client.end();
    expect(rows[0]).toEqual({ accounts: 1, devices: 0, users: 1 });
    // No secret was generated into the data folder: production brings its own.
    expect(readdirSync(dataDir)).not.toContain('secrets-key');
    expect(readdirSync(dataDir)).not.toContain('jwt-secret');
  });
});

describe('demo data', () => {
  it('is on in the embedded default and with LAMPYR_DEMO, off with DATABASE_URL', () => {
    const production = { DATABASE_URL: 'postgres://db/lampyr', ...SAFE };
    expect(wantsDemo(loadConfig({}))).toBe(true);
    expect(wantsDemo(loadConfig({ LAMPYR_DEMO: '0' }))).toBe(false);
    expect(wantsDemo(loadConfig(production))).toBe(false);
    expect(wantsDemo(loadConfig({ ...production, LAMPYR_DEMO: '1' }))).toBe(true);
  });

  let app: TestApp | undefined;
  afterAll(async () => {
    await app?.close();
  });

  it('without the demo: roles, geography, device lists and the administrator, nothing else', async () => {
    app = await startTestApp({ demo: false });
    const { database } = app;
    expect(await countRows(database, 'roles')).toBe(3);
    expect(await countRows(database, 'countries')).toBe(1);
    expect(await countRows(database, 'cities')).toBeGreaterThan(10);
    expect(await countRows(database, 'device_type_protocols')).toBe(2);
    expect(await countRows(database, 'channel_value_types')).toBe(8);
    expect(await countRows(database, 'users')).toBe(1);
    expect(await countRows(database, 'accounts')).toBe(1);
    for (const table of ['devices', 'device_models', 'gateways', 'regions', 'task_profiles']) {
      expect(await countRows(database, table), table).toBe(0);
    }
    expect(app.seeded).toMatchObject({ seeded: true, subAccountIds: [] });

    const client = new Client(app.app);
    expect((await client.login()).status).toBe(200);
    client.accountId = app.seeded.integratorId;
    const accounts = await client.list('accounts', { pageable: page(1) });
    expect(accounts.status).toBe(200);
    expect(accounts.body.data.content.map((a: { name: string }) => a.name)).toEqual(['Lampyr']);
    const devices = await client.list('devices', { pageable: page(1) });
    expect(devices.status).toBe(200);
    expect(devices.body.data.totalElements).toBe(0);
  });
});
