import { LOST_LIGHTS } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, lastCode, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let admin: Client;
let kadikoy: number;
let uskudar: number;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  t = await startTestApp();
  admin = new Client(t.app);
  await admin.login();
  [kadikoy, uskudar] = t.seeded.subAccountIds as [number, number];
  admin.accountId = kadikoy;
  // Three lights online, two offline; three active alarms and one that has cleared.
  const lights = await rows<{ id: number }>(
    sql`SELECT id::int AS id FROM devices WHERE account_id = ${kadikoy} AND dev_eui IS NOT NULL ORDER BY id LIMIT 5`,
  );
  for (const [i, light] of lights.entries()) {
    await t.database.db.execute(sql`
      INSERT INTO device_connection_status (account_id, device_id, status, date_time)
      VALUES (${kadikoy}, ${light.id}, ${i < 3 ? 'online' : 'offline'}, now())`);
  }
  const lightType = (
    await rows<{ id: number }>(sql`
      SELECT m.device_type_id::int AS id FROM devices d JOIN device_models m ON m.id = d.device_type_model_id
      WHERE d.id = ${lights[0]?.id}`)
  )[0]?.id as number;
  // One active alarm per device and kind (the partial unique index): each on its own light.
  for (const [i, [level, active]] of (
    [
      ['high', true],
      ['high', true],
      ['low', true],
      ['medium', false],
    ] as const
  ).entries()) {
    await t.database.db.execute(sql`
      INSERT INTO alert_logs (account_id, alert_level, date_time, device_id, device_type_id, is_active, state)
      VALUES (${kadikoy}, ${level}, now(), ${lights[i]?.id}, ${lightType}, ${active}, ${active ? 'active' : 'cleared'})`);
  }
});
afterAll(() => t.close());

const summary = (client: Client, query = '') => client.call('GET', `/query/api/dashboard-summary${query}`);

describe('dashboard summary', () => {
  it("counts the account's devices by type, their connection and its active alarms by level", async () => {
    const res = await summary(admin);
    expect(res.status).toBe(200);
    const data = res.body.data;
    const devices = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM devices WHERE account_id = ${kadikoy}`,
    );
    expect(data.deviceCount).toBe(devices[0]?.n);
    expect(data.deviceCount).toBeGreaterThan(5);
    // The seed's lights lost in the field are offline too.
    expect(data).toMatchObject({
      online: 3,
      offline: 2 + LOST_LIGHTS,
      neverSeen: data.deviceCount - 5 - LOST_LIGHTS,
    });
    expect(data.alarms).toEqual({ low: 1, medium: 0, high: 2, count: 3 });
    // Lights and IP controllers of the seed, each with its names and counts.
    expect(data.inventory.length).toBeGreaterThanOrEqual(2);
    expect(data.inventory.reduce((n: number, r: { devices: number }) => n + r.devices, 0)).toBe(data.deviceCount);
    for (const row of data.inventory) expect(row.typeNameEn && row.typeNameTr).toBeTruthy();
  });

  it('narrows everything to one device type', async () => {
    const all = (await summary(admin)).body.data;
    const other = all.inventory.find((r: { online: number }) => r.online === 0);
    const narrowed = (await summary(admin, `?deviceTypeId=${other.deviceTypeId}`)).body.data;
    expect(narrowed.inventory).toEqual([other]);
    expect(narrowed).toMatchObject({ deviceCount: other.devices, online: 0, offline: 0, neverSeen: other.devices });
    expect(narrowed.alarms).toEqual({ low: 0, medium: 0, high: 0, count: 0 });
  });

  it("shows another account nothing of Kadıköy's", async () => {
    const other = new Client(t.app);
    await other.login();
    other.accountId = uskudar;
    const data = (await summary(other)).body.data;
    expect(data.online + data.offline).toBe(0);
    expect(data.alarms.count).toBe(0);
  });

  it('refuses a device type that is not an id, and leaves alarms out for a role that may not read them', async () => {
    const bad = await summary(admin, '?deviceTypeId=1%20OR%201=1');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe('BAD_REQUEST');

    // Roles are shared reference data, written by a platform operator (the seeded administrator).
    admin.accountId = t.seeded.integratorId;
    const role = await admin.create('roles', { name: `Lights only ${Date.now()}`, permissions: { devices: ['read'] } });
    expect(role.status).toBe(201);
    admin.accountId = kadikoy;
    const email = `lights-${Date.now()}@kadikoy.test`;
    const user = await admin.create('users', {
      firstName: 'Işık',
      lastName: 'Bakıcı',
      email,
      roleId: role.body.data.id,
    });
    expect(user.status).toBe(201);
    // The invited person chooses a password with the e-mailed code.
    const reset = { email, code: await lastCode(t.dataDir, email), password: 'lights-only' };
    expect((await admin.call('POST', '/command/api/auth/reset-password', reset)).status).toBe(200);
    const viewer = new Client(t.app);
    expect((await viewer.login(email, 'lights-only')).status).toBe(200);
    viewer.accountId = kadikoy;
    const data = (await summary(viewer)).body.data;
    expect(data.alarms).toBeNull();
    expect(data.online).toBe(3);
    // Without devices, no summary at all.
    admin.accountId = t.seeded.integratorId;
    const stripped = await admin.update('roles', { ...role.body.data, permissions: {} });
    admin.accountId = kadikoy;
    expect(stripped.status).toBe(200);
    expect((await summary(viewer)).status).toBe(403);
  });
});
