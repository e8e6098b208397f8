import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Fleet } from '@lampyr/simulator';
import { DEMO_APPLICATION_ID, devEuiOf, ipUidOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceCredentials } from '../src/auth/device-credentials.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../src/ingest/embedded-broker.ts';
import { Client } from './support/test-app.ts';
import { connectClient, eventually, startTelemetryTestApp, type TelemetryTestApp } from './support/test-telemetry.ts';

/**
 * Devices are not users: each IP device has its own broker login limited to its own topics, an
 * answer settles only the write sent to the device that answers, DevEUIs have one form, a device is
 * heard only through its own account's application, deactivated devices and accounts stop working,
 * and a command whose time is up is never sent late.
 */

/** A TCP proxy between the ingest and the broker, which a test can cut and restore. */
class BrokerProxy {
  private server = net.createServer((socket) => this.accept(socket));
  private sockets = new Set<net.Socket>();
  private cut = false;
  port = 0;
  constructor(private readonly target: URL) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  private accept(socket: net.Socket): void {
    if (this.cut) {
      socket.destroy();
      return;
    }
    const upstream = net.connect({ host: this.target.hostname, port: Number(this.target.port || 1883) });
    for (const s of [socket, upstream]) {
      this.sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        this.sockets.delete(s);
        socket.destroy();
        upstream.destroy();
      });
    }
    socket.pipe(upstream).pipe(socket);
  }

  down(): void {
    this.cut = true;
    for (const s of this.sockets) s.destroy();
  }

  up(): void {
    this.cut = false;
  }

  close(): Promise<void> {
    this.down();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let t: TelemetryTestApp;
let proxy: BrokerProxy;
let client: Client;
let kadikoy: number;
let uskudar: number;
let listener: MqttClient;
let publisher: MqttClient;

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const idOf = async (column: 'uid' | 'dev_eui', value: string) =>
  Number((await rows<{ id: number }>(sql`SELECT id FROM devices WHERE ${sql.raw(column)} = ${value}`))[0]?.id);
const templateOf = async (deviceId: number, code: string) =>
  Number(
    (
      await rows<{ id: number }>(sql`
        SELECT t.id FROM device_channel_templates t JOIN devices d ON d.device_type_model_id = t.device_type_model_id
        WHERE d.id = ${deviceId} AND t.channel_code = ${code}`)
    )[0]?.id,
  );
const readingCount = async (deviceId: number) =>
  Number(
    (
      await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM channel_read_values WHERE device_id = ${deviceId}`)
    )[0]?.n,
  );
const dataLogs = (reason: string, deviceUid: string) =>
  rows<{ account_id: number }>(
    sql`SELECT account_id::int AS account_id FROM data_logs WHERE reason = ${reason} AND device_uid = ${deviceUid}`,
  );
const writeOf = async (id: number) => (await client.get('channel-write-values', id)).body.data;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const publish = (topic: string, message: unknown) => publisher.publishAsync(topic, JSON.stringify(message), { qos: 1 });
const upTopic = (applicationId: string, devEui: string) => `application/${applicationId}/device/${devEui}/event/up`;
const chirpstackUp = (devEui: string, fCnt: number, dim: number) => ({
  deviceInfo: { applicationId: DEMO_APPLICATION_ID, devEui },
  fCnt,
  fPort: 1,
  object: { dim },
  time: new Date().toISOString(),
});

/** The commands a topic carries, as they arrive. */
function capture(topic: string): { messages: Record<string, unknown>[] } {
  const seen = { messages: [] as Record<string, unknown>[] };
  listener.on('message', (t, payload) => {
    if (t === topic) seen.messages.push(JSON.parse(payload.toString()));
  });
  return seen;
}

async function createWrite(deviceId: number, code: string, value: number) {
  const created = await client.create('channel-write-values', {
    deviceId,
    deviceChannelTemplateId: await templateOf(deviceId, code),
    value,
  });
  expect(created.status).toBe(201);
  return created.body.data.id as number;
}

beforeAll(async () => {
  let target: URL | undefined;
  t = await startTelemetryTestApp({
    downlinkTimeoutMs: 1500,
    brokerUrl: (url) => {
      target = new URL(url);
      return url;
    },
  });
  // The ingest above connected directly; the proxy serves the outage test's own ingest below.
  proxy = new BrokerProxy(target as URL);
  await proxy.start();
  kadikoy = t.seeded.subAccountIds[0] as number;
  uskudar = t.seeded.subAccountIds[1] as number;
  client = new Client(t.app);
  await client.login();
  client.accountId = kadikoy;
  listener = await connectClient(t.broker, 'identity-listener');
  publisher = await connectClient(t.broker, 'identity-publisher');
});

afterAll(async () => {
  await listener?.endAsync();
  await publisher?.endAsync();
  await proxy?.close();
  await t?.close();
});

describe('an answer settles only the write of the device that answers', () => {
  it("leaves device B's Lampyr JSON write unacknowledged when device A acknowledges it", async () => {
    const [a, b] = [ipUidOf(1), ipUidOf(2)];
    const down = capture(`lampyr/${b}/down`);
    await listener.subscribeAsync(`lampyr/${b}/down`, { qos: 1 });
    const writeId = await createWrite(await idOf('uid', b), 'dim', 30);
    const command = await eventually(() => down.messages[0]);
    // The id on the wire is random (a UUID), not the write's number.
    expect(command.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(String(command.id)).not.toMatch(/^6c616d70-7972-4000-8000-/);
    await publish(`lampyr/${a}/ack`, { id: command.id, ok: true, message: 'forged by A' });
    await sleep(1000);
    expect(await writeOf(writeId)).toMatchObject({ status: 'sent', answeredAt: null });
    // B's own answer, sent after A's, settles it: the forged one was heard and refused.
    await publish(`lampyr/${b}/ack`, { id: command.id, ok: true });
    await eventually(async () => (await writeOf(writeId)).status === 'acknowledged');
    expect((await writeOf(writeId)).message).toBeNull();
  });

  it("leaves a ChirpStack downlink pending when another DevEUI's ack names it", async () => {
    const [a, b] = [devEuiOf(20), devEuiOf(21)];
    const topic = `application/${DEMO_APPLICATION_ID}/device/${b}/command/down`;
    const down = capture(topic);
    await listener.subscribeAsync(topic, { qos: 1 });
    const writeId = await createWrite(await idOf('dev_eui', b), 'dim', 60);
    const command = await eventually(() => down.messages[0]);
    const ack = (devEui: string, queueItemId: unknown) => ({
      deviceInfo: { applicationId: DEMO_APPLICATION_ID, devEui },
      queueItemId,
      acknowledged: true,
      fCntDown: 1,
      time: new Date().toISOString(),
    });
    await publish(`application/${DEMO_APPLICATION_ID}/device/${a}/event/ack`, ack(a, command.id));
    // A guess in the old, derived form names nothing either.
    await publish(
      `application/${DEMO_APPLICATION_ID}/device/${b}/event/ack`,
      ack(b, `6c616d70-7972-4000-8000-${writeId.toString(16).padStart(12, '0')}`),
    );
    await publish(`application/${DEMO_APPLICATION_ID}/device/${a}/event/txack`, ack(a, command.id));
    await sleep(1000);
    expect(await writeOf(writeId)).toMatchObject({ status: 'sent', answeredAt: null });
    await publish(`application/${DEMO_APPLICATION_ID}/device/${b}/event/ack`, ack(b, command.id));
    await eventually(async () => (await writeOf(writeId)).status === 'acknowledged');
  });
});

describe('DevEUIs have one form', () => {
  let modelId: number;
  beforeAll(async () => {
    modelId = Number((await rows<{ id: number }>(sql`SELECT device_type_model_id AS id FROM devices LIMIT 1`))[0]?.id);
  });

  it('stores AA-BB-… as 16 lowercase hex digits and refuses the same DevEUI in another form', async () => {
    const created = await client.create('devices', {
      name: 'EUI normal form',
      deviceTypeModelId: modelId,
      devEui: 'AA-BB-CC-DD-EE-FF-00-11',
    });
    expect(created.status).toBe(201);
    expect(created.body.data.devEui).toBe('aabbccddeeff0011');
    for (const same of ['aabbccddeeff0011', 'AABBCCDDEEFF0011', 'aa:bb:cc:dd:ee:ff:00:11']) {
      const duplicate = await client.create('devices', {
        name: `dup ${same}`,
        deviceTypeModelId: modelId,
        devEui: same,
      });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error?.code).toBe('CONFLICT');
    }
    const named = await rows(sql`SELECT id FROM devices WHERE name LIKE 'dup %' OR dev_eui = 'aabbccddeeff0011'`);
    expect(named).toHaveLength(1);
  });

  it('refuses anything that is not 16 hex digits, in English and Turkish', async () => {
    for (const bad of [
      'aabbccddeeff001',
      'aabbccddeeff00112',
      'zzbbccddeeff0011',
      'aabb/ccddeeff0011',
      'x'.repeat(300),
    ]) {
      const refused = await client.create('devices', { name: 'bad EUI', deviceTypeModelId: modelId, devEui: bad });
      expect(refused.status).toBe(422);
      expect(refused.body.error?.fields?.devEui).toMatch(/16 hexadecimal digits/);
    }
    client.language = 'tr';
    const refused = await client.create('devices', { name: 'bad EUI', deviceTypeModelId: modelId, devEui: 'nothex' });
    client.language = undefined;
    expect(refused.body.error?.fields?.devEui).toMatch(/16 onaltılık rakam/);
    expect(await rows(sql`SELECT id FROM devices WHERE name = 'bad EUI'`)).toHaveLength(0);
    // The database holds the form too, whoever writes.
    await expect(
      t.database.db.execute(sql`UPDATE devices SET dev_eui = 'AABBCCDDEEFF0011' WHERE dev_eui = 'aabbccddeeff0011'`),
    ).rejects.toThrow();
  });

  it('refuses a uid that is not one MQTT topic level', async () => {
    for (const bad of ['a/b', '+', '#', 'kdk ip', 'x'.repeat(65)]) {
      const refused = await client.create('devices', { name: 'bad uid', deviceTypeModelId: modelId, uid: bad });
      expect(refused.status).toBe(422);
      expect(refused.body.error?.fields?.uid).toBeTruthy();
    }
  });
});

describe("a device is heard only through its own account's application, and only while active", () => {
  it("keeps an uplink that came through another account's application in the data log, not as readings", async () => {
    const devEui = devEuiOf(30);
    const deviceId = await idOf('dev_eui', devEui);
    const foreignApp = `0b6a4c6e-0000-4000-8000-${randomBytes(6).toString('hex')}`;
    await t.database.db.execute(sql`
      INSERT INTO gateway_applications (account_id, name, chirpstack_application_id)
      VALUES (${uskudar}, 'Üsküdar lights', ${foreignApp})`);
    const before = await readingCount(deviceId);
    await publish(upTopic(foreignApp, devEui), chirpstackUp(devEui, 1, 11));
    // An application nobody registered is not the device's either.
    await publish(upTopic('11111111-2222-4333-8444-555555555555', devEui), chirpstackUp(devEui, 2, 12));
    const logged = await eventually(async () => {
      const r = await dataLogs('application_mismatch', devEui);
      return r.length === 2 && r;
    });
    // Kept with the application's account, not shown to the device's.
    expect(logged.map((r) => r.account_id).sort()).toEqual(
      [uskudar, Number((await rows<{ id: number }>(sql`SELECT min(id) AS id FROM accounts`))[0]?.id)].sort(),
    );
    expect(await readingCount(deviceId)).toBe(before);
    // Through its own application the same device is heard.
    await publish(upTopic(DEMO_APPLICATION_ID, devEui), chirpstackUp(devEui, 3, 13));
    await eventually(async () => (await readingCount(deviceId)) > before);
  });

  it('stores no reading of a deactivated device, and refuses a command to it', async () => {
    const uid = ipUidOf(4);
    const deviceId = await idOf('uid', uid);
    const record = (await client.get('devices', deviceId)).body.data;
    const updated = await client.update('devices', { id: deviceId, updatedAt: record.updatedAt, isActive: false });
    expect(updated.status).toBe(200);
    const before = await readingCount(deviceId);
    await publish(`lampyr/${uid}/up`, { values: { dim: 77 } });
    await eventually(async () => (await dataLogs('device_inactive', uid)).length === 1);
    expect(await readingCount(deviceId)).toBe(before);
    const writes = await rows(sql`SELECT id FROM channel_write_values WHERE device_id = ${deviceId}`);
    const refused = await client.create('channel-write-values', {
      deviceId,
      deviceChannelTemplateId: await templateOf(deviceId, 'dim'),
      value: 10,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error?.fields?.deviceId).toMatch(/deactivated/);
    expect(await rows(sql`SELECT id FROM channel_write_values WHERE device_id = ${deviceId}`)).toEqual(writes);
  });

  it('stores no reading of a device whose account is deactivated', async () => {
    client.accountId = uskudar;
    const modelId = Number(
      (await rows<{ id: number }>(sql`SELECT device_type_model_id AS id FROM devices LIMIT 1`))[0]?.id,
    );
    const uid = `usk-ip-${randomBytes(3).toString('hex')}`;
    const created = await client.create('devices', { name: 'Üsküdar IP light', deviceTypeModelId: modelId, uid });
    client.accountId = kadikoy;
    expect(created.status).toBe(201);
    await publish(`lampyr/${uid}/up`, { values: { dim: 5 } });
    await eventually(async () => (await readingCount(created.body.data.id)) === 1);
    // A platform operator deactivates the account (through its own operation; here in SQL).
    await t.database.db.execute(sql`UPDATE accounts SET is_active = false WHERE id = ${uskudar}`);
    t.commands.emit({ resource: 'accounts', action: 'update', record: { id: uskudar } });
    try {
      await publish(`lampyr/${uid}/up`, { values: { dim: 6 } });
      await eventually(async () => (await dataLogs('account_inactive', uid)).length === 1);
      expect(await readingCount(created.body.data.id)).toBe(1);
    } finally {
      await t.database.db.execute(sql`UPDATE accounts SET is_active = true WHERE id = ${uskudar}`);
      t.commands.emit({ resource: 'accounts', action: 'update', record: { id: uskudar } });
    }
  });
});

describe('each IP device has its own login at the embedded broker', () => {
  let broker: EmbeddedBroker;
  let credentials: DeviceCredentials;
  let stopCredentials: () => void;
  const lampyr = { username: 'lampyr', password: randomBytes(12).toString('hex') };
  const chirpstack = { username: 'chirpstack', password: randomBytes(12).toString('hex') };
  const url = () => `mqtt://127.0.0.1:${broker.port}`;
  const connect = (login: { username?: string; password?: string }) =>
    mqtt.connectAsync(url(), {
      ...login,
      clientId: `identity-${randomBytes(4).toString('hex')}`,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      protocolVersion: 4,
    });
  const reveal = async (uid: string, action: 'reveal' | 'rotate' = 'reveal') => {
    const res = await client.call('POST', `/command/api/devices/${await idOf('uid', uid)}/credentials/${action}`, {});
    expect(res.status).toBe(200);
    return res.body.data as { username: string; password: string };
  };
  /** A login made just now reaches the broker with the reload its change event starts. */
  const connectOnceKnown = (login: { username: string; password: string }) => eventually(() => connect(login));
  const closed = (c: MqttClient) => new Promise<void>((resolve) => c.once('close', () => resolve()));

  beforeAll(async () => {
    credentials = new DeviceCredentials(t.database.db, t.ctx.secretBox);
    await credentials.reload();
    stopCredentials = credentials.start(t.commands);
    broker = await startEmbeddedBroker({ port: 0, host: '127.0.0.1', lampyr, chirpstack, devices: credentials });
  });
  afterAll(async () => {
    stopCredentials?.();
    await broker?.close();
  });

  it('shows the login to an operator who may update devices, and to no one else', async () => {
    const login = await reveal(ipUidOf(1));
    expect(login.username).toBe(ipUidOf(1));
    expect(login.password.length).toBeGreaterThanOrEqual(32);
    // Shown again, it is the same; stored sealed, never in clear.
    expect(await reveal(ipUidOf(1))).toEqual(login);
    const stored = await rows<{ sealed: string }>(
      sql`SELECT mqtt_password_encrypted AS sealed FROM devices WHERE uid = ${ipUidOf(1)}`,
    );
    expect(stored[0]?.sealed).not.toContain(login.password);
    // A LoRaWAN device has none (it speaks through ChirpStack); the generic API never shows it.
    const lorawan = await client.call(
      'POST',
      `/command/api/devices/${await idOf('dev_eui', devEuiOf(1))}/credentials/reveal`,
      {},
    );
    expect(lorawan.status).toBe(422);
    expect(JSON.stringify((await client.get('devices', await idOf('uid', ipUidOf(1)))).body)).not.toContain(
      login.password,
    );
    // Another account's operator does not find the device.
    client.accountId = uskudar;
    const other = await client.call(
      'POST',
      `/command/api/devices/${await idOf('uid', ipUidOf(1))}/credentials/reveal`,
      {},
    );
    client.accountId = kadikoy;
    expect(other.status).toBe(404);
  });

  it('refuses a wrong password, another device’s password, and anonymous clients', async () => {
    const [one, two] = [await reveal(ipUidOf(1)), await reveal(ipUidOf(2))];
    await connectOnceKnown(two).then((c) => c.endAsync());
    await expect(connect({ username: one.username, password: `${one.password}x` })).rejects.toThrow();
    await expect(connect({ username: one.username, password: two.password })).rejects.toThrow();
    await expect(connect({})).rejects.toThrow();
    const device = await connectOnceKnown(one);
    expect(device.connected).toBe(true);
    await device.endAsync();
  });

  it('grants a device its own commands only: no wildcards, no other device', async () => {
    const login = await reveal(ipUidOf(1));
    const device = await connect(login);
    const granted = await device.subscribeAsync(`lampyr/${ipUidOf(1)}/down`, { qos: 1 });
    expect(granted.map((g) => g.qos)).toEqual([1]);
    for (const topic of [
      'lampyr/+/down',
      '#',
      'lampyr/#',
      `lampyr/${ipUidOf(2)}/down`,
      `lampyr/${ipUidOf(1)}/+`,
      `lampyr/${ipUidOf(1)}/up`,
      `application/${DEMO_APPLICATION_ID}/device/+/command/down`,
    ]) {
      await expect(device.subscribeAsync(topic, { qos: 1 })).rejects.toMatchObject({ packet: { granted: [128] } });
    }
    expect(device.connected).toBe(true);
    await device.endAsync();
  });

  it("drops a device that publishes on another device's topic; its own uplink goes through", async () => {
    const server = await connect(lampyr);
    const heard: string[] = [];
    server.on('message', (topic) => heard.push(topic));
    await server.subscribeAsync(['lampyr/#', 'application/#'], { qos: 1 });
    const device = await connect(await reveal(ipUidOf(1)));
    await device.publishAsync(`lampyr/${ipUidOf(1)}/up`, JSON.stringify({ values: { dim: 1 } }), { qos: 1 });
    await eventually(() => heard.includes(`lampyr/${ipUidOf(1)}/up`));
    for (const topic of [
      `lampyr/${ipUidOf(2)}/up`,
      `lampyr/${ipUidOf(2)}/ack`,
      `lampyr/${ipUidOf(1)}/down`,
      upTopic(DEMO_APPLICATION_ID, devEuiOf(1)),
    ]) {
      const victim = await connect(await reveal(ipUidOf(1)));
      const gone = closed(victim);
      victim.publish(topic, JSON.stringify({ values: { dim: 99 } }), { qos: 1 });
      await gone;
    }
    await sleep(300);
    expect(heard).toEqual([`lampyr/${ipUidOf(1)}/up`]);
    await Promise.all([device.endAsync(true), server.endAsync()]);
  });

  it('closes the connections of a device whose password is rotated or which is deactivated', async () => {
    const uid = ipUidOf(3);
    const old = await reveal(uid);
    const device = await connectOnceKnown(old);
    const gone = closed(device);
    const fresh = await reveal(uid, 'rotate');
    expect(fresh.password).not.toBe(old.password);
    await gone;
    await eventually(async () => {
      await expect(connect(old)).rejects.toThrow();
      return true;
    });
    const again = await connect(fresh);
    const goneAgain = closed(again);
    const deviceId = await idOf('uid', uid);
    const record = (await client.get('devices', deviceId)).body.data;
    expect(
      (await client.update('devices', { id: deviceId, updatedAt: record.updatedAt, isActive: false })).status,
    ).toBe(200);
    try {
      await goneAgain;
      await expect(connect(fresh)).rejects.toThrow();
    } finally {
      const now = (await client.get('devices', deviceId)).body.data;
      await client.update('devices', { id: deviceId, updatedAt: now.updatedAt, isActive: true });
    }
  });

  it('runs the simulator by the same rules: the LoRaWAN fleet as ChirpStack, each IP light on its own login', async () => {
    const server = await connect(lampyr);
    const heard = new Set<string>();
    server.on('message', (topic) => heard.add(topic));
    await server.subscribeAsync(['lampyr/+/up', 'application/+/device/+/event/up'], { qos: 1 });
    const fleet = new Fleet({
      url: url(),
      ...chirpstack,
      ipLogin: async (uid) =>
        (await client.call('POST', `/command/api/devices/${await idOf('uid', uid)}/credentials/reveal`, {})).body.data,
      lights: 2,
      ipDevices: 2,
      reportingPeriodMs: 300,
      silenceChance: 0,
      seed: 7,
    });
    await fleet.start();
    try {
      await eventually(
        () =>
          [ipUidOf(1), ipUidOf(2)].every((uid) => heard.has(`lampyr/${uid}/up`)) &&
          heard.has(upTopic(DEMO_APPLICATION_ID, devEuiOf(1))),
      );
      // A new password disconnects the light; it asks for its login again and comes back.
      await reveal(ipUidOf(1), 'rotate');
      await sleep(500);
      heard.clear();
      await eventually(() => heard.has(`lampyr/${ipUidOf(1)}/up`), 15_000);
    } finally {
      await fleet.stop();
      await server.endAsync();
    }
  });
});

describe('a command whose time is up is never sent late', () => {
  it('does not publish, after the broker is back, a write that timed out while it was away', async () => {
    // A second ingest, connected through the proxy, with the same database and command events.
    const { startIngest } = await import('../src/ingest/ingest-service.ts');
    await t.ingest.close({ endSession: true });
    const ingest = await startIngest({
      db: t.database.db,
      databaseKind: t.database.kind,
      url: `mqtt://127.0.0.1:${proxy.port}`,
      username: t.broker.username,
      password: t.broker.password,
      clientId: `lampyr-test-outage-${randomBytes(4).toString('hex')}`,
      shareGroup: t.broker.shareGroup,
      sessionExpirySeconds: 60,
      live: t.live,
      commands: t.commands,
      downlinkTimeoutMs: 1500,
      downlinkSweepMs: 250,
      log: { error: () => {}, warn: () => {} },
    });
    t.ingest = ingest;
    const uid = ipUidOf(5);
    const deviceId = await idOf('uid', uid);
    const down = capture(`lampyr/${uid}/down`);
    await listener.subscribeAsync(`lampyr/${uid}/down`, { qos: 1 });

    proxy.down();
    await sleep(300);
    const writeId = await createWrite(deviceId, 'dim', 15);
    const failed = await eventually(async () => {
      const w = await writeOf(writeId);
      return w.status === 'failed' && w;
    });
    expect(failed.message).toBe('timeout');
    proxy.up();
    // Reconnected (1 s) and a few sweeps later, the command has still not gone out.
    await sleep(3000);
    expect(down.messages).toEqual([]);
    expect(await writeOf(writeId)).toMatchObject({ status: 'failed', message: 'timeout', sentAt: null });
    // The way is open again: a new command goes out, with a deadline the device checks.
    const next = await createWrite(deviceId, 'dim', 25);
    const command = await eventually(() => down.messages[0]);
    expect(command.values).toEqual({ dim: 25 });
    expect(Date.parse(String(command.expiresAt))).toBeGreaterThan(Date.now());
    expect((await writeOf(next)).status).toBe('sent');
  });
});
