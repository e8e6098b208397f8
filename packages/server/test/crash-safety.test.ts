import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_APPLICATION_ID, devEuiOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/connect.ts';
import { seed } from '../src/seed/seed.ts';
import { ADMIN, testDatabase } from './support/test-app.ts';
import { connectClient, eventually, startTestBroker, type TestBroker } from './support/test-telemetry.ts';

const UPLINKS = 600;
const KILL_AFTER = 200;
const DEVICES = 40;
const CHANNELS = 8; // SLC-L2

let broker: TestBroker | undefined;
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  await broker?.close();
});

/** A database the child can open too: the real PostgreSQL, or PGlite files in a temporary folder. */
async function sharedDatabase(): Promise<{ target: string; open(): Promise<Database> }> {
  const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
  if (target !== 'pglite') {
    const database = await testDatabase();
    await seed(database.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: true });
    await database.close();
    return { target, open: () => openDatabase({ url: target, dataDir: 'unused' }) };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-crash-'));
  const database = await openDatabase({ dataDir });
  await seed(database.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: true });
  await database.close();
  return { target: dataDir, open: () => openDatabase({ dataDir }) };
}

function startChild(env: Record<string, string>): Promise<ChildProcess> {
  const started = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'support/ingest-child.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    started.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(started);
    });
    started.once('exit', (code) => reject(new Error(`ingest child exited with ${code}`)));
  });
}

function uplink(n: number) {
  const device = 11 + (n % DEVICES);
  const devEui = devEuiOf(device);
  const data = Buffer.from([1, 100, 0, 120, 0x08, 0xfc, 0x01, 0xf4, 0, 0, 0x27, 0x10, 0, 5, 0, 30]);
  return {
    topic: `application/${DEMO_APPLICATION_ID}/device/${devEui}/event/up`,
    payload: JSON.stringify({
      time: new Date(Date.UTC(2026, 10, 21, 18, 0, 0, n)).toISOString(),
      deviceInfo: { devEui, applicationId: DEMO_APPLICATION_ID },
      fCnt: 10_000 + n,
      fPort: 10,
      data: data.toString('base64'),
      rxInfo: [{ gatewayId: 'a840411b2c3d4e5f', rssi: -90, snr: 7 }],
    }),
  };
}

it('stores every uplink the broker acknowledged exactly once when the ingest is killed mid-stream', async () => {
  const database = await sharedDatabase();
  broker = await startTestBroker();
  const env = {
    CHILD_DB: database.target,
    CHILD_MQTT_URL: broker.url,
    CHILD_MQTT_USERNAME: broker.username ?? '',
    CHILD_MQTT_PASSWORD: broker.password ?? '',
    CHILD_CLIENT_ID: `lampyr-crash-${randomBytes(4).toString('hex')}`,
    CHILD_SHARE_GROUP: broker.shareGroup,
  };
  child = await startChild(env);
  const publisher = await connectClient(broker, 'crash-publisher');
  let acknowledged = 0;
  const inFlight: Promise<unknown>[] = [];
  for (let n = 0; n < UPLINKS; n++) {
    const { topic, payload } = uplink(n);
    inFlight.push(
      publisher.publishAsync(topic, payload, { qos: 1 }).then(() => {
        acknowledged++;
      }),
    );
    if (n === KILL_AFTER) {
      // Mid-stream: some messages are stored, some in the child's batch, some queued at the broker.
      await Promise.all(inFlight.splice(0));
      child.kill('SIGKILL');
      await new Promise((resolve) => child?.once('exit', resolve));
    }
    if (n % 50 === 0) await Promise.all(inFlight.splice(0));
  }
  await Promise.all(inFlight);
  await publisher.endAsync();
  expect(acknowledged).toBe(UPLINKS);

  child = await startChild(env);
  const check = async () => {
    // PGlite allows one process at a time: stop the child before looking.
    const db = database.target.startsWith('postgres') ? await database.open() : undefined;
    try {
      if (!db) return undefined;
      const result = await db.db.execute(sql`
        SELECT count(*)::int AS n, count(DISTINCT (device_id, device_channel_template_id, frame_key))::int AS distinct_n
        FROM channel_read_values WHERE frame_key LIKE 'fcnt:1%'`);
      return (result as unknown as { rows: { n: number; distinct_n: number }[] }).rows[0];
    } finally {
      await db?.close();
    }
  };
  if (database.target.startsWith('postgres')) {
    const counts = await eventually(async () => {
      const c = await check();
      return c?.n === UPLINKS * CHANNELS && c;
    }, 20_000);
    expect(counts).toEqual({ n: UPLINKS * CHANNELS, distinct_n: UPLINKS * CHANNELS });
  } else {
    // Give the child time to drain what the broker kept for it, then stop it and count.
    await new Promise((r) => setTimeout(r, 4000));
    child.kill('SIGTERM');
    await new Promise((resolve) => child?.once('exit', resolve));
    child = undefined;
    const db = await database.open();
    const result = await db.db.execute(sql`
      SELECT count(*)::int AS n, count(DISTINCT (device_id, device_channel_template_id, frame_key))::int AS distinct_n
      FROM channel_read_values WHERE frame_key LIKE 'fcnt:1%'`);
    await db.close();
    expect((result as unknown as { rows: unknown[] }).rows[0]).toEqual({
      n: UPLINKS * CHANNELS,
      distinct_n: UPLINKS * CHANNELS,
    });
  }
}, 90_000);
