import { Fleet } from '@lampyr/simulator';
import { DEMO_APPLICATION_ID, devEuiOf, ipUidOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshFixture } from './support/fixtures.ts';
import { Client } from './support/test-app.ts';
import {
  connectClient,
  eventually,
  openStream,
  openStreamAs,
  type StreamReader,
  startTelemetryTestApp,
  type TelemetryTestApp,
} from './support/test-telemetry.ts';

// The fixtures as published a minute before the run (device times a week old are not believed).
const FIXTURE_TIME = new Date(Date.now() - 60_000);
const fixture = (name: string) => Buffer.from(JSON.stringify(freshFixture(name, FIXTURE_TIME)));
const topicOf = (devEui: string, event: string) => `application/${DEMO_APPLICATION_ID}/device/${devEui}/event/${event}`;

let t: TelemetryTestApp;
let client: Client;
let publisher: MqttClient;
let kadikoy: number;
let stream: StreamReader;

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const deviceIdOf = async (devEui: string) =>
  Number((await rows<{ id: number }>(sql`SELECT id FROM devices WHERE dev_eui = ${devEui}`))[0]?.id);
const readingsOf = (deviceId: number) =>
  rows<{ code: string; value: number; status: string; frame_key: string }>(sql`
    SELECT t.channel_code AS code, r.value, r.status, r.frame_key FROM channel_read_values r
    JOIN device_channel_templates t ON t.id = r.device_channel_template_id
    WHERE r.device_id = ${deviceId} ORDER BY r.frame_key, t.mqtt_package_order`);
const dataLogs = (reason: string) =>
  rows<{ account_id: number; device_uid: string; topic: string; payload: string }>(
    sql`SELECT account_id::int AS account_id, device_uid, topic, payload FROM data_logs WHERE reason = ${reason}`,
  );
const publish = (topic: string, payload: Buffer | string) => publisher.publishAsync(topic, payload, { qos: 1 });

beforeAll(async () => {
  t = await startTelemetryTestApp({ downlinkTimeoutMs: 1500 });
  kadikoy = t.seeded.subAccountIds[0] as number;
  client = new Client(t.app);
  await client.login();
  client.accountId = kadikoy;
  publisher = await connectClient(t.broker, 'test-publisher');
  stream = await openStreamAs(t.baseUrl, client);
});

afterAll(async () => {
  stream?.close();
  await publisher?.endAsync();
  await t?.close();
});

describe('ChirpStack uplinks, end to end', () => {
  it('stores the fixture up.json as readings, latest values, connection status and stream events', async () => {
    const deviceId = await deviceIdOf(devEuiOf(1));
    await publish(topicOf(devEuiOf(1), 'up'), fixture('up.json'));
    const readings = await eventually(async () => {
      const r = await readingsOf(deviceId);
      return r.length === 5 && r;
    });
    expect(readings.map((r) => [r.code, r.value, r.status, r.frame_key])).toEqual([
      ['lamp', 1, 'ok', 'fcnt:1842'],
      ['dim', 100, 'ok', 'fcnt:1842'],
      ['power', 145, 'ok', 'fcnt:1842'],
      ['energy', 10, 'ok', 'fcnt:1842'],
      ['temperature', 36, 'ok', 'fcnt:1842'],
    ]);

    // Latest values and status follow their readings within a moment (one writer keeps them).
    const latest = await eventually(async () => {
      const page = await client.list('channel-values', { filter: { deviceId }, pageable: { page: 1, size: 10 } });
      return page.body.data.totalElements === 5 && page;
    });
    expect(latest.body.data.content[0].dateTime).toBe(FIXTURE_TIME.toISOString());

    const status = await eventually(async () => {
      const page = await client.list('device-connection-status', {
        filter: { deviceId },
        pageable: { page: 1, size: 1 },
      });
      return page.body.data.totalElements === 1 && page;
    });
    // The best of the two gateways that heard the frame.
    expect(status.body.data.content[0]).toMatchObject({ status: 'online', rssi: -97, snr: 6.5 });

    const events = await eventually(() => {
      const mine = stream.events.filter((e) => e.data.deviceId === deviceId);
      return mine.length >= 6 && mine;
    });
    expect(events.filter((e) => e.event === 'value').map((e) => [e.data.channelCode, e.data.value])).toContainEqual([
      'power',
      145,
    ]);
    expect(events.find((e) => e.event === 'status')?.data).toMatchObject({ status: 'online', rssi: -97 });
  });

  it('stores a frame delivered twice once', async () => {
    const deviceId = await deviceIdOf(devEuiOf(1));
    await publish(topicOf(devEuiOf(1), 'up'), fixture('up.json'));
    await publish(topicOf(devEuiOf(1), 'up'), fixture('up.json'));
    await t.ingest.writer.drain();
    await eventually(() => publish(topicOf(devEuiOf(1), 'status'), fixture('status.json')).then(() => true));
    await new Promise((r) => setTimeout(r, 300));
    await t.ingest.writer.drain();
    expect((await readingsOf(deviceId)).length).toBe(5);
  });

  it('keeps battery, power source and link margin from the status event, and the gateway heard best', async () => {
    const deviceId = await deviceIdOf(devEuiOf(1));
    // A gateway of the account with the fixtures' gateway id, typed in capitals: matched all the same.
    const created = await client.create('gateway', { name: 'Fixture gateway', devEui: 'A840411B2C3D4E5F' });
    expect(created.status).toBe(201);
    const status = freshFixture('status.json', FIXTURE_TIME) as Record<string, unknown>;
    await publish(
      topicOf(devEuiOf(1), 'status'),
      JSON.stringify({ ...status, externalPowerSource: false, batteryLevel: 87.5, margin: 7 }),
    );
    await publish(topicOf(devEuiOf(1), 'up'), fixture('up.json'));
    const health = async () =>
      (
        await rows<Record<string, unknown>>(sql`
          SELECT battery_level, external_power, link_margin, gateway_eui, health_at IS NOT NULL AS reported
          FROM device_connection_status WHERE device_id = ${deviceId}`)
      )[0];
    // The up after the status event keeps the status event's health.
    await eventually(async () => (await health())?.battery_level === 87.5 && (await health())?.gateway_eui !== null);
    expect(await health()).toMatchObject({
      battery_level: 87.5,
      external_power: false,
      link_margin: 7,
      gateway_eui: 'a840411b2c3d4e5f',
      reported: true,
    });
    const [gateway] = await rows<{ status: string; last_seen_at: unknown }>(
      sql`SELECT status, last_seen_at FROM gateways WHERE id = ${created.body.data.id}`,
    );
    expect(gateway?.status).toBe('online');
    expect(gateway?.last_seen_at).not.toBeNull();
    // The generic API reads the status as Lampyr keeps it; a status typed in is not taken.
    const current = await client.get('gateway', created.body.data.id);
    expect(current.body.data).toMatchObject({ status: 'online' });
    const typed = await client.update('gateway', { ...current.body.data, status: 'offline' });
    expect(typed.body.data?.status ?? typed.status).toBe('online');

    // On external power a battery level means nothing; a hostile margin is not kept.
    const later = new Date(FIXTURE_TIME.getTime() + 1000).toISOString();
    await publish(
      topicOf(devEuiOf(1), 'status'),
      JSON.stringify({ ...status, time: later, batteryLevel: 0, margin: 1e9 }),
    );
    await eventually(async () => (await health())?.external_power === true);
    const mains = await health();
    expect(mains).toMatchObject({ battery_level: null, external_power: true, link_margin: null });
  });

  it("uses ChirpStack's decoded object when present (up-with-object.json)", async () => {
    const deviceId = await deviceIdOf(devEuiOf(1));
    await publish(topicOf(devEuiOf(1), 'up'), fixture('up-with-object.json'));
    const readings = await eventually(async () => {
      const r = (await readingsOf(deviceId)).filter((x) => x.frame_key === 'fcnt:1843');
      return r.length === 5 && r;
    });
    expect(Object.fromEntries(readings.map((r) => [r.code, r.value]))).toEqual({
      lamp: 1,
      dim: 100,
      power: 145,
      energy: 10,
      temperature: 36,
    });
  });

  it('keeps ChirpStack log events, and marks a device that joined online', async () => {
    const deviceId = await deviceIdOf(devEuiOf(2));
    const joined = JSON.parse(fixture('join.json').toString());
    joined.deviceInfo.devEui = devEuiOf(2);
    await publish(topicOf(devEuiOf(2), 'join'), JSON.stringify(joined));
    await publish(topicOf(devEuiOf(1), 'log'), fixture('log.json'));
    await publish(topicOf(devEuiOf(1), 'txack'), fixture('txack.json'));
    await eventually(async () => (await dataLogs('chirpstack_log')).length === 1);
    const status = await eventually(async () => {
      const r = await rows<{ status: string }>(
        sql`SELECT status FROM device_connection_status WHERE device_id = ${deviceId}`,
      );
      return r[0];
    });
    expect(status.status).toBe('online');
  });

  it('logs unknown devices, bad JSON and short payloads with their reason, storing nothing of them', async () => {
    const stranger = '70b3d57effff0001';
    await publish(topicOf(stranger, 'up'), fixture('up.json'));
    await publish(topicOf(devEuiOf(3), 'up'), '{"fCnt": 1, "data": ');
    const short = JSON.parse(fixture('up.json').toString());
    short.fCnt = 9;
    short.data = Buffer.from([1, 100, 0]).toString('base64');
    await publish(topicOf(devEuiOf(3), 'up'), JSON.stringify(short));
    await publish('lampyr/no-such-device/up', '{"values":{"lamp":1}}');
    // Quotes, braces, a backslash, a comma, NULL and non-ASCII: stored as received (array literal escaping).
    const garbled = 'not json: {"ğ", \\} NULL';
    await publish(`lampyr/${ipUidOf(1)}/up`, garbled);

    await eventually(
      async () => (await dataLogs('bad_json')).length === 2 && (await dataLogs('payload_too_short')).length,
    );
    const unknown = await eventually(async () => {
      const r = await dataLogs('unknown_device');
      return r.length === 2 && r;
    });
    // Attributed through the ChirpStack application to Kadıköy; a stranger on Lampyr's topics to the top account.
    expect(unknown.find((l) => l.device_uid === stranger)?.account_id).toBe(kadikoy);
    expect(unknown.find((l) => l.device_uid === 'no-such-device')?.account_id).toBe(t.seeded.integratorId);
    expect((await dataLogs('bad_json')).map((l) => l.device_uid).sort()).toEqual([devEuiOf(3), ipUidOf(1)].sort());
    expect((await dataLogs('bad_json')).map((l) => l.payload).sort()).toEqual(['{"fCnt": 1, "data": ', garbled].sort());
    expect(await dataLogs('payload_too_short')).toHaveLength(1);
    expect(await readingsOf(await deviceIdOf(devEuiOf(3)))).toEqual([]);

    const hour = 60 * 60 * 1000;
    const logs = await client.list('data-logs', {
      filter: { reason: 'payload_too_short' },
      // Data logs are listed over a time range (at most 31 days).
      detailFilter: [
        {
          field: 'createdAt',
          operator: 'between',
          value: [new Date(Date.now() - hour).toISOString(), new Date(Date.now() + hour).toISOString()],
        },
      ],
      pageable: { page: 1, size: 5 },
    });
    expect(logs.body.data.content[0]).toMatchObject({ deviceUid: devEuiOf(3), reason: 'payload_too_short' });
  });

  it('marks readings outside the channel limits out_of_range', async () => {
    const deviceId = await deviceIdOf(devEuiOf(11));
    // SLC-L2: lamp, dim, power, voltage 262.0 V (limit 253), current, energy, lux, temperature.
    const data = Buffer.from([1, 100, 0, 120, 0x0a, 0x3c, 0x01, 0xf4, 0, 0, 0x27, 0x10, 0, 5, 0, 30]);
    const up = JSON.parse(fixture('up.json').toString());
    Object.assign(up, { fCnt: 77, data: data.toString('base64') });
    up.deviceInfo.devEui = devEuiOf(11);
    await publish(topicOf(devEuiOf(11), 'up'), JSON.stringify(up));
    const readings = await eventually(async () => {
      const r = await readingsOf(deviceId);
      return r.length === 8 && r;
    });
    expect(readings.find((r) => r.code === 'voltage')).toMatchObject({ value: 262, status: 'out_of_range' });
    expect(readings.find((r) => r.code === 'current')).toMatchObject({ value: 0.5, status: 'ok' });
  });

  it("decodes a sub-device's package into sub-channel readings, latest values and stream events", async () => {
    // A controller model with a lamp channel and a 2-byte luminaire package (power, then dim).
    const [model] = await rows<{ id: number }>(sql`
      INSERT INTO device_models (model_name, device_type_id, device_type_protocol_id, parameter_group_code)
      SELECT 'SLC-SUB test', device_type_id, device_type_protocol_id, 'SUB' FROM device_models
      WHERE model_name LIKE 'SLC-L1%' RETURNING id::int AS id`);
    const template = async (
      table: 'device_channel_templates' | 'sub_device_channel_templates',
      o: Record<string, unknown>,
    ) =>
      (
        await rows<{ id: number }>(sql`
          INSERT INTO ${sql.identifier(table)} (name, device_type_model_id, channel_type, channel_order, channel_code, unit,
            data_type, description, alert_parameter_code, mqtt_package_order, data_limit_max, data_limit_min,
            data_byte_length, data_label, variables, formula, channel_package_order
            ${table === 'sub_device_channel_templates' ? sql`, parent_template_id` : sql``})
          VALUES (${o.code}, ${model?.id}, 'read', ${o.order}, ${o.code}, ${o.unit}, 'uint8', ${o.code}, ${o.code},
            ${o.order}, ${o.max ?? 255}, 0, ${o.bytes ?? 1}, ${o.code}, '', 'x', ${o.packageOrder ?? null}
            ${table === 'sub_device_channel_templates' ? sql`, ${o.parent}` : sql``})
          RETURNING id::int AS id`)
      )[0]?.id as number;
    const lamp = await template('device_channel_templates', { code: 'lamp', order: 1, unit: '' });
    const luminaire = await template('device_channel_templates', { code: 'luminaire', order: 2, unit: '', bytes: 2 });
    await template('sub_device_channel_templates', {
      code: 'dim',
      order: 2,
      unit: '%',
      packageOrder: 2,
      parent: luminaire,
      max: 100,
    });
    await template('sub_device_channel_templates', {
      code: 'power',
      order: 1,
      unit: 'W',
      packageOrder: 1,
      parent: luminaire,
    });
    const devEui = '70b3d57ed00fff01';
    const [device] = await rows<{ id: number }>(sql`
      INSERT INTO devices (account_id, name, device_type_model_id, dev_eui, application_id, has_sub_channel)
      VALUES (${kadikoy}, 'KDK-SUB-1', ${model?.id}, ${devEui}, ${DEMO_APPLICATION_ID}, true) RETURNING id::int AS id`);
    const up = JSON.parse(fixture('up.json').toString());
    Object.assign(up, { fCnt: 5, data: Buffer.from([1, 55, 180]).toString('base64') });
    up.deviceInfo.devEui = devEui;
    await publish(topicOf(devEui, 'up'), JSON.stringify(up));

    const stored = await eventually(async () => {
      const r = await rows<{ template: number; sub: number; value: number; status: string }>(sql`
        SELECT device_channel_template_id::int AS template, sub_channel AS sub, value, status FROM channel_read_values
        WHERE device_id = ${device?.id} ORDER BY device_channel_template_id, sub_channel`);
      return r.length === 3 && r;
    });
    expect(stored).toEqual([
      { template: lamp, sub: 0, value: 1, status: 'ok' },
      { template: luminaire, sub: 1, value: 55, status: 'ok' },
      { template: luminaire, sub: 2, value: 180, status: 'out_of_range' },
    ]);
    const latest = await eventually(async () => {
      const r = await client.list('channel-values', {
        filter: { deviceId: device?.id },
        pageable: { page: 1, size: 10, sort: ['subChannel,asc'] },
      });
      return r.body.data.content.length === 3 && r.body.data.content;
    });
    expect(latest.map((v: { subChannel: number; value: number }) => [v.subChannel, v.value])).toEqual([
      [0, 1],
      [1, 55],
      [2, 180],
    ]);
    await eventually(async () =>
      stream.events.some((e) => e.event === 'value' && e.data.deviceId === device?.id && e.data.subChannel === 2),
    );
  });

  it("takes IP devices' Lampyr JSON", async () => {
    const uid = ipUidOf(2);
    const deviceId = Number((await rows<{ id: number }>(sql`SELECT id FROM devices WHERE uid = ${uid}`))[0]?.id);
    await publish(
      `lampyr/${uid}/up`,
      JSON.stringify({ ts: FIXTURE_TIME.toISOString(), values: { lamp: true, dim: 40, power: 48 } }),
    );
    const readings = await eventually(async () => {
      const r = await readingsOf(deviceId);
      return r.length === 3 && r;
    });
    expect(readings.map((r) => [r.code, r.value])).toEqual([
      ['lamp', 1],
      ['dim', 40],
      ['power', 48],
    ]);
  });
});

describe('channel writes to devices', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = new Fleet({
      url: t.broker.url,
      username: t.broker.username,
      password: t.broker.password,
      lights: 12,
      ipDevices: 1,
      reportingPeriodMs: 3_600_000,
      silenceChance: 0,
      seed: 1,
    });
    await fleet.start();
  });
  afterAll(() => fleet?.stop());

  const templateOf = async (deviceId: number, code: string) =>
    Number(
      (
        await rows<{ id: number }>(sql`
          SELECT t.id FROM device_channel_templates t JOIN devices d ON d.device_type_model_id = t.device_type_model_id
          WHERE d.id = ${deviceId} AND t.channel_code = ${code}`)
      )[0]?.id,
    );
  const writeOf = async (id: number) => (await client.get('channel-write-values', id)).body.data;

  it('sends a dim command over ChirpStack command/down and settles it with the ack event', async () => {
    const deviceId = await deviceIdOf(devEuiOf(12));
    const created = await client.create('channel-write-values', {
      deviceId,
      deviceChannelTemplateId: await templateOf(deviceId, 'dim'),
      value: 35,
    });
    expect(created.status).toBe(201);
    const written = await eventually(async () => {
      const w = await writeOf(created.body.data.id);
      return w.status === 'acknowledged' && w;
    });
    expect(written.sentAt).toBeTruthy();
    expect(written.answeredAt).toBeTruthy();
    expect(fleet.devices.get(devEuiOf(12))?.light.dim).toBe(35);
    // The light reports its new state right away.
    await eventually(async () => {
      const latest = await client.list('channel-values', {
        filter: { deviceId, deviceChannelTemplateId: await templateOf(deviceId, 'dim') },
        pageable: { page: 1, size: 1 },
      });
      return latest.body.data.content[0]?.value === 35;
    });
    const answeredEvent = await eventually(async () =>
      stream.events.find(
        (e) => e.event === 'write' && e.data.id === created.body.data.id && e.data.status === 'acknowledged',
      ),
    );
    // The event carries the row's times, so a list patched from it matches the record.
    expect(answeredEvent?.data).toMatchObject({
      sentAt: written.sentAt,
      answeredAt: written.answeredAt,
      updatedAt: written.updatedAt,
    });
  });

  it("sends an IP device's command as Lampyr JSON and settles it with the device's ack", async () => {
    const deviceId = Number((await rows<{ id: number }>(sql`SELECT id FROM devices WHERE uid = ${ipUidOf(1)}`))[0]?.id);
    const created = await client.create('channel-write-values', {
      deviceId,
      deviceChannelTemplateId: await templateOf(deviceId, 'lamp'),
      value: 0,
    });
    await eventually(async () => (await writeOf(created.body.data.id)).status === 'acknowledged');
    expect(fleet.devices.get(ipUidOf(1))?.light.lampOn).toBe(false);
  });

  it('fails a write the device never answers, and one to a read-only channel', async () => {
    const silent = await deviceIdOf(devEuiOf(150));
    const unanswered = await client.create('channel-write-values', {
      deviceId: silent,
      deviceChannelTemplateId: await templateOf(silent, 'dim'),
      value: 10,
    });
    const readOnly = await client.create('channel-write-values', {
      deviceId: silent,
      deviceChannelTemplateId: await templateOf(silent, 'power'),
      value: 10,
    });
    const failed = await eventually(async () => {
      const w = await writeOf(unanswered.body.data.id);
      return w.status === 'failed' && w;
    });
    expect(failed.message).toBe('timeout');
    expect(await writeOf(readOnly.body.data.id)).toMatchObject({ status: 'failed', message: 'not_writable' });
  });
});

describe('live stream access', () => {
  it('refuses a stream without a ticket or with a token in the URL, and a ticket for a foreign or no account', async () => {
    const anonymous = await openStream(`${t.baseUrl}/query/api/stream?accountId=${kadikoy}`);
    expect(anonymous.status).toBe(401);
    anonymous.close();
    // The old way, a bearer token in the query, opens nothing.
    const tokenInUrl = await openStream(`${t.baseUrl}/query/api/stream?token=${client.token}&accountId=${kadikoy}`);
    expect(tokenInUrl.status).toBe(401);
    tokenInUrl.close();
    const forged = await openStream(`${t.baseUrl}/query/api/stream?ticket=${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
    forged.close();
    await expect(openStreamAs(t.baseUrl, client, 999999)).rejects.toThrow(/403/);
    const noAccount = new Client(t.app);
    noAccount.token = client.token;
    await expect(openStreamAs(t.baseUrl, noAccount)).rejects.toThrow(/400/);
  });
});
