import { randomBytes } from 'node:crypto';
import { DEMO_APPLICATION_ID, devEuiOf, ipUidOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchWriter } from '../src/ingest/batch-writer.ts';
import { DeviceDirectory } from '../src/ingest/device-directory.ts';
import {
  cleanLine,
  cleanText,
  deviceTime,
  frameCounter,
  isServableTopic,
  MAX_PAYLOAD_BYTES,
} from '../src/ingest/device-input.ts';
import type { IngestUnit } from '../src/ingest/ingest-units.ts';
import { type Delivery, MqttSubscriber } from '../src/ingest/mqtt-subscriber.ts';
import { INGEST_TOPICS, UplinkHandler } from '../src/ingest/uplink-handler.ts';
import { freshFixture } from './support/fixtures.ts';
import { Client } from './support/test-app.ts';
import {
  connectClient,
  eventually,
  startTelemetryTestApp,
  TEST_BROKER,
  type TelemetryTestApp,
} from './support/test-telemetry.ts';

/**
 * One bad MQTT message can never stop the ingest (issue 9, "Hostile input"). Each attack is sent
 * through the broker, its outcome asserted (what is stored, what is logged, what is not), and then a
 * valid uplink must be stored within seconds: the ingest still runs.
 */

let t: TelemetryTestApp;
let client: Client;
let publisher: MqttClient;
let kadikoy: number;
const aedes = TEST_BROKER === 'aedes';

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const deviceIdOf = async (column: 'dev_eui' | 'uid', value: string) =>
  Number((await rows<{ id: number }>(sql`SELECT id FROM devices WHERE ${sql.identifier(column)} = ${value}`))[0]?.id);
const readingsOf = (deviceId: number) =>
  rows<{ code: string; value: number; date_time: Date | string; frame_key: string }>(sql`
    SELECT t.channel_code AS code, r.value, r.date_time, r.frame_key FROM channel_read_values r
    JOIN device_channel_templates t ON t.id = r.device_channel_template_id
    WHERE r.device_id = ${deviceId} ORDER BY r.date_time, t.mqtt_package_order`);
interface LogRow {
  account_id: number;
  topic: string;
  device_uid: string | null;
  reason: string;
  payload: string;
  detail: string | null;
}
const dataLogs = (reason: string) =>
  rows<LogRow>(sql`
    SELECT account_id::int AS account_id, topic, device_uid, reason, payload, detail FROM data_logs
    WHERE reason = ${reason} ORDER BY id`);
const partitions = async () =>
  (
    await rows<{ name: string }>(sql`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'channel_read_values'::regclass ORDER BY 1`)
  ).map((r) => r.name);
const publish = (topic: string, payload: Buffer | string) => publisher.publishAsync(topic, payload, { qos: 1 });
const upTopic = (devEui: string) => `application/${DEMO_APPLICATION_ID}/device/${devEui}/event/up`;
const noControls = (text: string | null) => text === null || !/[\p{Cc}\p{Cf}]/u.test(text);

/** A ChirpStack uplink of `devEui` with the fixture's shape, a fresh time and `changes` applied. */
function chirpstackUp(devEui: string, changes: Record<string, unknown>): string {
  const message = freshFixture('up.json');
  (message.deviceInfo as Record<string, unknown>).devEui = devEui;
  return JSON.stringify({ ...message, ...changes });
}

let frame = 1000;
/** A valid uplink, published after an attack: it must be stored within seconds. */
async function expectIngestRuns(): Promise<void> {
  const devEui = devEuiOf(20);
  const deviceId = await deviceIdOf('dev_eui', devEui);
  const fCnt = ++frame;
  const published = Date.now();
  await publish(upTopic(devEui), chirpstackUp(devEui, { fCnt, object: { lamp: true, dim: fCnt % 100, power: 90 } }));
  const stored = await eventually(async () => {
    const r = (await readingsOf(deviceId)).filter((x) => x.frame_key === `fcnt:${fCnt}`);
    return r.length === 3 && r;
  }, 5000);
  expect(stored.find((r) => r.code === 'dim')?.value).toBe(fCnt % 100);
  expect(Date.now() - published).toBeLessThan(5000);
}

/**
 * A client for attacks the broker itself may answer by closing the connection (Mosquitto refuses
 * a topic with a NUL in it): it does not reconnect, and its publishes are not waited for.
 */
async function throwaway(): Promise<MqttClient & { closedByBroker: Promise<void> }> {
  const c = mqtt.connect(t.broker.url, {
    clientId: `hostile-${randomBytes(4).toString('hex')}`,
    username: t.broker.username,
    password: t.broker.password,
    clean: true,
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  await new Promise<void>((resolve, reject) => {
    c.once('connect', () => resolve());
    c.once('error', reject);
  });
  c.on('error', () => {});
  const closedByBroker = new Promise<void>((resolve) => c.once('close', () => resolve()));
  return Object.assign(c, { closedByBroker });
}

beforeAll(async () => {
  t = await startTelemetryTestApp({ downlinkTimeoutMs: 30_000 });
  kadikoy = t.seeded.subAccountIds[0] as number;
  client = new Client(t.app);
  await client.login();
  client.accountId = kadikoy;
  publisher = await connectClient(t.broker, 'hostile-publisher');
  await expectIngestRuns();
});

afterAll(async () => {
  await publisher?.endAsync();
  await t?.close();
});

describe('the bounds themselves', () => {
  it('cleans text: controls, direction overrides and lone surrogates out, pairs never cut', () => {
    expect(cleanLine('a\u0000b\u0007c\u009bd\u202ee\u2066f\ufeffg\nh', 100)).toBe('abcdefgh');
    expect(cleanText('line 1\r\n\tline 2\u0000', 100)).toBe('line 1\r\n\tline 2');
    expect(cleanLine('x\ud800y\udc00z', 100)).toBe('x\ufffdy\ufffdz');
    expect(cleanLine('ab😀', 3)).toBe('ab');
    expect(cleanLine('ab😀', 4)).toBe('ab😀');
    expect(cleanLine('Kadıköy ışık', 100)).toBe('Kadıköy ışık');
    expect(isServableTopic('lampyr/kdk-ip-0001/up')).toBe(true);
    expect(isServableTopic('lampyr/kdk\u0000/up')).toBe(false);
    expect(isServableTopic(`lampyr/${'x'.repeat(300)}/up`)).toBe(false);
  });

  it('takes frame counters 0 … 2³²−1 only, and device times within −7 days … +5 minutes', () => {
    expect([0, 1, 2 ** 32 - 1, '42', undefined].map(frameCounter)).toEqual([0, 1, 2 ** 32 - 1, 42, 0]);
    for (const bad of [-1, 0.5, 2 ** 32, Number.NaN, Infinity, '-1', '1e3', ' 1', '9'.repeat(11), null, [], {}])
      expect(frameCounter(bad)).toBeUndefined();
    const now = new Date('2026-11-23T12:00:00Z');
    expect(deviceTime(undefined, now)).toEqual({ kind: 'absent' });
    expect(deviceTime('yesterday', now)).toEqual({ kind: 'invalid' });
    expect(deviceTime(12, now)).toEqual({ kind: 'invalid' });
    expect(deviceTime('2026-11-16T12:00:00Z', now)).toEqual({
      kind: 'trusted',
      time: new Date('2026-11-16T12:00:00Z'),
    });
    expect(deviceTime('2026-11-16T11:59:59Z', now)).toEqual({ kind: 'replaced', given: '2026-11-16T11:59:59Z' });
    expect(deviceTime('2026-11-23T12:05:00Z', now).kind).toBe('trusted');
    expect(deviceTime('2026-11-23T12:05:01Z', now).kind).toBe('replaced');
  });
});

describe('device strings are cleaned and bounded', () => {
  it('takes an ack whose message holds a NUL and control characters, cleaned and cut to 500 characters', async () => {
    const uid = ipUidOf(1);
    const deviceId = await deviceIdOf('uid', uid);
    const [template] = await rows<{ id: number }>(sql`
      SELECT t.id::int AS id FROM device_channel_templates t JOIN devices d ON d.device_type_model_id = t.device_type_model_id
      WHERE d.id = ${deviceId} AND t.channel_code = 'lamp'`);
    // The device's side: it reads its command and answers with the id it was given.
    const downlinks: Record<string, unknown>[] = [];
    await publisher.subscribeAsync(`lampyr/${uid}/down`, { qos: 1 });
    publisher.on('message', (topic, payload) => {
      if (topic === `lampyr/${uid}/down`) downlinks.push(JSON.parse(payload.toString()));
    });
    const created = await client.create('channel-write-values', {
      deviceId,
      deviceChannelTemplateId: template?.id,
      value: 1,
    });
    expect(created.status).toBe(201);
    const command = await eventually(() => downlinks[0]);

    const text = `relay\u0000 stuck\u0007\u001b[31m \u202eevil ${'x'.repeat(5000)}`;
    await publish(`lampyr/${uid}/ack`, JSON.stringify({ id: command.id, ok: false, message: text }));
    const write = await eventually(async () => {
      const w = (await client.get('channel-write-values', created.body.data.id)).body.data;
      return w.status === 'failed' && w;
    });
    expect(write.message.startsWith('relay stuck[31m evil xxx')).toBe(true);
    expect(write.message).toHaveLength(500);
    expect(noControls(write.message)).toBe(true);

    // An id that is no id is refused, and logged cleaned.
    await publish(`lampyr/${uid}/ack`, JSON.stringify({ id: `${command.id}\u0000`, ok: true, message: 'ok' }));
    const refused = await eventually(async () => {
      const r = (await dataLogs('bad_message')).filter((l) => l.topic === `lampyr/${uid}/ack`);
      return r.length === 1 && r[0];
    });
    expect(refused.payload).not.toContain('\u0000');
    expect(noControls(refused.detail)).toBe(true);
    expect((await client.get('channel-write-values', created.body.data.id)).body.data.status).toBe('failed');
    await expectIngestRuns();
  });

  it('refuses a 5,000-character fCnt and every fCnt that is not an integer 0 … 2³²−1, storing nothing of them', async () => {
    const devEui = devEuiOf(21);
    const deviceId = await deviceIdOf('dev_eui', devEui);
    const bad: unknown[] = ['9'.repeat(5000), -1, 1.5, 2 ** 32, '12abc', null, { n: 1 }, '', true];
    for (const fCnt of bad) await publish(upTopic(devEui), chirpstackUp(devEui, { fCnt }));
    // A 5,000-digit JSON number is Infinity to JSON.parse: refused too.
    const huge = chirpstackUp(devEui, { fCnt: 0 }).replace('"fCnt":0', `"fCnt":${'9'.repeat(5000)}`);
    await publish(upTopic(devEui), huge);
    const logs = await eventually(async () => {
      const r = await dataLogs('bad_fcnt');
      return r.length === bad.length + 1 && r;
    });
    expect(logs.every((l) => l.device_uid === devEui && l.account_id === kadikoy)).toBe(true);
    const long = logs.find((l) => l.detail?.startsWith(`fCnt: ${'9'.repeat(40)}… (5000)`));
    expect(long?.detail?.length).toBeLessThan(100);
    expect(await readingsOf(deviceId)).toEqual([]);

    // The largest counter, and an absent one (ChirpStack leaves a 0 out), are frames.
    const object = { lamp: true, dim: 5, power: 50 };
    await publish(upTopic(devEui), chirpstackUp(devEui, { fCnt: 2 ** 32 - 1, object }));
    const { fCnt: _, ...first } = JSON.parse(chirpstackUp(devEui, { object }));
    await publish(upTopic(devEui), JSON.stringify(first));
    const stored = await eventually(async () => {
      const r = await readingsOf(deviceId);
      return r.length === 6 && r;
    });
    expect([...new Set(stored.map((r) => r.frame_key))].sort()).toEqual(['fcnt:0', 'fcnt:4294967295']);
    await expectIngestRuns();
  });

  it('never looks up a topic with a NUL in it, and keeps the ingest running', async () => {
    const uid = ipUidOf(2);
    const deviceId = await deviceIdOf('uid', uid);
    const before = (await readingsOf(deviceId)).length;
    const hostile = await throwaway();
    const topics = [
      `lampyr/${uid}\u0000/up`,
      `lampyr/\u0000${'x'.repeat(300)}/up`,
      `application/${DEMO_APPLICATION_ID}\u0000/device/${devEuiOf(22)}/event/up`,
    ];
    for (const topic of topics)
      hostile.publish(topic, JSON.stringify({ values: { lamp: true, dim: 10 } }), { qos: 1 }, () => {});
    if (aedes) {
      // Aedes passes such a topic on: the ingest logs it cleaned, without asking the database for it.
      const logs = await eventually(async () => {
        const r = await dataLogs('bad_topic');
        return r.length === topics.length && r;
      });
      expect(logs.map((l) => l.topic)).toEqual([
        `lampyr/${uid}/up`,
        `lampyr/${'x'.repeat(300)}/up`.slice(0, 256),
        `application/${DEMO_APPLICATION_ID}/device/${devEuiOf(22)}/event/up`,
      ]);
      expect(logs.every((l) => l.device_uid === null && l.account_id === t.seeded.integratorId)).toBe(true);
    } else {
      // Mosquitto refuses a topic that is not valid MQTT UTF-8 and drops the client.
      await hostile.closedByBroker;
    }
    hostile.end(true);
    await expectIngestRuns();
    expect((await readingsOf(deviceId)).length).toBe(before);
  });

  it('keeps ChirpStack log fields and unreadable payloads cleaned in the data log', async () => {
    const devEui = devEuiOf(23);
    const log = freshFixture('log.json');
    (log.deviceInfo as Record<string, unknown>).devEui = devEui;
    Object.assign(log, {
      level: 'ERR\u0000OR',
      code: `UPLINK\u0007_CODEC${'!'.repeat(200)}`,
      description: 'short\u0000\r\n',
    });
    await publish(`application/${DEMO_APPLICATION_ID}/device/${devEui}/event/log`, JSON.stringify(log));
    await publish(upTopic(devEui), `{"fCnt": 1, "data": "\u0000\u0001\u0002 ${'y'.repeat(10_000)}`);
    const kept = await eventually(async () => {
      const r = (await dataLogs('chirpstack_log')).filter((l) => l.device_uid === devEui);
      return r.length === 1 && r[0];
    });
    expect(kept.detail).toBe(`ERROR UPLINK_CODEC${'!'.repeat(48)}: short`);
    expect(kept.payload).not.toContain('\u0000');
    const unreadable = await eventually(async () => {
      const r = (await dataLogs('bad_json')).filter((l) => l.device_uid === devEui);
      return r.length === 1 && r[0];
    });
    expect(unreadable.payload.startsWith('{"fCnt": 1, "data": " yyy')).toBe(true);
    expect(unreadable.payload.length).toBeLessThanOrEqual(8192);
    expect(noControls(unreadable.payload.replaceAll('\n', ''))).toBe(true);
    await expectIngestRuns();
  });
});

describe('device times', () => {
  it('stores readings dated year 1 and year 275760 at the receive time, notes it, and creates no partition', async () => {
    await expectIngestRuns(); // this month's partition exists
    const before = await partitions();
    const uid = ipUidOf(3);
    const ipDevice = await deviceIdOf('uid', uid);
    const devEui = devEuiOf(24);
    const loraDevice = await deviceIdOf('dev_eui', devEui);
    const sent = Date.now();
    await publish(`lampyr/${uid}/up`, JSON.stringify({ ts: '0001-01-01T00:00:00.000Z', values: { lamp: 1, dim: 11 } }));
    await publish(
      `lampyr/${uid}/up`,
      JSON.stringify({ ts: '+275760-09-13T00:00:00.000Z', values: { lamp: 1, dim: 12 } }),
    );
    await publish(
      upTopic(devEui),
      chirpstackUp(devEui, { fCnt: 1, time: '0001-01-01T00:00:00Z', object: { dim: 13 } }),
    );
    await publish(
      upTopic(devEui),
      chirpstackUp(devEui, { fCnt: 2, time: '+275760-09-13T00:00:00.000Z', object: { dim: 14 } }),
    );
    // A minute ahead and six days behind are believed.
    const ahead = new Date(sent + 60_000).toISOString();
    const behind = new Date(sent - 6 * 86_400_000).toISOString();
    await publish(upTopic(devEui), chirpstackUp(devEui, { fCnt: 3, time: ahead, object: { dim: 15 } }));
    await publish(upTopic(devEui), chirpstackUp(devEui, { fCnt: 4, time: behind, object: { dim: 16 } }));

    const ip = await eventually(async () => {
      const r = await readingsOf(ipDevice);
      return r.length === 4 && r;
    });
    const lora = await eventually(async () => {
      const r = await readingsOf(loraDevice);
      return r.length === 4 && r;
    });
    const at = (r: { date_time: Date | string }) => new Date(r.date_time).getTime();
    for (const r of [...ip, ...lora.filter((x) => x.value === 13 || x.value === 14)]) {
      expect(at(r)).toBeGreaterThanOrEqual(sent - 1000);
      expect(at(r)).toBeLessThanOrEqual(Date.now());
    }
    expect(lora.map((r) => [r.value, new Date(r.date_time).toISOString()])).toContainEqual([15, ahead]);
    expect(lora.map((r) => [r.value, new Date(r.date_time).toISOString()])).toContainEqual([16, behind]);
    const notes = await eventually(async () => {
      const r = await dataLogs('time_replaced');
      return r.length === 4 && r;
    });
    expect(notes.map((n) => n.detail).sort()).toEqual(
      [
        'ts: 0001-01-01T00:00:00.000Z',
        'ts: +275760-09-13T00:00:00.000Z',
        'time: 0001-01-01T00:00:00Z',
        'time: +275760-09-13T00:00:00.000Z',
      ].sort(),
    );
    expect(await partitions()).toEqual(before);
    await expectIngestRuns();
  });

  it('refuses a reading dated outside the years kept at the writer too (store_failed), without a partition', async () => {
    const before = await partitions();
    const deviceId = await deviceIdOf('uid', ipUidOf(4));
    const [template] = await rows<{ id: number }>(sql`
      SELECT t.id::int AS id FROM device_channel_templates t JOIN devices d ON d.device_type_model_id = t.device_type_model_id
      WHERE d.id = ${deviceId} AND t.channel_code = 'dim'`);
    const far = new Date(8.64e15);
    await t.ingest.writer.submit({
      readings: [
        {
          accountId: kadikoy,
          deviceId,
          templateId: template?.id as number,
          subChannel: 0,
          channelCode: 'dim',
          value: 1,
          status: 'ok',
          dateTime: far,
          frameKey: far.toISOString(),
        },
      ],
      source: {
        accountId: kadikoy,
        topic: `lampyr/${ipUidOf(4)}/up`,
        deviceUid: ipUidOf(4),
        payload: '{}',
      },
    });
    const [failed] = (await dataLogs('store_failed')).filter((l) => l.device_uid === ipUidOf(4));
    expect(failed?.detail).toBe('dateTime: +275760-09-13T00:00:00.000Z');
    // The database's own partition function refuses such months too, whoever calls it.
    for (const at of ['0001-01-01T00:00:00Z', '275760-09-13T00:00:00Z']) {
      const refused = await t.database.db.execute(sql`SELECT lampyr_ensure_reading_partition(${at}::timestamptz)`).then(
        () => undefined,
        (error: { cause?: { code?: string } }) => error.cause?.code,
      );
      expect(refused).toBe('22008');
    }
    expect(await partitions()).toEqual(before);
    expect(await readingsOf(deviceId)).toEqual([]);
  });
});

describe('payload size', () => {
  it('logs a payload over 64 KB as payload_too_large without parsing it, and acknowledges it', async () => {
    const uid = ipUidOf(5);
    const deviceId = await deviceIdOf('uid', uid);
    const big = JSON.stringify({ values: { lamp: 1, dim: 33 }, padding: 'p'.repeat(100 * 1024) });
    await publish(`lampyr/${uid}/up`, big);
    const [logged] = await eventually(async () => {
      const r = (await dataLogs('payload_too_large')).filter((l) => l.device_uid === uid);
      return r.length === 1 && r;
    });
    expect(logged?.account_id).toBe(kadikoy);
    expect(logged?.detail).toBe(`${Buffer.byteLength(big)} B > ${MAX_PAYLOAD_BYTES} B`);
    expect(logged?.payload.length).toBe(8192);
    expect(await readingsOf(deviceId)).toEqual([]);
    await expectIngestRuns();
  });

  it('never lets a 1 MB message reach the ingest', async () => {
    const uid = ipUidOf(5);
    const hostile = await throwaway();
    const accepted = new Promise((resolve) =>
      hostile.publish(`lampyr/${uid}/up`, Buffer.alloc(1024 * 1024, 0x20), { qos: 1 }, resolve),
    );
    // The embedded broker drops the client at the packet's header; Mosquitto takes it, but does not
    // pass it to the ingest, which asked for packets of 256 KiB at most (MQTT 5).
    await (aedes ? hostile.closedByBroker : accepted);
    await expectIngestRuns();
    await t.ingest.writer.drain();
    const logged = (await dataLogs('payload_too_large')).filter((l) => l.device_uid === uid);
    expect(logged).toHaveLength(1); // only the 100 KB one of the test before
    hostile.end(true);
  });
});

describe('a unit the database refuses', () => {
  const CHECK = 'hostile_test_value_limit';
  beforeAll(async () => {
    // A rule of the database's that the ingest does not know: values of 10¹⁵ and more are refused.
    await t.database.db.execute(
      sql`ALTER TABLE channel_read_values ADD CONSTRAINT ${sql.identifier(CHECK)} CHECK (value < 1e15)`,
    );
  });
  afterAll(async () => {
    await t.database.db.execute(sql`ALTER TABLE channel_read_values DROP CONSTRAINT ${sql.identifier(CHECK)}`);
  });

  it('stores the rest of its batch, keeps it in the data log as store_failed (no SQL), and acknowledges it', async () => {
    const good = [devEuiOf(30), devEuiOf(31), devEuiOf(32)];
    const bad = devEuiOf(33);
    const ids = await Promise.all([...good, bad].map((d) => deviceIdOf('dev_eui', d)));
    const devices = await Promise.all([...good, bad].map((d) => t.ingest.directory.byDevEui(d)));
    const units: IngestUnit[] = devices.map((device, k) => {
      const power = device?.readChannels.find((c) => c.template.channelCode === 'power');
      const at = new Date(Date.now() - 1000);
      return {
        readings: [
          {
            accountId: kadikoy,
            deviceId: ids[k] as number,
            templateId: power?.template.id as number,
            subChannel: 0,
            channelCode: 'power',
            value: k === 3 ? 1e16 : 100 + k,
            status: 'ok',
            dateTime: at,
            frameKey: 'fcnt:1',
          },
        ],
        seen: { accountId: kadikoy, deviceId: ids[k] as number, dateTime: at, rssi: null, snr: null },
        source: {
          accountId: kadikoy,
          topic: upTopic([...good, bad][k] as string),
          deviceUid: null,
          payload: 'x',
        },
      };
    });
    // Submitted in one tick, they make one batch.
    await Promise.all(units.map((u) => t.ingest.writer.submit(u)));
    for (const [k, id] of ids.slice(0, 3).entries()) {
      expect((await readingsOf(id)).map((r) => r.value)).toEqual([100 + k]);
    }
    expect(await readingsOf(ids[3] as number)).toEqual([]);
    const [failed] = (await dataLogs('store_failed')).filter((l) => l.topic === upTopic(bad));
    expect(failed?.detail).toBe('SQLSTATE 23514');
    expect(failed?.detail).not.toMatch(/insert|select|unnest|channel_read_values/i);
  });

  it('does the same for uplinks through the broker, and the ingest keeps going', async () => {
    const devEuis = [40, 41, 42, 43, 44].map((n) => devEuiOf(n));
    const ids = await Promise.all(devEuis.map((d) => deviceIdOf('dev_eui', d)));
    await Promise.all(
      devEuis.map((d, k) =>
        publish(upTopic(d), chirpstackUp(d, { fCnt: 7, object: { lamp: true, power: k === 2 ? 5e15 : 50 + k } })),
      ),
    );
    for (const [k, id] of ids.entries()) {
      if (k === 2) continue;
      await eventually(async () => (await readingsOf(id)).length === 2);
    }
    const [failed] = await eventually(async () => {
      const r = (await dataLogs('store_failed')).filter((l) => l.device_uid === devEuis[2]);
      return r.length === 1 && r;
    });
    expect(failed).toMatchObject({ account_id: kadikoy, topic: upTopic(devEuis[2] as string) });
    expect(JSON.parse(failed?.payload as string).object.power).toBe(5e15);
    expect(await readingsOf(ids[2] as number)).toEqual([]);
    await expectIngestRuns();
  });
});

describe('Lampyr JSON uplinks without a time, delivered again', () => {
  /**
   * The ingest's own pieces (directory, handler, writer, subscriber, wired as ingest-service wires
   * them) as a second worker of the test's database, with one message made to fail the first time:
   * the subscriber then drops the connection without acknowledging, and the broker delivers again
   * everything unacknowledged — among it an uplink already stored.
   */
  function worker(clientId: string, onMessage: (topic: string, payload: Buffer, delivery: Delivery) => Promise<void>) {
    const subscriber = new MqttSubscriber({
      url: t.broker.url,
      clientId,
      username: t.broker.username,
      password: t.broker.password,
      topics: INGEST_TOPICS,
      shareGroup: t.broker.shareGroup ? `${t.broker.shareGroup}-redelivery` : '',
      sessionExpirySeconds: 120,
      onMessage,
    });
    return subscriber;
  }
  const pipeline = () => {
    const directory = new DeviceDirectory(t.database.db);
    const writer = new BatchWriter(t.database.db, t.live, {
      concurrency: t.database.kind === 'postgres' ? 2 : 1,
      fallbackAccount: () => directory.systemAccount(),
      transactionWithClient: t.database.transactionWithClient,
    });
    const handler = new UplinkHandler(directory, { storedFrameTime: (f) => writer.storedFrameTime(f) });
    return { writer, handler };
  };

  beforeAll(async () => {
    // The test app's ingest steps aside: this block's workers are the only ones storing.
    await t.ingest.close({ endSession: true });
  });

  it('stores an uplink without ts once when the broker delivers it again after a reconnect', async () => {
    const uid = ipUidOf(1);
    const deviceId = await deviceIdOf('uid', uid);
    const gate = devEuiOf(50);
    const { writer, handler } = pipeline();
    const deliveries: Delivery[] = [];
    let failFirst = true;
    const uplink = JSON.stringify({ values: { lamp: true, dim: 77, power: 61 } });
    const stored = async () => (await readingsOf(deviceId)).filter((r) => r.code === 'dim' && r.value === 77);
    const subscriber = worker(`hostile-redelivery-${randomBytes(4).toString('hex')}`, async (topic, payload, d) => {
      if (topic === `lampyr/${uid}/up`) deliveries.push(d);
      if (topic === upTopic(gate) && failFirst) {
        // The message before it fails once the uplink is committed: the uplink's ack waits behind it.
        failFirst = false;
        await eventually(async () => (await stored()).length === 1);
        throw new Error('the database went away (test)');
      }
      await writer.submit(await handler.handle(topic, payload, d));
    });
    await subscriber.start();
    try {
      await publish(upTopic(gate), chirpstackUp(gate, { fCnt: 9, object: { dim: 9 } }));
      await publish(`lampyr/${uid}/up`, uplink);
      const gateId = await deviceIdOf('dev_eui', gate);
      await eventually(async () => (await readingsOf(gateId)).length === 1, 15_000);
      await eventually(() => deliveries.length >= 2, 15_000);
      await writer.drain();
      // Delivered twice, stored once, at the first delivery's time.
      expect(deliveries[1]?.receivedAt).toEqual(deliveries[0]?.receivedAt);
      const readings = (await readingsOf(deviceId)).filter((r) => r.frame_key.startsWith('h:'));
      expect(readings.map((r) => [r.code, r.value])).toEqual([
        ['lamp', 1],
        ['dim', 77],
        ['power', 61],
      ]);
      expect(new Date(readings[0]?.date_time as string).getTime()).toBe(deliveries[0]?.receivedAt.getTime());
    } finally {
      await subscriber.close({ endSession: true });
    }
  });

  it.skipIf(aedes)(
    'stores it once when a restarted worker is delivered it again (the broker flags it DUP)',
    // Aedes sends unacknowledged messages again without the DUP flag; as the embedded broker it
    // lives and dies with the worker, so a session never outlives the process that held it.
    async () => {
      const uid = ipUidOf(2);
      const deviceId = await deviceIdOf('uid', uid);
      const gate = devEuiOf(51);
      const clientId = `hostile-restart-${randomBytes(4).toString('hex')}`;
      const uplink = JSON.stringify({ values: { lamp: false, dim: 0, power: 3 } });
      const stored = async () => (await readingsOf(deviceId)).filter((r) => r.frame_key.startsWith('h:'));
      const first = pipeline();
      let died: () => void = () => {};
      const dead = new Promise<void>((resolve) => {
        died = resolve;
      });
      const one = worker(clientId, async (topic, payload, d) => {
        if (topic === upTopic(gate)) {
          // This worker dies with the uplink committed and unacknowledged.
          await eventually(async () => (await stored()).length === 3);
          await one.close();
          died();
          return new Promise(() => {});
        }
        await first.writer.submit(await first.handler.handle(topic, payload, d));
      });
      await one.start();
      await publish(upTopic(gate), chirpstackUp(gate, { fCnt: 9, object: { dim: 9 } }));
      await publish(`lampyr/${uid}/up`, uplink);
      await dead;
      await first.writer.drain();

      const second = pipeline();
      const deliveries: Delivery[] = [];
      const two = worker(clientId, async (topic, payload, d) => {
        if (topic === `lampyr/${uid}/up`) deliveries.push(d);
        await second.writer.submit(await second.handler.handle(topic, payload, d));
      });
      await two.start();
      try {
        await eventually(() => deliveries.length >= 1, 15_000);
        const gateId = await deviceIdOf('dev_eui', gate);
        await eventually(async () => (await readingsOf(gateId)).length === 1, 15_000);
        await second.writer.drain();
        expect(deliveries[0]?.redelivered).toBe(true);
        expect((await stored()).map((r) => [r.code, r.value])).toEqual([
          ['lamp', 0],
          ['dim', 0],
          ['power', 3],
        ]);
      } finally {
        await two.close({ endSession: true });
      }
    },
  );

  it('stores the same report sent twice by the device twice: identical values are not a redelivery', async () => {
    const uid = ipUidOf(3);
    const deviceId = await deviceIdOf('uid', uid);
    const { writer, handler } = pipeline();
    const subscriber = worker(`hostile-twice-${randomBytes(4).toString('hex')}`, async (topic, payload, d) =>
      writer.submit(await handler.handle(topic, payload, d)),
    );
    await subscriber.start();
    try {
      const report = JSON.stringify({ values: { lamp: true, dim: 55 } });
      await publish(`lampyr/${uid}/up`, report);
      await eventually(async () => (await readingsOf(deviceId)).filter((r) => r.value === 55).length === 1);
      await publish(`lampyr/${uid}/up`, report);
      const both = await eventually(async () => {
        const r = (await readingsOf(deviceId)).filter((x) => x.value === 55);
        return r.length === 2 && r;
      });
      expect(both[0]?.frame_key).toBe(both[1]?.frame_key);
      expect(both[0]?.date_time).not.toEqual(both[1]?.date_time);
    } finally {
      await subscriber.close({ endSession: true });
    }
  });
});
