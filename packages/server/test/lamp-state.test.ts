import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * Lamp state (contract lamp-state.ts, server data/lamp-state.ts), the dashboard's operator figures
 * and task-group members from a street, a region or a map area — on Üsküdar, which the demo leaves
 * without lights, so every figure is the hand-made fleet's below.
 */
let t: TestApp;
let admin: Client;
let kadikoy: number;
let uskudar: number;
let modelId: number;
let region: number;
const channel: Record<'lamp' | 'dim' | 'power', number> = { lamp: 0, dim: 0, power: 0 };
const ids: Record<string, number> = {};

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * Each light: its street, coordinates, rated power, connection, latest lamp/dim/power readings and
 * what else it has; `expect` is the state worked out by hand from the rules.
 */
const FLEET: {
  key: string;
  street: string;
  at: [number, number];
  rated?: number;
  connection?: 'online' | 'offline';
  lamp?: number;
  dim?: number;
  power?: number;
  alarm?: 'threshold' | 'nodeLoss';
  faultReport?: 'open' | 'closed';
  installation?: string;
  expect: string;
}[] = [
  // On at full level, drawing its rated power.
  {
    key: 'on',
    street: 'Nuh Kuyusu Caddesi',
    at: [41.02, 29.04],
    connection: 'online',
    lamp: 1,
    dim: 100,
    power: 118,
    expect: 'on',
  },
  // On at half: 60 W of the 120 W luminaire.
  {
    key: 'dimmed',
    street: 'Nuh Kuyusu Caddesi',
    at: [41.021, 29.041],
    connection: 'online',
    lamp: 1,
    dim: 50,
    power: 60,
    expect: 'dimmed',
  },
  // Switched off: the dim level it keeps does not make it dimmed.
  {
    key: 'off',
    street: 'Nuh Kuyusu Caddesi',
    at: [41.022, 29.042],
    connection: 'online',
    lamp: 0,
    dim: 50,
    power: 0,
    expect: 'off',
  },
  // On at 0 W: a failed lamp (the "on at 0 W looks green").
  {
    key: 'dark',
    street: 'Tunusbağı Caddesi',
    at: [41.03, 29.05],
    connection: 'online',
    lamp: 1,
    dim: 100,
    power: 0,
    expect: 'fault',
  },
  // 40 % of 120 W is 48 W; 20 % of that is 9.6 W: 10 W burns, 9 W has failed.
  {
    key: 'low-ok',
    street: 'Tunusbağı Caddesi',
    at: [41.031, 29.051],
    connection: 'online',
    lamp: 1,
    dim: 40,
    power: 10,
    expect: 'dimmed',
  },
  {
    key: 'low-bad',
    street: 'Tunusbağı Caddesi',
    at: [41.032, 29.052],
    connection: 'online',
    lamp: 1,
    dim: 40,
    power: 9,
    expect: 'fault',
  },
  // Offline wins over its last readings, and a node-loss alarm is silence, not a fault.
  {
    key: 'lost',
    street: 'Tunusbağı Caddesi',
    at: [41.033, 29.053],
    connection: 'offline',
    lamp: 1,
    dim: 100,
    power: 120,
    alarm: 'nodeLoss',
    expect: 'offline',
  },
  // An active alarm (over-voltage, say) is an open fault even while it burns.
  {
    key: 'alarmed',
    street: 'Selman Ağa Sokağı',
    at: [41.04, 29.06],
    connection: 'online',
    lamp: 1,
    dim: 100,
    power: 119,
    alarm: 'threshold',
    expect: 'fault',
  },
  // An open fault report, whatever the readings; a closed one is history.
  {
    key: 'reported',
    street: 'Selman Ağa Sokağı',
    at: [41.041, 29.061],
    connection: 'online',
    lamp: 0,
    dim: 100,
    power: 0,
    faultReport: 'open',
    expect: 'fault',
  },
  {
    key: 'repaired',
    street: 'Selman Ağa Sokağı',
    at: [41.042, 29.062],
    connection: 'online',
    lamp: 0,
    dim: 100,
    power: 0,
    faultReport: 'closed',
    expect: 'off',
  },
  // An open fault even when offline: a crew needs to go either way.
  {
    key: 'faulty',
    street: 'Selman Ağa Sokağı',
    at: [41.043, 29.063],
    connection: 'offline',
    installation: 'faulty',
    expect: 'fault',
  },
  // Without a rating, a lamp on under 6 W has failed.
  {
    key: 'unrated',
    street: 'Selman Ağa Sokağı',
    at: [41.044, 29.064],
    rated: 0,
    connection: 'online',
    lamp: 1,
    dim: 100,
    power: 5,
    expect: 'fault',
  },
  // Never heard from.
  { key: 'new', street: 'Doğancılar Caddesi', at: [41.05, 29.07], expect: 'unknown' },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = new Client(t.app);
  await admin.login();
  [kadikoy, uskudar] = t.seeded.subAccountIds as [number, number];
  admin.accountId = uskudar;
  const [model] = await rows<{ id: number }>(
    sql`SELECT id::int AS id FROM device_models WHERE model_name LIKE 'SLC-L2%'`,
  );
  modelId = model?.id as number;
  for (const row of await rows<{ id: number; code: 'lamp' | 'dim' | 'power' }>(
    sql`SELECT id::int AS id, channel_code AS code FROM device_channel_templates
        WHERE device_type_model_id = ${modelId} AND channel_code IN ('lamp', 'dim', 'power')`,
  ))
    channel[row.code] = row.id;
  const [altunizade] = await rows<{ id: number }>(
    sql`SELECT id::int AS id FROM regions WHERE account_id = ${uskudar} AND name = 'Altunizade'`,
  );
  region = altunizade?.id as number;

  for (const [i, light] of FLEET.entries()) {
    const created = await admin.create('devices', {
      name: `USK-${light.key}`,
      deviceTypeModelId: modelId,
      regionId: light.street === 'Doğancılar Caddesi' ? null : region,
      street: light.street,
      latitude: light.at[0],
      longitude: light.at[1],
      ...(light.rated === undefined ? {} : { ratedPower: light.rated }),
      ...(light.installation ? { status: light.installation } : {}),
      devEui: `aa00000000000${(i + 1).toString(16).padStart(3, '0')}`,
    });
    expect(created.status, created.raw).toBe(201);
    const id = created.body.data.id as number;
    ids[light.key] = id;
    if (light.connection)
      await t.database.db.execute(sql`
        INSERT INTO device_connection_status (account_id, device_id, status, date_time)
        VALUES (${uskudar}, ${id}, ${light.connection}, now())`);
    for (const code of ['lamp', 'dim', 'power'] as const) {
      const value = light[code];
      if (value === undefined) continue;
      await t.database.db.execute(sql`
        INSERT INTO channel_values (account_id, device_id, device_channel_template_id, value, date_time, status)
        VALUES (${uskudar}, ${id}, ${channel[code]}, ${value}, now(), 'ok')`);
    }
    if (light.alarm)
      await t.database.db.execute(sql`
        INSERT INTO alert_logs (account_id, alert_level, date_time, device_id, is_active, state, kind)
        VALUES (${uskudar}, 'high', now(), ${id}, true, 'active', ${light.alarm})`);
    if (light.faultReport)
      await t.database.db.execute(sql`
        INSERT INTO fault_reports (account_id, device_id, fault_type, reported_at, status)
        VALUES (${uskudar}, ${id}, 'lamp_failure', now(), ${light.faultReport})`);
  }
});
afterAll(() => t.close());

const states = async (client: Client, query = '') => {
  const res = await client.call('GET', `/query/api/lamp-states${query}`);
  expect(res.status, res.raw).toBe(200);
  return new Map<number, { state: string; lamp: number | null; dim: number | null; power: number | null }>(
    res.body.data.map((r: { deviceId: number }) => [r.deviceId, r]),
  );
};

describe('lamp state', () => {
  it('derives each state from the readings, the connection and the open faults', async () => {
    const byId = await states(admin);
    expect(byId.size).toBe(FLEET.length);
    for (const light of FLEET)
      expect([light.key, byId.get(ids[light.key] as number)?.state]).toEqual([light.key, light.expect]);
    expect(byId.get(ids.dimmed as number)).toMatchObject({ lamp: 1, dim: 50, power: 60 });
    expect(byId.get(ids.new as number)).toMatchObject({ lamp: null, dim: null, power: null });
  });

  it('answers for chosen devices, a street (any case) or some states', async () => {
    const chosen = await states(admin, `?deviceId=${ids.on},${ids.dark}`);
    expect([...chosen.keys()].sort()).toEqual([ids.on, ids.dark].sort());
    const street = await states(admin, `?street=${encodeURIComponent('tunusbağı caddesi')}`);
    expect([...street.values()].map((s) => s.state).sort()).toEqual(['dimmed', 'fault', 'fault', 'offline']);
    const failed = await states(admin, '?state=fault');
    expect([...failed.keys()].sort((a, b) => a - b)).toEqual(
      FLEET.filter((l) => l.expect === 'fault')
        .map((l) => ids[l.key] as number)
        .sort((a, b) => a - b),
    );
  });

  it('refuses a bad filter with a 400 and shows another account nothing', async () => {
    for (const query of ['?state=burning', '?deviceId=1%20OR%201=1', '?deviceId=-4']) {
      const res = await admin.call('GET', `/query/api/lamp-states${query}`);
      expect(res.status, query).toBe(400);
      expect(res.raw).not.toMatch(/select|stack/i);
    }
    const other = new Client(t.app);
    await other.login();
    other.accountId = kadikoy;
    const theirs = await states(other, `?deviceId=${ids.on},${ids.dark}`);
    expect(theirs.size).toBe(0);
  });

  it("lists the account's streets with their device counts", async () => {
    const res = await admin.call('GET', '/query/api/streets');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { street: 'Doğancılar Caddesi', devices: 1 },
      { street: 'Nuh Kuyusu Caddesi', devices: 3 },
      { street: 'Selman Ağa Sokağı', devices: 5 },
      { street: 'Tunusbağı Caddesi', devices: 4 },
    ]);
  });
});

/** Today's lighting day in a time zone: the local date of now − 12 h (a night is one day). */
function lightingDay(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(now.getTime() - 12 * 3_600_000),
  );
}

describe('dashboard: the operator’s first look', () => {
  it('counts lamps by state, sums power now, energy today against its baseline, faults and gateways', async () => {
    const today = lightingDay('Europe/Istanbul');
    const before = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    // Two lights rolled up today, one yesterday (not today's figure).
    for (const [key, day, energy, baseline] of [
      ['on', today, 0.75, 1.5],
      ['dimmed', today, 0.25, 1.5],
      ['off', before, 9, 9],
    ] as const)
      await t.database.db.execute(sql`
        INSERT INTO energy_daily (account_id, device_id, day, energy_kwh, metered, burn_hours, baseline_kwh, night_hours)
        VALUES (${uskudar}, ${ids[key]}, ${day}, ${energy}, false, 5, ${baseline}, 12.5)`);
    await t.database.db.execute(sql`
      INSERT INTO gateways (account_id, name, dev_eui, status) VALUES
        (${uskudar}, 'Altunizade GW 1', 'b0000000000000a1', 'online'),
        (${uskudar}, 'Altunizade GW 2', 'b0000000000000a2', 'offline'),
        (${uskudar}, 'Altunizade GW 3', 'b0000000000000a3', 'offline')`);

    const res = await admin.call('GET', '/query/api/dashboard-summary');
    expect(res.status, res.raw).toBe(200);
    const data = res.body.data;
    expect(data.lamps).toEqual({ on: 1, dimmed: 2, off: 2, fault: 6, offline: 1, unknown: 1 });
    // Latest power of every light that is not offline: 118 + 60 + 0 + 0 + 10 + 9 + 119 + 0 + 0 + 5.
    expect(data.powerW).toBe(321);
    expect(data.energyToday).toEqual({ day: today, energyKwh: 1, baselineKwh: 3 });
    expect(data.openFaults).toBe(1);
    expect(data).toMatchObject({ gateways: 3, gatewaysDown: 2 });

    // Another device type has none of these lights.
    const [otherType] = await rows<{ id: number }>(
      sql`SELECT t.id::int AS id FROM device_types t
          WHERE NOT EXISTS (SELECT 1 FROM device_models m WHERE m.device_type_id = t.id AND m.id = ${modelId}) LIMIT 1`,
    );
    const narrowed = (await admin.call('GET', `/query/api/dashboard-summary?deviceTypeId=${otherType?.id}`)).body.data;
    expect(narrowed.lamps).toEqual({ on: 0, dimmed: 0, off: 0, fault: 0, offline: 0, unknown: 0 });
    expect(narrowed).toMatchObject({ powerW: 0, openFaults: 0, energyToday: { day: today, energyKwh: null } });

    // Kadıköy's figures hold none of Üsküdar's.
    const other = new Client(t.app);
    await other.login();
    other.accountId = kadikoy;
    const theirs = (await other.call('GET', '/query/api/dashboard-summary')).body.data;
    const [kadikoyLights] = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM devices WHERE account_id = ${kadikoy}`,
    );
    expect(Object.values(theirs.lamps as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(kadikoyLights?.n);
    expect(theirs.gateways).toBe(3);
  });
});

describe('task group members from a street, a region or a map area', () => {
  let group: number;
  const add = (client: Client, id: number, body: unknown) =>
    client.call('POST', `/command/api/task-groups/${id}/members/add`, body);
  const members = async () =>
    (
      await rows<{ id: number }>(
        sql`SELECT device_id::int AS id FROM task_group_members WHERE task_group_id = ${group} ORDER BY device_id`,
      )
    ).map((r) => r.id);

  beforeAll(async () => {
    const created = await admin.create('task-groups', { name: 'Altunizade streets', status: 'draft' });
    expect(created.status, created.raw).toBe(201);
    group = created.body.data.id;
  });

  it('adds a street’s lights, then a region’s, then a rectangle’s, never twice', async () => {
    const street = await add(admin, group, { street: 'nuh kuyusu caddesi' });
    expect(street.status, street.raw).toBe(200);
    expect(street.body.data).toEqual({ matched: 3, added: 3 });
    expect(await members()).toEqual(([ids.on, ids.dimmed, ids.off] as number[]).sort((a, b) => a - b));

    const again = await add(admin, group, { street: 'Nuh Kuyusu Caddesi', regionId: region });
    expect(again.body.data).toEqual({ matched: 3, added: 0 });

    // Every light but the one on Doğancılar Caddesi is in Altunizade.
    const byRegion = await add(admin, group, { regionId: region });
    expect(byRegion.body.data).toEqual({ matched: FLEET.length - 1, added: FLEET.length - 4 });

    // A rectangle around Doğancılar Caddesi's light alone.
    const area = await add(admin, group, { bounds: { south: 41.049, west: 29.069, north: 41.051, east: 29.071 } });
    expect(area.body.data).toEqual({ matched: 1, added: 1 });
    expect((await members()).length).toBe(FLEET.length);
  });

  it('refuses what matches nothing, bad bounds and other accounts’ devices and groups', async () => {
    const empty = await add(admin, group, { street: 'Bağdat Caddesi' });
    expect(empty.status).toBe(422);
    expect(empty.body.error?.code).toBe('VALIDATION');

    admin.language = 'tr';
    const inverted = await add(admin, group, { bounds: { south: 42, west: 29, north: 41, east: 30 } });
    expect(inverted.status).toBe(400);
    expect(inverted.body.error?.code).toBe('BAD_REQUEST');
    const strange = await add(admin, group, { street: 'X', everything: true });
    expect(strange.status).toBe(400);
    admin.language = undefined;

    const [kadikoyLight] = await rows<{ id: number }>(
      sql`SELECT id::int AS id FROM devices WHERE account_id = ${kadikoy} ORDER BY id LIMIT 1`,
    );
    const foreign = await add(admin, group, { deviceIds: [kadikoyLight?.id as number] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error?.fields?.source).toContain(String(kadikoyLight?.id));

    // Kadıköy cannot add to Üsküdar's group, nor read it.
    const other = new Client(t.app);
    await other.login();
    other.accountId = kadikoy;
    const [kadikoyGroup] = await rows<{ id: number }>(
      sql`SELECT id::int AS id FROM task_groups WHERE account_id = ${kadikoy} LIMIT 1`,
    );
    expect((await add(other, group, { street: 'Nuh Kuyusu Caddesi' })).status).toBe(404);
    // Nor fill its own group with Üsküdar's street.
    expect((await add(other, kadikoyGroup?.id as number, { street: 'Nuh Kuyusu Caddesi' })).status).toBe(422);
    expect((await add(admin, 0, { street: 'Nuh Kuyusu Caddesi' })).status).toBe(400);
    expect(await members()).toHaveLength(FLEET.length);
  });
});
