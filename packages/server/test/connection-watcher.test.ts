import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionWatcher } from '../src/engines/connection-watcher.ts';
import { type LiveEvent, LiveEvents } from '../src/events/live-events.ts';
import { BatchWriter } from '../src/ingest/batch-writer.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let kadikoy: number;
const live = new LiveEvents();
const heard: LiveEvent[] = [];

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const statusOf = async (deviceId: number) =>
  (await rows<{ status: string }>(sql`SELECT status FROM device_connection_status WHERE device_id = ${deviceId}`))[0]
    ?.status;

/** A device last heard `minutes` ago, with the given sleep time (minutes). */
async function heardAgo(deviceId: number, minutes: number, sleepTime: number | null) {
  await t.database.db.execute(sql`UPDATE devices SET sleep_time = ${sleepTime} WHERE id = ${deviceId}`);
  await t.database.db.execute(sql`
    INSERT INTO device_connection_status (account_id, device_id, status, date_time, rssi, snr)
    VALUES (${kadikoy}, ${deviceId}, 'online', now() - make_interval(mins => ${minutes}), -97, 6.5)
    ON CONFLICT (device_id) DO UPDATE SET status = 'online', date_time = excluded.date_time`);
}

let a: number;
let b: number;
let c: number;
let d: number;
let e: number;

beforeAll(async () => {
  t = await startTestApp();
  kadikoy = t.seeded.subAccountIds[0] as number;
  live.subscribe(kadikoy, (events) => heard.push(...events));
  [a, b, c, d, e] = (
    await rows<{ id: number }>(
      sql`SELECT id::int AS id FROM devices WHERE account_id = ${kadikoy} AND dev_eui IS NOT NULL ORDER BY id LIMIT 5`,
    )
  ).map((r) => r.id) as [number, number, number, number, number];
  // The seed gives its lights node-loss settings; these five start without any.
  await t.database.db.execute(
    sql`DELETE FROM device_node_loss_settings WHERE device_id IN (${a}, ${b}, ${c}, ${d}, ${e})`,
  );
  await heardAgo(a, 31, 10); // three sleep times of 10 minutes have passed: offline
  await heardAgo(b, 29, 10); // not yet
  await heardAgo(c, 6, 10); // its node-loss setting says 5 minutes: offline
  await heardAgo(d, 6, 10); // an inactive setting of 1 minute does not count
  await heardAgo(e, 16, null); // no sleep time: a quarter of an hour
  for (const [deviceId, threshold, active] of [
    [c, 5, true],
    [d, 1, false],
  ] as const) {
    await t.database.db.execute(sql`
      INSERT INTO device_node_loss_settings (account_id, device_id, alert_level, is_active, heartbeat_threshold)
      VALUES (${kadikoy}, ${deviceId}, 'high', ${active}, ${threshold})`);
  }
});
afterAll(() => t.close());

describe('connection watcher', () => {
  it('marks devices offline after their silence threshold, and says so on the live stream', async () => {
    const watcher = new ConnectionWatcher(t.database.db, live);
    expect(await watcher.sweep()).toBe(3);
    expect(await statusOf(a)).toBe('offline');
    expect(await statusOf(b)).toBe('online');
    expect(await statusOf(c)).toBe('offline');
    expect(await statusOf(d)).toBe('online');
    expect(await statusOf(e)).toBe('offline');
    const offline = heard.filter((ev) => ev.type === 'status' && ev.status === 'offline');
    expect(offline.map((ev) => (ev as { deviceId: number }).deviceId).sort()).toEqual([a, c, e].sort());
    expect(offline[0]).toMatchObject({ rssi: -97, snr: 6.5 });
    // Nothing more to do on the next pass.
    expect(await watcher.sweep()).toBe(0);
  });

  it('brings a device back online with its next uplink', async () => {
    const writer = new BatchWriter(t.database.db, live, { concurrency: 1 });
    await writer.submit({
      seen: { accountId: kadikoy, deviceId: a, dateTime: new Date(), rssi: -90, snr: 7 },
    });
    await writer.drain();
    expect(await statusOf(a)).toBe('online');
    expect(heard.at(-1)).toMatchObject({ type: 'status', deviceId: a, status: 'online' });
  });
});
