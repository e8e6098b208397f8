/**
 * Outages survived (issue 14), with Lampyr as `npm start` runs it (main.ts) on a PostgreSQL and a
 * Mosquitto of the test's own, stopped and started here: started with both down, the database
 * restarted mid-stream, the broker restarted, a half-open broker connection. HTTP stays up
 * throughout, /ready tells the truth, ingest resumes by itself, and every uplink the broker
 * acknowledged is stored exactly once. What happened is in the system log.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { FreezableProxy, PrivateMosquitto, PrivatePostgres } from './support/private-services.ts';
import { eventually } from './support/test-telemetry.ts';
import { publishUplink, storedFrames } from './support/uplinks.ts';

// The ports of this suite (PostgreSQL, Mosquitto, HTTP); LAMPYR_OUTAGE_PORTS=pg,mqtt,http moves them.
const [PG_PORT, MQTT_PORT, HTTP_PORT] = (process.env.LAMPYR_OUTAGE_PORTS ?? '3918,3919,3917')
  .split(',')
  .map(Number) as [number, number, number];
// Needs PostgreSQL's binaries and Mosquitto: run with the PostgreSQL project.
const enabled = (process.env.LAMPYR_TEST_DB ?? 'pglite').startsWith('postgres');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let postgres: PrivatePostgres | undefined;
let broker: PrivateMosquitto | undefined;
let proxy: FreezableProxy | undefined;
let child: ChildProcess | undefined;
let publisher: MqttClient | undefined;
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await publisher?.endAsync(true);
  await proxy?.close();
  await broker?.stop();
  postgres?.stopQuietly();
});

const base = `http://127.0.0.1:${HTTP_PORT}`;
// biome-ignore lint/suspicious/noExplicitAny: the answers are checked by the assertions.
type Answer = { status: number; body: Record<string, any> };
async function get(path: string): Promise<Answer> {
  try {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(4000) });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  } catch {
    return { status: 0, body: {} };
  }
}

describe.skipIf(!enabled)('outages survived (main.ts, private PostgreSQL and Mosquitto)', () => {
  it('starts with both down, rides out database and broker restarts and a half-open connection, loses and doubles nothing', async () => {
    postgres = new PrivatePostgres(PG_PORT);
    broker = new PrivateMosquitto(MQTT_PORT);
    proxy = new FreezableProxy(MQTT_PORT);
    await proxy.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-outage-'));
    const output: string[] = [];
    child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../src/main.ts')], {
      env: {
        ...process.env,
        DATABASE_URL: postgres.url,
        MQTT_URL: `mqtt://127.0.0.1:${proxy.port}`,
        MQTT_CLIENT_ID: `lampyr-outage-${randomBytes(4).toString('hex')}`,
        MQTT_SHARE_GROUP: '',
        MQTT_KEEPALIVE_SECONDS: '2',
        PORT: String(HTTP_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        JWT_SECRET: randomBytes(36).toString('base64'),
        SECRETS_KEY: randomBytes(32).toString('base64'),
        LAMPYR_ADMIN_PASSWORD: 'outage-admin-password',
        LAMPYR_DEMO: 'true',
        SIMULATOR: 'off',
        WEB_DIST: join(dataDir, 'no-console'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
    child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));

    // 1. Both down: HTTP answers all the same — alive, not ready.
    const starting = await eventually(async () => {
      const health = await get('/health');
      return health.status === 200 && health;
    }, 60_000);
    expect(starting.body.data.status).toBe('starting');
    expect((await get('/ready')).status).toBe(503);
    expect(output.join('')).toMatch(/database: not reachable/);

    // 2. The database comes: the server starts; the broker is still away, and /ready says so.
    postgres.start();
    const brokerless = await eventually(async () => {
      const ready = await get('/ready');
      return ready.status === 503 && ready.body.data?.checks?.broker && ready;
    }, 90_000);
    expect(brokerless.body.data.checks).toMatchObject({
      database: { ok: true },
      migrations: { ok: true },
      broker: { ok: false },
    });
    expect((await get('/health')).body.data).toMatchObject({ status: 'ok' });

    // 3. The broker comes: ready.
    await broker.start();
    await eventually(async () => (await get('/ready')).status === 200, 30_000);

    // A steady stream of uplinks; what the broker acknowledged is remembered.
    publisher = mqtt.connect(broker.url, {
      clientId: `outage-publisher-${randomBytes(4).toString('hex')}`,
      reconnectPeriod: 300,
      protocolVersion: 4,
      clean: true,
    });
    publisher.on('error', () => {});
    await new Promise<void>((resolve) => publisher?.once('connect', () => resolve()));
    const first = 100_000 + Math.floor(Math.random() * 100_000);
    const acknowledged: number[] = [];
    let next = first;
    let streaming = true;
    const stream = (async () => {
      while (streaming) {
        const fcnt = next++;
        // Lights 1 … 10: one model, five values a frame.
        await publishUplink(publisher as MqttClient, 1 + (fcnt % 10), fcnt).then(
          () => acknowledged.push(fcnt),
          () => {},
        );
        await sleep(25);
      }
    })();
    const health: number[] = [];
    const watching = (async () => {
      while (streaming) {
        health.push((await get('/health')).status);
        await sleep(200);
      }
    })();
    await sleep(1500);

    // 4. PostgreSQL restarted mid-stream: /ready goes 503 while it is down, then 200.
    postgres.stop();
    await eventually(async () => (await get('/ready')).status === 503, 10_000);
    await sleep(2000);
    postgres.start();
    await eventually(async () => (await get('/ready')).status === 200, 30_000);
    await sleep(1500);

    // 5. The broker restarted mid-stream.
    await broker.stop();
    const away = await eventually(async () => {
      const ready = await get('/ready');
      return ready.status === 503 && ready.body.data.checks.broker?.ok === false && ready;
    }, 10_000);
    expect(away.body.data.checks.database).toEqual({ ok: true });
    await sleep(1000);
    await broker.start();
    await eventually(async () => (await get('/ready')).status === 200, 30_000);
    await sleep(1500);

    // 6. A half-open connection: the proxy swallows everything and closes nothing. The keep-alive
    // (2 s here) notices within seconds and the ingest connects again.
    const sentBeforeFreeze = next;
    expect(proxy.freeze()).toBeGreaterThan(0);
    await eventually(async () => (await get('/ready')).status === 503, 15_000);
    await eventually(async () => (await get('/ready')).status === 200, 30_000);
    const afterFreeze = Array.from({ length: 10 }, (_, i) => sentBeforeFreeze + 20 + i);
    await eventually(async () => next > (afterFreeze.at(-1) as number), 20_000);
    streaming = false;
    await Promise.all([stream, watching]);

    // Every acknowledged uplink stored exactly once.
    expect(acknowledged.length).toBeGreaterThan(100);
    const counts = await eventually(async () => {
      const c = await storedFrames(postgres?.url as string, acknowledged);
      return [...c.values()].every((n) => n > 0) && c;
    }, 60_000);
    // Five readings a frame: none missing, none twice.
    expect([...counts.entries()].filter(([, n]) => n !== 5)).toEqual([]);
    process.stdout.write(
      `outages: ${acknowledged.length} uplinks acknowledged by the broker, all stored once; /health polled ${health.length} times, always 200\n`,
    );
    // HTTP never went down.
    expect(health.length).toBeGreaterThan(10);
    expect(health.filter((s) => s !== 200)).toEqual([]);

    // 7. The system log tells what happened.
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child?.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    const lines = (
      await db.query<{ level: string; source: string; message: string }>(
        'SELECT level, source, message FROM system_logs ORDER BY id',
      )
    ).rows.map((r) => `${r.level} ${r.source}: ${r.message}`);
    await db.end();
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^info database: \d+ migration\(s\) applied$/),
        'info server: starting with roles query, command, ingest, engines',
        'info server: started',
        'info engines: this replica leads the engines',
        'error database: connection lost',
        'info database: connection regained',
        'info broker: connected',
        // The broker's restart reads as a lost connection, or — when it falls while the ingest had
        // already let go of the broker because storing failed — as that disconnection.
        expect.stringMatching(/^warn broker: (connection lost|disconnected while storing fails)/),
        'info broker: connection regained',
        'warn broker: connection lost (no answer to keep-alive pings)',
        'info server: stopping (SIGTERM)',
      ]),
    );
    expect(lines.filter((l) => l.startsWith('info engines: this replica leads')).length).toBeGreaterThanOrEqual(1);
  }, 420_000);
});
