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

  it('gives each device its lamp state, and filters by street and state', async () => {
    // MINE-2 reports its lamp on at full level with power; MINE-3 is on a street of its own.
    await t.database.db.execute(sql`
      INSERT INTO channel_values (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status)
      SELECT d.account_id, d.id, t.id, 0, CASE t.channel_code WHEN 'power' THEN 95 WHEN 'dim' THEN 100 ELSE 1 END, now(), 'ok'
      FROM devices d JOIN device_channel_templates t ON t.device_type_model_id = d.device_type_model_id
      WHERE d.name = 'MINE-2' AND t.channel_code IN ('lamp', 'dim', 'power')`);
    await t.database.db.execute(sql`UPDATE devices SET street = 'Lampyr Test Sokağı' WHERE name = 'MINE-3'`);
    const all = await api.call('GET', `/query/api/device-map?${BOX}&zoom=14`);
    const two = (all.body.data.devices as { name: string; state: string; power: number }[]).find(
      (d) => d.name === 'MINE-2',
    );
    expect(two?.state).toBe('on');
    expect(two?.power).toBe(95);
    expect(all.body.data.counts.on).toBe(1);
    expect(Object.values(all.body.data.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(30);

    const on = await api.call('GET', `/query/api/device-map?${BOX}&zoom=14&state=on`);
    expect(on.body.data.total).toBe(1);
    expect((on.body.data.devices as { name: string }[]).map((d) => d.name)).toEqual(['MINE-2']);
    // The legend still counts every state in view.
    expect(on.body.data.counts.unknown).toBe(all.body.data.counts.unknown);

    const street = await api.call(
      'GET',
      `/query/api/device-map?${BOX}&zoom=14&street=${encodeURIComponent(' lampyr test sokağı ')}`,
    );
    expect((street.body.data.devices as { name: string }[]).map((d) => d.name)).toEqual(['MINE-3']);

    const extent = await api.call('GET', '/query/api/device-map/extent?street=Lampyr%20Test%20Soka%C4%9F%C4%B1');
    expect(extent.status).toBe(200);
    expect(extent.body.data.devices).toBe(1);
    expect(extent.body.data.south).toBeCloseTo(extent.body.data.north, 6);
    const bad = await api.call('GET', `/query/api/device-map?${BOX}&zoom=14&state=glowing`);
    expect(bad.status).toBe(400);
    expect(bad.raw).not.toMatch(/select|stack/i);
  });

  it('sends clusters when more than 2,000 devices are in view, their counts adding up', async () => {
    await lights(mine, 'MANY-', MAP_DEVICES_MAX + 100);
    const res = await api.call('GET', `/query/api/device-map?${BOX}&zoom=12`);
    expect(res.status).toBe(200);
    const { total, devices, clusters, counts } = res.body.data as {
      total: number;
      devices: unknown[];
      counts: Record<string, number>;
      clusters: { count: number; states: Record<string, number>; latitude: number }[];
    };
    expect(total).toBe(MAP_DEVICES_MAX + 130);
    expect(devices).toEqual([]);
    expect(clusters.length).toBeGreaterThan(0);
    expect(clusters.reduce((a, c) => a + c.count, 0)).toBe(total);
    for (const c of clusters) {
      expect(Object.values(c.states).reduce((a, b) => a + b, 0)).toBe(c.count);
      expect(c.latitude).toBeGreaterThanOrEqual(10);
    }
    expect(clusters.reduce((a, c) => a + (c.states.on ?? 0), 0)).toBe(1);
    expect(counts.on).toBe(1);
    // Closer in, the grid is finer: more clusters for the same devices.
    const closer = await api.call('GET', `/query/api/device-map?${BOX}&zoom=16`);
    expect(closer.body.data.clusters.length).toBeGreaterThan(clusters.length);
    // Filtered to a state with few devices, they come one by one again.
    const onOnly = await api.call('GET', `/query/api/device-map?${BOX}&zoom=12&state=on`);
    expect(onOnly.body.data.clusters).toEqual([]);
    expect(onOnly.body.data.devices).toHaveLength(1);
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
