/**
 * `npm run soak -- [--minutes 60] [--rate 1000] [--devices 2000]`: the compiled server on
 * PostgreSQL (BENCH_DATABASE_URL; its schema is dropped) and Mosquitto (BENCH_MQTT_URL) taking
 * ChirpStack uplinks of 5 values at a steady rate — use half the rate `npm run bench:ingest`
 * measured — for an hour, with a console's live stream open all along. Every `--every` seconds
 * (default 60) it prints the server's RSS, the uplinks published, stored and behind, the stream's
 * events and the server's error lines; at the end it waits for the backlog and prints what was lost.
 * Exits 1 when anything was lost, the server logged an error, or its RSS grew by more than half
 * between the first and the last quarter of the run. Not in CI; `--minutes 1` checks it works.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { connectPublisher } from './publisher.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  return value;
};
const minutes = option('minutes', 60);
const rate = option('rate', 1000);
const deviceCount = option('devices', 2000);
const every = option('every', 60);
const root = join(import.meta.dirname, '..');
const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const brokerUrl = process.env.BENCH_MQTT_URL ?? process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const PASSWORD = 'soak-admin-password';
const APPLICATION = 'scale-bench';
const DATA = 'AWQAkQAAA+gAJA=='; // the fixture's 5 channels
const log = (line: string) => process.stdout.write(`${line}\n`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

if (spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0)
  process.exit(1);
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
await db.query('DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;');

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
let errors = 0;
const errorLines: string[] = [];
const server: ChildProcess = spawn(process.execPath, ['packages/server/dist/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    MQTT_URL: brokerUrl,
    MQTT_CLIENT_ID: `lampyr-soak-${process.pid}`,
    MQTT_SHARE_GROUP: `lampyr-soak-${process.pid}`,
    JWT_SECRET: randomBytes(48).toString('base64'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    LAMPYR_ADMIN_PASSWORD: PASSWORD,
    LAMPYR_DEMO: '1',
    SIMULATOR: 'off',
    LOG_LEVEL: 'warn',
    DATA_DIR: join(root, '.bench-data', 'soak'),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const pid = server.pid as number;
// Pino lines at level 50 (error) or 60 (fatal), and anything on stderr.
const watch = (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n')) {
    if (/"level":(50|60)/.test(line) || (line.trim() && !line.startsWith('{') && /error/i.test(line))) {
      errors++;
      if (errorLines.length < 5) errorLines.push(line.slice(0, 300));
    }
  }
};
server.stdout?.on('data', watch);
server.stderr?.on('data', watch);

let stopStream = () => {};
try {
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error('the server exited');
    if (i > 600) throw new Error('the server did not start within 3 minutes');
    if (
      await fetch(`${url}/config.json`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 300));
  }
  const accountId = Number(
    (await db.query('SELECT id FROM accounts WHERE is_sub_account ORDER BY id LIMIT 1')).rows[0]?.id,
  );
  const seeded = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/seed-devices.ts', String(deviceCount), '--account', String(accountId)],
    { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'inherit' },
  );
  if (seeded.status !== 0) throw new Error('seeding failed');
  const devEuis = (await db.query(`SELECT dev_eui FROM devices WHERE name LIKE 'SCALE-%' ORDER BY id`)).rows.map(
    (r) => r.dev_eui as string,
  );
  // The device directory caches "unknown device" answers briefly: let the seeded devices be seen.
  await new Promise((r) => setTimeout(r, 2000));

  // The console's live stream: ticket, then the event stream, read all along.
  const login = await fetch(`${url}/command/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@lampyr.local', password: PASSWORD }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const headers = {
    authorization: `Bearer ${token}`,
    'x-account-id': String(accountId),
    'content-type': 'application/json',
  };
  let streamEvents = 0;
  let streamOpen = false;
  const abort = new AbortController();
  stopStream = () => abort.abort();
  const openStream = async () => {
    const ticket = await fetch(`${url}/query/api/stream/ticket`, { method: 'POST', headers, body: '{}' });
    const value = ((await ticket.json()) as { data: { ticket: string } }).data.ticket;
    const stream = await fetch(`${url}/query/api/stream?ticket=${encodeURIComponent(value)}`, { signal: abort.signal });
    if (!stream.ok || !stream.body) throw new Error(`the stream answered ${stream.status}`);
    streamOpen = true;
    const reader = stream.body.getReader();
    const decoder = new TextDecoder();
    (async () => {
      try {
        for (;;) {
          const { done, value: chunk } = await reader.read();
          if (done) break;
          streamEvents += (decoder.decode(chunk).match(/^data:/gm) ?? []).length;
        }
      } catch {
        // aborted at the end
      }
      streamOpen = false;
    })();
  };
  await openStream();

  const publisher = await connectPublisher(brokerUrl, `lampyr-soak-publisher-${process.pid}`);
  const fCnt = new Map<string, number>();
  let published = 0;
  const started = Date.now();
  const until = started + minutes * 60_000;
  // A steady rate: every 100 ms, what the rate owes by then.
  const tick = setInterval(() => {
    const owed = Math.min(until, Date.now()) - started;
    const target = Math.floor((owed / 1000) * rate);
    while (published < target) {
      const devEui = devEuis[published % devEuis.length] as string;
      const count = (fCnt.get(devEui) ?? 0) + 1;
      fCnt.set(devEui, count);
      publisher.publish(
        `application/${APPLICATION}/device/${devEui}/event/up`,
        JSON.stringify({
          deduplicationId: `soak-${published}`,
          time: new Date().toISOString(),
          deviceInfo: { applicationId: APPLICATION, applicationName: 'soak', devEui, deviceName: devEui },
          devAddr: '01fa3c27',
          fCnt: count,
          fPort: 10,
          confirmed: false,
          data: DATA,
          rxInfo: [{ gatewayId: 'a840411b2c3d4e5f', rssi: -97, snr: 6.5, crcStatus: 'CRC_OK' }],
        }),
      );
      published++;
    }
    publisher.flush();
  }, 100);

  const stored = async () =>
    Number((await db.query(`SELECT count(*)::bigint AS n FROM channel_read_values WHERE frame_key <> ''`)).rows[0]?.n) /
    5;
  const samples: { at: number; rss: number }[] = [];
  log(
    `soak — ${minutes} min at ${rate.toLocaleString('en')} uplinks/s of 5 values, ${devEuis.length} devices, stream open`,
  );
  log('  minute   RSS MB   published     stored     behind   stream events   server errors');
  const report = async () => {
    const rss = rssOf(pid);
    samples.push({ at: Date.now(), rss });
    const s = await stored();
    log(
      `  ${((Date.now() - started) / 60_000).toFixed(1).padStart(6)} ${rss.toFixed(0).padStart(8)} ${published.toLocaleString('en').padStart(11)} ${Math.floor(s).toLocaleString('en').padStart(10)} ${Math.max(
        0,
        published - Math.floor(s),
      )
        .toLocaleString('en')
        .padStart(
          10,
        )} ${streamEvents.toLocaleString('en').padStart(15)} ${String(errors).padStart(15)}${streamOpen ? '' : '  (stream closed)'}`,
    );
  };
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, Math.min(every * 1000, until - Date.now())));
    await report();
  }
  clearInterval(tick);
  await publisher.end();
  // The backlog: up to two minutes for everything published to be stored.
  let final = await stored();
  for (let i = 0; i < 120 && final < published; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    final = await stored();
  }
  const lost = Math.max(0, published - Math.floor(final));
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const mean = (list: { rss: number }[]) => list.reduce((a, s) => a + s.rss, 0) / list.length;
  const early = mean(samples.slice(0, quarter));
  const late = mean(samples.slice(-quarter));
  const growth = late / early - 1;
  log('');
  log(
    `  published ${published.toLocaleString('en')} uplinks, stored ${Math.floor(final).toLocaleString('en')}, lost ${lost}`,
  );
  log(
    `  RSS: first quarter ${early.toFixed(0)} MB, last quarter ${late.toFixed(0)} MB (${(growth * 100).toFixed(0)} %), peak ${Math.max(...samples.map((s) => s.rss)).toFixed(0)} MB`,
  );
  log(
    `  stream: ${streamEvents.toLocaleString('en')} events, ${streamOpen ? 'open to the end' : 'CLOSED before the end'}`,
  );
  log(`  server errors: ${errors}${errorLines.length ? `\n    ${errorLines.join('\n    ')}` : ''}`);
  const failed = lost > 0 || errors > 0 || growth > 0.5 || !streamOpen;
  log(failed ? '  FAILED' : '  passed: nothing lost, no error, memory flat');
  process.exitCode = failed ? 1 : 0;
} finally {
  stopStream();
  server.kill('SIGTERM');
  await db.end();
}
