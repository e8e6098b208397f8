/**
 * A stopped worker steals no messages (issue 14), on a real broker with shared subscriptions
 * (Mosquitto, TEST_MQTT_URL): two ingest workers share one subscription; one is stopped for good
 * (its session ended: retired) and every uplink after that is stored by the other within seconds.
 * A worker that restarts with its client id resumes its own session: what the broker kept for it
 * while it was away is stored, once. Each run has its own share group and client ids, and every
 * session is ended at the end.
 */
import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/connect.ts';
import { CommandEvents } from '../src/events/command-events.ts';
import { LiveEvents } from '../src/events/live-events.ts';
import { type Ingest, startIngest } from '../src/ingest/ingest-service.ts';
import { retireSession } from '../src/ingest/retire-session.ts';
import { seed } from '../src/seed/seed.ts';
import { ADMIN, testDatabase } from './support/test-app.ts';
import { connectClient, eventually, TEST_BROKER, type TestBroker } from './support/test-telemetry.ts';
import { publishUplink, storedFrames } from './support/uplinks.ts';

const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
const sharedBroker = TEST_BROKER !== 'aedes' && target.startsWith('postgres');
const run = randomBytes(4).toString('hex');
const broker: TestBroker = { url: TEST_BROKER, shareGroup: `lampyr-workers-${run}`, close: async () => {} };

let database: Database | undefined;
let publisher: MqttClient | undefined;
const running = new Set<Ingest>();
const clientIds = new Set<string>();
afterAll(async () => {
  for (const ingest of running) await ingest.close({ endSession: true }).catch(() => {});
  // Nothing of this run is left at the shared broker.
  for (const clientId of clientIds) await retireSession({ url: broker.url, clientId }).catch(() => {});
  await publisher?.endAsync();
  await database?.close();
});

async function worker(clientId: string, onAcknowledged?: (n: number) => void): Promise<Ingest> {
  clientIds.add(clientId);
  const ingest = await startIngest({
    db: (database as Database).db,
    databaseKind: 'postgres',
    url: broker.url,
    clientId,
    shareGroup: broker.shareGroup,
    sessionExpirySeconds: 300,
    live: new LiveEvents(),
    commands: new CommandEvents(),
    downlinkTimeoutMs: 60_000,
    connectionSweepMs: 0,
    onAcknowledged,
    log: { error: () => {}, warn: () => {} },
  });
  running.add(ingest);
  return ingest;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!sharedBroker)('ingest workers on one shared subscription', () => {
  it('a retired worker takes no share: every uplink after it stopped is stored by the other within seconds', async () => {
    database = await testDatabase();
    await seed(database.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: true });
    let acknowledgedByOne = 0;
    let acknowledgedByTwo = 0;
    const one = await worker(`lampyr-w1-${run}`, (n) => {
      acknowledgedByOne += n;
    });
    await worker(`lampyr-w2-${run}`, (n) => {
      acknowledgedByTwo += n;
    });
    publisher = await connectClient(broker, `workers-publisher-${run}`);
    const base = 800_000 + Math.floor(Math.random() * 100_000);
    // Both take part: a first round of uplinks is shared between them, and all stored.
    const first = Array.from({ length: 20 }, (_, i) => base + i);
    for (const fcnt of first) await publishUplink(publisher, 5, fcnt);
    await eventually(async () => [...(await storedFrames(target, first)).values()].every((n) => n > 0), 10_000);
    expect(acknowledgedByOne).toBeGreaterThan(0);
    expect(acknowledgedByTwo).toBeGreaterThan(0);

    // Worker one leaves for good: its session ends with it.
    await one.close({ endSession: true });
    running.delete(one);
    const after = Array.from({ length: 40 }, (_, i) => base + 100 + i);
    const stoppedAt = Date.now();
    for (const fcnt of after) await publishUplink(publisher, 5, fcnt);
    await eventually(async () => [...(await storedFrames(target, after)).values()].every((n) => n > 0), 10_000);
    const took = Date.now() - stoppedAt;
    expect(took).toBeLessThan(10_000);
    const counts = await storedFrames(target, [...first, ...after]);
    const perFrame = counts.get(base) as number;
    expect(perFrame).toBeGreaterThan(0);
    // Each stored once.
    expect([...counts.values()].every((n) => n === perFrame)).toBe(true);
  }, 120_000);

  it('a worker restarted with its client id resumes its session: what waited for it is stored, once', async () => {
    const id = `lampyr-w3-${run}`;
    const three = await worker(id);
    const base = 900_000 + Math.floor(Math.random() * 90_000);
    // Stopped without ending its session (a restart): the broker keeps its share for it.
    await three.close();
    running.delete(three);
    const meanwhile = Array.from({ length: 30 }, (_, i) => base + i);
    for (const fcnt of meanwhile) await publishUplink(publisher as MqttClient, 6, fcnt);
    await sleep(500);
    const waiting = [...(await storedFrames(target, meanwhile)).values()].filter((n) => n === 0).length;
    // The other worker stored its share; the rest waited at the broker for worker three.
    expect(waiting).toBeGreaterThan(0);
    const resumed = await worker(id);
    await eventually(async () => [...(await storedFrames(target, meanwhile)).values()].every((n) => n > 0), 10_000);
    const counts = [...(await storedFrames(target, meanwhile)).values()];
    expect(new Set(counts).size).toBe(1);

    // Worker three dies for good (no clean stop) and is retired from outside, as `npm run mqtt:retire`
    // does: from then on the other worker receives every uplink.
    await resumed.close();
    running.delete(resumed);
    await retireSession({ url: broker.url, clientId: id });
    const retired = Array.from({ length: 30 }, (_, i) => base + 50 + i);
    for (const fcnt of retired) await publishUplink(publisher as MqttClient, 6, fcnt);
    await eventually(async () => [...(await storedFrames(target, retired)).values()].every((n) => n > 0), 10_000);
  }, 120_000);
});
