import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAP_DEVICES_MAX } from '../src/api/device-map-routes.ts';
import { Client, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * The clustered map: devices one by one up to 2,000 in view, clusters beyond that; counts per
 * status add up; another account's devices never appear; bad boxes are refused clearly.
 */
let t: TestApp;
let api: Client;
let mine: number;
let theirs: number;
const BOX = 'west=10&south=10&east=10.1&north=10.1';

async function lights(accountId: number, prefix: string, count: number) {
  await t.database.db.execute(sql`
    INSERT INTO devices (account_id, name, device_type_model_id, latitude, longitude)
    SELECT ${accountId}, ${prefix} || n, (SELECT id FROM device_models WHERE model_name LIKE 'SLC-L1%' LIMIT 1),
           10 + (n % 97) / 1000.0, 10 + (n % 89) / 1000.0
    FROM generate_series(1, ${count}) AS n`);
}

beforeAll(async () => {
  t = await startTestApp({ demo: true });
  api = new Client(t.app);
  await api.login();
  [mine, theirs] = t.seeded.subAccountIds as [number, number];
  api.accountId = mine;
  await lights(theirs, 'THEIRS-', 50);
});
afterAll(() => t?.close());

describe('device map', () => {
  it("lists the devices in view one by one, never another account's", async () => {
    await lights(mine, 'MINE-', 30);
    await t.database.db.execute(sql`
      INSERT INTO device_connection_status (account_id, device_id, status, date_time)
      SELECT account_id, id, 'online', now() FROM devices WHERE name = 'MINE-1'`);
    const res = await api.call('GET', `/query/api/device-map?${BOX}&zoom=14`);
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(30);
    expect(res.body.data.clusters).toEqual([]);
    const names = (res.body.data.devices as { name: string }[]).map((d) => d.name);
    expect(names).toHaveLength(30);
    expect(names.every((n) => n.startsWith('MINE-'))).toBe(true);
    const one = (res.body.data.devices as { name: string; status: string }[]).find((d) => d.name === 'MINE-1');
    expect(one?.status).toBe('online');
    // The other account sees only its own.
    api.accountId = theirs;
    const other = await api.call('GET', `/query/api/device-map?${BOX}&zoom=14`);
    api.accountId = mine;
    expect(other.body.data.total).toBe(50);
    expect((other.body.data.devices as { name: string }[]).every((d) => d.name.startsWith('THEIRS-'))).toBe(true);
  });

  it('sends clusters when more than 2,000 devices are in view, their counts adding up', async () => {
    await lights(mine, 'MANY-', MAP_DEVICES_MAX + 100);
    const res = await api.call('GET', `/query/api/device-map?${BOX}&zoom=12`);
    expect(res.status).toBe(200);
    const { total, devices, clusters } = res.body.data as {
      total: number;
      devices: unknown[];
      clusters: { count: number; online: number; offline: number; never: number; latitude: number }[];
    };
    expect(total).toBe(MAP_DEVICES_MAX + 130);
    expect(devices).toEqual([]);
    expect(clusters.length).toBeGreaterThan(0);
    expect(clusters.reduce((a, c) => a + c.count, 0)).toBe(total);
    for (const c of clusters) {
      expect(c.online + c.offline + c.never).toBe(c.count);
      expect(c.latitude).toBeGreaterThanOrEqual(10);
    }
    expect(clusters.reduce((a, c) => a + c.online, 0)).toBe(1);
    // Closer in, the grid is finer: more clusters for the same devices.
    const closer = await api.call('GET', `/query/api/device-map?${BOX}&zoom=16`);
    expect(closer.body.data.clusters.length).toBeGreaterThan(clusters.length);
  });

  it('refuses a missing or impossible box with a clear error, in Turkish too', async () => {
    for (const query of [
      'west=10&south=10&east=10.1&zoom=12',
      'west=abc&south=10&east=10.1&north=10.1&zoom=12',
      'west=10&south=95&east=10.1&north=96&zoom=12',
      'west=10&south=11&east=10.1&north=10&zoom=12',
      `${BOX}&zoom=99`,
      `${BOX}&zoom=1.5`,
    ]) {
      const res = await api.call('GET', `/query/api/device-map?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.raw).not.toMatch(/select|stack/i);
    }
    api.language = 'tr';
    const tr = await api.call('GET', `/query/api/device-map?${BOX}&zoom=99`);
    api.language = undefined;
    expect(tr.status).toBe(400);
    expect(tr.body.error?.message).toMatch(/zoom/);
  });

  it('answers nothing without a sign-in', async () => {
    const anonymous = new Client(t.app);
    anonymous.accountId = mine;
    const res = await anonymous.call('GET', `/query/api/device-map?${BOX}&zoom=12`);
    expect(res.status).toBe(401);
  });
});
