/**
 * `npm run bench:scale`: Lampyr with 100,000 devices (BENCH_DEVICES) on PostgreSQL. Starts the
 * compiled server (packages/server/dist/main.js, built first) on BENCH_DATABASE_URL — its schema is
 * dropped — with the demo accounts, seeds the devices into the first demo account with
 * `bench/seed-devices.ts --graph`, then prints: the server's RSS (now and peak), the time of the
 * device list (a page of 20 by name, and filtered by name), the dashboard summary, the map's data
 * (its extent and the clustered view of the whole city and of a street), and — in Chromium — the
 * map page from navigation to drawn clusters and the time from the last choice to a drawn 15-day graph
 * of channels holding one value a minute (21,600 readings each; the console averages them per
 * bucket, 5 minutes at the finest). Targets: RSS ≤ 300 MB, each answer < 1 s, the graph < 1 s.
 * BENCH_REUSE=1 keeps an earlier run's database (no reset, no seeding).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const brokerUrl = process.env.BENCH_MQTT_URL ?? process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const deviceCount = Number(process.env.BENCH_DEVICES ?? 100_000);
const PASSWORD = 'bench-admin-password';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const memoryOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
};

const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(1);
// BENCH_REUSE=1: the devices of an earlier run stay (no reset, no seeding).
const reuse = process.env.BENCH_REUSE === '1';
if (!reuse) {
  const reset = new pg.Client({ connectionString: databaseUrl });
  await reset.connect();
  await reset.query(
    'DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;',
  );
  await reset.end();
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server: ChildProcess = spawn(process.execPath, ['packages/server/dist/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    MQTT_URL: brokerUrl,
    MQTT_CLIENT_ID: `lampyr-bench-scale-${process.pid}`,
    MQTT_SHARE_GROUP: `lampyr-bench-scale-${process.pid}`,
    JWT_SECRET: randomBytes(48).toString('base64'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    LAMPYR_ADMIN_PASSWORD: PASSWORD,
    LAMPYR_DEMO: '1',
    SIMULATOR: 'off',
    LOG_LEVEL: 'warn',
    DATA_DIR: join(root, '.bench-data', 'scale'),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const pid = server.pid as number;
try {
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error('the server exited');
    if (i > 600) throw new Error('the server did not start within 3 minutes');
    const ok = await fetch(`${url}/config.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  const login = await fetch(`${url}/command/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@lampyr.local', password: PASSWORD }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const accountId = Number(
    (await db.query('SELECT id FROM accounts WHERE is_sub_account ORDER BY id LIMIT 1')).rows[0]?.id,
  );

  const seeded = reuse
    ? { status: 0 }
    : spawnSync(
        process.execPath,
        ['--import', 'tsx', 'bench/seed-devices.ts', String(deviceCount), '--account', String(accountId), '--graph'],
        { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'inherit' },
      );
  if (seeded.status !== 0) throw new Error('seeding failed');
  await db.query('ANALYZE');
  const graphDevice = Number((await db.query(`SELECT id FROM devices WHERE name = 'SCALE-0000001'`)).rows[0]?.id ?? 0);
  const total = Number((await db.query('SELECT count(*) AS n FROM devices')).rows[0]?.n);
  await db.end();

  const headers = {
    authorization: `Bearer ${token}`,
    'x-account-id': String(accountId),
    'content-type': 'application/json',
  };
  const call = async (path: string, body?: unknown) => {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
    return { ms: performance.now() - started, bytes: text.length, json: JSON.parse(text) };
  };
  /** First and best of three. */
  const time = async (label: string, run: () => Promise<{ ms: number; bytes?: number }>) => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await run());
    const first = runs[0] as { ms: number; bytes?: number };
    const best = Math.min(...runs.map((r) => r.ms));
    const mark = Math.max(...runs.map((r) => r.ms)) < 1000 ? 'ok' : 'SLOW';
    lines.push(
      `  ${label.padEnd(52)} first ${first.ms.toFixed(0).padStart(5)} ms, best ${best.toFixed(0).padStart(5)} ms${first.bytes ? `, ${(first.bytes / 1024).toFixed(0)} KB` : ''}  ${mark}`,
    );
  };
  const lines: string[] = [];
  const page20 = { filter: null, detailFilter: [], selectedColumns: null };
  await time('device list, page 1 of 20 by name', () =>
    call('/query/api/devices', { ...page20, pageable: { page: 1, size: 20, sort: ['name,asc'] } }),
  );
  await time('device list, page 2,500 of 20 by name', () =>
    call('/query/api/devices', { ...page20, pageable: { page: 2500, size: 20, sort: ['name,asc'] } }),
  );
  await time('device list, name contains "SCALE-00999"', () =>
    call('/query/api/devices', {
      ...page20,
      detailFilter: [{ field: 'name', operator: 'contains', value: 'SCALE-00999' }],
      pageable: { page: 1, size: 20, sort: ['name,asc'] },
    }),
  );
  await time('dashboard summary', () => call('/query/api/dashboard-summary'));
  await time('map extent (the first view)', () => call('/query/api/device-map/extent'));
  // The clustered map endpoint: the whole fleet at city zoom, and a street at close zoom.
  await time('map, clustered: the whole city (zoom 11)', () =>
    call('/query/api/device-map?west=28.7&south=40.8&east=29.2&north=41.2&zoom=11'),
  );
  await time('map, a street at zoom 17 (devices one by one)', () =>
    call('/query/api/device-map?west=28.90&south=40.95&east=28.905&north=40.953&zoom=17'),
  );
  const memory = memoryOf(pid);

  // In the console: the map page from navigation to its clusters drawn, and the graph from the
  // last choice (5-minute buckets over 15 days) to the chart drawn.
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
  let graph = 'not measured';
  let map = 'not measured';
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${url}/login`);
    await page.getByLabel('Email').fill('admin@lampyr.local');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
    // The demo account holding the devices, selected as the account switcher does.
    await page.evaluate((id) => {
      localStorage.setItem('selectedAccount', String(id));
      sessionStorage.setItem('selectedAccount', String(id));
    }, accountId);
    const mapTimes = [];
    for (let i = 0; i < 3; i++) {
      // As an operator opens it from the menu: the console is loaded, the route changes.
      const dashboard = page.waitForResponse((r) => r.url().includes('/dashboard-summary'));
      await page.goto(`${url}/dashboards/dashboards`);
      await dashboard;
      await page.waitForTimeout(500);
      const started = Date.now();
      const answered = page.waitForResponse((r) => r.url().includes('/device-map?'));
      await page.evaluate(() => {
        history.pushState({}, '', '/assets-devices/map');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      await answered;
      await page.locator('.device-map .leaflet-marker-icon, .device-map canvas').first().waitFor();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      mapTimes.push(Date.now() - started);
    }
    map = `${mapTimes.join(', ')} ms  ${Math.max(...mapTimes) < 1000 ? 'ok' : 'SLOW'}`;
    await page.screenshot({ path: join(root, '.bench-data', 'scale-map.png') });
    const measured = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${url}/assets-devices/graphic?deviceId=${graphDevice}`);
      const first = page.waitForResponse((r) => r.url().includes('/aggregate'));
      await page.getByLabel('Range').first().click();
      await page.getByText('Last 15 days').click();
      await first;
      await page.getByLabel('Average over').click();
      // The chart draws as soon as its choices are complete: the bucket is the last one.
      const started = Date.now();
      const answered = page.waitForResponse((r) => r.url().includes('/aggregate'));
      await page.locator('.ant-select-item-option[title="5 minutes"]').click();
      await answered;
      await page.locator('div[role="img"] canvas').first().waitFor();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      measured.push(Date.now() - started);
    }
    graph = `${measured.join(', ')} ms  ${Math.max(...measured) < 1000 ? 'ok' : 'SLOW'}`;
    await page.screenshot({ path: join(root, '.bench-data', 'scale-graph.png') });
  } catch (error) {
    const failure = `failed: ${String(error).split('\n')[0]}`;
    if (map === 'not measured') map = failure;
    else graph = failure;
    await browser
      .contexts()[0]
      ?.pages()[0]
      ?.screenshot({ path: join(root, '.bench-data', 'scale-graph-failed.png') })
      .catch(() => {});
  } finally {
    await browser.close();
  }
  process.stdout.write(
    [
      `bench:scale — ${total.toLocaleString('en')} devices on ${databaseUrl.replace(/\/\/[^@/]*@/, '//')} (compiled server)`,
      `  server memory:  ${memory.rss.toFixed(0)} MB RSS, ${memory.peak.toFixed(0)} MB peak  ${memory.peak <= 300 ? 'ok' : 'OVER 300 MB'}`,
      ...lines,
      `  map page in Chromium (menu → clusters drawn):         ${map}`,
      `  15-day graph, 21,600 readings per channel, 5-minute buckets (choice → drawn): ${graph}`,
      '',
    ].join('\n'),
  );
} finally {
  server.kill('SIGTERM');
}
