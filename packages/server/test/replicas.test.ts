/**
 * Replicas (issue 14): roles, stable MQTT client ids, /health and /ready, the system log, and on
 * PostgreSQL one event bus across replicas (LISTEN/NOTIFY) — a console on one replica sees what
 * another replica's ingest stored, and a command committed on one reaches the ingest of another.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devEuiOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_ROLES, ConfigError, loadConfig, mqttClientId } from '../src/config.ts';
import { CommandEvents } from '../src/events/command-events.ts';
import { LiveEvents } from '../src/events/live-events.ts';
import { PgEventBus } from '../src/events/pg-bus.ts';
import { SystemLog } from '../src/events/system-log.ts';
import { Client, startTestApp, type TestApp } from './support/test-app.ts';
import {
  connectClient,
  eventually,
  openStreamAs,
  type StreamReader,
  startTelemetryTestApp,
  type TelemetryTestApp,
} from './support/test-telemetry.ts';
import { publishUplink } from './support/uplinks.ts';

const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
const onPostgres = target.startsWith('postgres');
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('roles and client ids (configuration)', () => {
  it('runs every role by default; LAMPYR_ROLES and --roles choose; a wrong role stops start-up', () => {
    expect(loadConfig({}).LAMPYR_ROLES).toEqual([...ALL_ROLES]);
    expect(loadConfig({ LAMPYR_ROLES: 'ingest, engines' }).LAMPYR_ROLES).toEqual(['ingest', 'engines']);
    expect(loadConfig({ LAMPYR_ROLES: 'ingest' }, ['--roles', 'query,command']).LAMPYR_ROLES).toEqual([
      'query',
      'command',
    ]);
    expect(loadConfig({}, ['--roles=engines']).LAMPYR_ROLES).toEqual(['engines']);
    expect(() => loadConfig({ LAMPYR_ROLES: 'query,cooking' })).toThrow(/LAMPYR_ROLES/);
    expect(() => loadConfig({ LAMPYR_ROLES: ' , ' })).toThrow(/at least one/);
    expect(() => loadConfig({}, ['--roles'])).toThrow(ConfigError);
    expect(() => loadConfig({}, ['--rolez', 'query'])).toThrow(/Unknown argument/);
  });

  it('gives each replica its own MQTT client id, the same after a restart; MQTT_CLIENT_ID wins', () => {
    const one = mkdtempSync(join(tmpdir(), 'lampyr-replica-'));
    const two = mkdtempSync(join(tmpdir(), 'lampyr-replica-'));
    const first = mqttClientId(loadConfig({ DATA_DIR: one }));
    expect(first).toMatch(/^lampyr-[a-z0-9-]+-[a-f0-9]{12}$/);
    expect(mqttClientId(loadConfig({ DATA_DIR: one }))).toBe(first);
    expect(mqttClientId(loadConfig({ DATA_DIR: two }))).not.toBe(first);
    expect(mqttClientId(loadConfig({ DATA_DIR: one, MQTT_CLIENT_ID: 'worker-7' }))).toBe('worker-7');
    expect(() => loadConfig({ MQTT_CLIENT_ID: 'bad id/with slash' })).toThrow(/MQTT_CLIENT_ID/);
    const config = loadConfig({});
    expect(config.MQTT_SESSION_EXPIRY_SECONDS).toBe(120);
    expect(config.MQTT_END_SESSION_ON_STOP).toBeUndefined();
  });
});

describe('a replica with some roles', () => {
  let full: TestApp;
  let query: TestApp;
  it('serves only its APIs; /health lives, /ready checks the database and migrations', async () => {
    full = await startTestApp({ demo: false });
    cleanup.push(() => full.close());
    query = await startTestApp({ database: full.database, seeded: full.seeded, app: { roles: ['query'] } });
    cleanup.push(() => query.app.close());
    const viaQuery = new Client(query.app);
    // Sign-in is the command API's: refused here as not served, not as a wrong password.
    const refused = await viaQuery.login();
    expect(refused.status).toBe(404);
    expect(refused.body.error?.code).toBe('NOT_FOUND');
    const viaFull = new Client(full.app);
    expect((await viaFull.login()).status).toBe(200);
    viaQuery.token = viaFull.token;
    viaQuery.accountId = full.seeded.integratorId;
    expect((await viaQuery.list('devices', { filter: null, pageable: { page: 1, size: 5, sort: [] } })).status).toBe(
      200,
    );
    expect((await viaQuery.create('regions', { name: 'Nowhere' })).status).toBe(404);

    const health = await query.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().data).toEqual({ status: 'ok', roles: ['query'] });
    const ready = await query.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toMatchObject({
      ready: true,
      roles: ['query'],
      checks: { database: { ok: true }, migrations: { ok: true } },
    });
  }, 180_000);

  it('is not ready while an ingest replica has no broker, and says so', async () => {
    let connected = false;
    const ingest = await startTestApp({
      database: full.database,
      seeded: full.seeded,
      app: { roles: ['ingest'], readiness: { broker: () => connected } },
    });
    cleanup.push(() => ingest.app.close());
    const down = await ingest.app.inject({ method: 'GET', url: '/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json().data.checks.broker).toEqual({ ok: false, detail: 'not connected to the MQTT broker' });
    connected = true;
    expect((await ingest.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});

describe('the system log', () => {
  it('writes what the server does at the levels the System Log Settings name; refused sign-ins in bulk', async () => {
    const t = await startTestApp({ demo: false });
    cleanup.push(() => t.close());
    const log = new SystemLog(t.database.db, { replica: { host: 'test' } }, undefined, 300);
    const root = Number(
      rowsOf(await t.database.db.execute(sql`SELECT min(id) AS id FROM accounts WHERE account_id IS NULL`))[0]?.id,
    );
    const lines = async () =>
      rowsOf(
        await t.database.db.execute(
          sql`SELECT account_id::int AS account_id, level, source, message, context FROM system_logs ORDER BY id`,
        ),
      );
    // The administrator, signed in before the wrong passwords below, reads them in System Logs.
    const reader = new Client(t.app);
    expect((await reader.login()).status).toBe(200);
    reader.accountId = t.seeded.integratorId;
    log.info('server', 'starting with roles query, command, ingest, engines');
    log.write('debug', 'server', 'a detail below the setting');
    log.error('scheduler', new Error('boom'));
    log.error('scheduler', new Error('boom')); // the same error again within a minute: once
    await log.flush();
    expect(await lines()).toEqual([
      {
        account_id: root,
        level: 'info',
        source: 'server',
        message: 'starting with roles query, command, ingest, engines',
        context: { replica: { host: 'test' } },
      },
      {
        account_id: root,
        level: 'error',
        source: 'scheduler',
        message: 'boom',
        context: { replica: { host: 'test' } },
      },
    ]);
    // The operator raises the level to warn: info is no longer written (read again within 30 s; a new log reads now).
    await t.database.db.execute(sql`UPDATE system_log_settings SET level = 'warn' WHERE account_id = ${root}`);
    const strict = new SystemLog(t.database.db, {}, undefined, 3000);
    strict.info('broker', 'connection regained');
    strict.warn('broker', 'connection lost');
    await strict.flush();
    expect((await lines()).slice(2).map((l) => [l.level, l.message])).toEqual([['warn', 'connection lost']]);

    // Six wrong passwords through the app (refused, then rate-limited): one line for them all once the window closes.
    const app = await startTestApp({ database: t.database, seeded: t.seeded, app: { systemLog: strict } });
    cleanup.push(() => app.app.close());
    const client = new Client(app.app);
    // At once, so they fall in one window however slow password hashing is here.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => client.login('admin@lampyr.local', `wrong-${i}`)),
    );
    for (const answer of answers) expect([401, 429]).toContain(answer.status);
    await eventually(async () => {
      await strict.flush();
      return (await lines()).some((l) => l.source === 'auth');
    }, 15_000);
    const refused = (await lines()).filter((l) => l.source === 'auth');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ level: 'warn', context: { count: 6, addresses: ['127.0.0.1'] } });
    expect(String(refused[0]?.message)).toMatch(/^6 sign-ins refused in \d+ s$/);
    // What the console's System Logs screen lists.
    const screen = await reader.list('system-logs', {
      filter: null,
      pageable: { page: 1, size: 20, sort: ['id,asc'] },
    });
    expect(screen.status).toBe(200);
    expect(
      screen.body.data.content.map((l: { level: string; source: string; message: string }) => `${l.level} ${l.source}`),
    ).toEqual(['info server', 'error scheduler', 'warn broker', 'warn auth']);
    await strict.close();
    await log.close();
  }, 180_000);
});

describe.skipIf(!onPostgres)('one event bus across replicas (PostgreSQL LISTEN/NOTIFY)', () => {
  let ingestReplica: TelemetryTestApp;
  let queryReplica: TestApp;
  let publisher: MqttClient;
  let stream: StreamReader;

  it('a console on one replica sees the values another replica ingested', async () => {
    // Its alarm rules are read again only when told (no periodic resync): by the bus.
    ingestReplica = await startTelemetryTestApp({ alarms: { resyncMs: 0 } });
    cleanup.push(() => ingestReplica.close());
    const busA = new PgEventBus({ url: target, live: ingestReplica.live, commands: ingestReplica.commands });
    await busA.start();
    cleanup.push(() => busA.close());
    // A second replica on the same database: HTTP only, its own in-process events.
    const live = new LiveEvents();
    const commands = new CommandEvents();
    queryReplica = await startTestApp({
      database: ingestReplica.database,
      seeded: ingestReplica.seeded,
      app: { live, commands, roles: ['query', 'command'] },
    });
    await queryReplica.app.listen({ port: 0, host: '127.0.0.1' });
    cleanup.push(() => queryReplica.app.close());
    const busB = new PgEventBus({ url: target, live, commands });
    await busB.start();
    cleanup.push(() => busB.close());

    const client = new Client(queryReplica.app);
    await client.login();
    client.accountId = ingestReplica.seeded.subAccountIds[0];
    const base = `http://127.0.0.1:${(queryReplica.app.server.address() as AddressInfo).port}`;
    stream = await openStreamAs(base, client);
    cleanup.push(() => stream.close());
    // The ingest replica learns that someone streams this account (and so builds its events).
    await eventually(() => ingestReplica.live.hasListeners(client.accountId as number), 5000);

    publisher = await connectClient(ingestReplica.broker, 'bus-publisher');
    cleanup.push(() => publisher.endAsync());
    const deviceId = Number(
      rowsOf(await ingestReplica.database.db.execute(sql`SELECT id FROM devices WHERE dev_eui = ${devEuiOf(3)}`))[0]
        ?.id,
    );
    const fcnt = 700_000 + Math.floor(Math.random() * 100_000);
    await publishUplink(publisher, 3, fcnt);
    const value = await eventually(
      () => stream.events.find((e) => e.event === 'value' && Number(e.data.deviceId) === deviceId),
      10_000,
    );
    expect(value.data).toMatchObject({ deviceId });
    // The status of the device went online on the ingest replica: that too reaches this console.
    await eventually(() => stream.events.some((e) => e.event === 'status' && Number(e.data.deviceId) === deviceId));
  }, 180_000);

  it('a change committed on one replica reaches the caches and the ingest of another', async () => {
    const client = new Client(queryReplica.app);
    await client.login();
    client.accountId = ingestReplica.seeded.subAccountIds[0];
    const deviceId = Number(
      rowsOf(await ingestReplica.database.db.execute(sql`SELECT id FROM devices WHERE dev_eui = ${devEuiOf(4)}`))[0]
        ?.id,
    );
    // The ingest replica's device directory holds the device...
    const before = await ingestReplica.ingest.directory.byId(deviceId);
    expect(before?.name).toBeTruthy();
    // ...renamed through the other replica's command API: forgotten there, read afresh.
    const device = (await client.get('devices', deviceId)).body.data;
    const renamed = `${device.name} (renamed ${Date.now()})`;
    expect((await client.update('devices', { ...device, name: renamed })).status).toBe(200);
    await eventually(async () => (await ingestReplica.ingest.directory.byId(deviceId))?.name === renamed, 5000);

    // A channel write committed on the query/command replica (no ingest there) is sent by the ingest replica.
    const downlinks: string[] = [];
    const listener = await connectClient(ingestReplica.broker, 'bus-downlinks');
    cleanup.push(() => listener.endAsync());
    await listener.subscribeAsync(`application/+/device/${devEuiOf(4)}/command/down`, { qos: 1 });
    listener.on('message', (topic) => downlinks.push(topic));
    const channel = rowsOf(
      await ingestReplica.database.db.execute(sql`
        SELECT t.id FROM device_channel_templates t JOIN devices d ON d.device_type_model_id = t.device_type_model_id
        WHERE d.id = ${deviceId} AND t.channel_code = 'dim'`),
    )[0];
    expect(channel).toBeDefined();
    const write = await client.create('channel-write-values', {
      deviceId,
      deviceChannelTemplateId: Number(channel?.id),
      value: 40,
    });
    expect(write.status).toBe(201);
    await eventually(() => downlinks.length > 0, 10_000);
    const status = async () =>
      rowsOf(
        await ingestReplica.database.db.execute(
          sql`SELECT status FROM channel_write_values WHERE id = ${write.body.data.id}`,
        ),
      )[0]?.status;
    expect(await status()).not.toBe('pending');
  }, 60_000);

  it('an alarm rule made on one replica is in force on the ingest of another at once', async () => {
    const client = new Client(queryReplica.app);
    await client.login();
    client.accountId = ingestReplica.seeded.subAccountIds[0];
    const [device] = rowsOf(
      await ingestReplica.database.db.execute(
        sql`SELECT id::int AS id, device_type_model_id::int AS model FROM devices WHERE dev_eui = ${devEuiOf(7)}`,
      ),
    );
    const power = Number(
      rowsOf(
        await ingestReplica.database.db.execute(
          sql`SELECT id FROM device_channel_templates WHERE device_type_model_id = ${device?.model} AND channel_code = 'power'`,
        ),
      )[0]?.id,
    );
    const alarms = async () =>
      rowsOf(
        await ingestReplica.database.db.execute(
          sql`SELECT template_id::int AS template FROM alert_logs WHERE device_id = ${device?.id} AND is_active`,
        ),
      );
    // The uplink reports 120 W (uplinks.ts): over this rule's 100 W.
    expect(power).toBeGreaterThan(0);
    const template = await client.create('alert-device-parameter-templates', {
      name: 'Replica over-power',
      condition: 'gt',
      value: 100,
      threshold: 5,
      unit: 'W',
      alertLevel: 'high',
      channelTemplateId: power,
    });
    expect(template.status).toBe(201);
    expect(
      (await client.create('alert-device-pairing', { alertTemplateId: template.body.data.id, deviceId: device?.id }))
        .status,
    ).toBe(201);
    // The ingest replica compiles the rules again shortly after it hears of the change.
    await new Promise((r) => setTimeout(r, 1500));
    await ingestReplica.alarms.idle();
    await publishUplink(publisher, 7, 600_000 + Math.floor(Math.random() * 90_000));
    const raised = await eventually(async () => {
      const list = await alarms();
      return list.some((a) => a.template === template.body.data.id) && list;
    }, 15_000);
    expect(raised.filter((a) => a.template === template.body.data.id)).toHaveLength(1);
  }, 60_000);
});

describe.skipIf(!onPostgres)('live events on the bus', () => {
  const ACCOUNT = 424_242;
  const value = (n: number) =>
    ({
      type: 'value',
      deviceId: n,
      deviceChannelTemplateId: 1,
      subChannel: 0,
      channelCode: 'power',
      value: n,
      status: 'ok',
      dateTime: new Date(0).toISOString(),
    }) as const;

  it('goes out only for an account another replica streams, and is dropped, not queued, when the bus is behind', async () => {
    const a = new LiveEvents();
    const b = new LiveEvents();
    const busA = new PgEventBus({ url: target, live: a, commands: new CommandEvents() });
    const busB = new PgEventBus({ url: target, live: b, commands: new CommandEvents() });
    await busA.start();
    cleanup.push(() => busA.close());
    await busB.start();
    cleanup.push(() => busB.close());
    // What goes over the wire, seen by a plain listener of the live channel.
    const { default: pg } = await import('pg');
    const wire = new pg.Client({ connectionString: target });
    await wire.connect();
    cleanup.push(() => wire.end());
    const sent: string[] = [];
    wire.on('notification', (m) => {
      if (m.payload?.startsWith(`${busA.origin}|`)) sent.push(m.payload);
    });
    await wire.query('LISTEN lampyr_live');

    // Streamed on this replica only: delivered here, nothing NOTIFYed.
    const here: number[] = [];
    a.subscribe(ACCOUNT, (events) => here.push(...events.map((e) => (e.type === 'value' ? e.value : -1))));
    a.publish(ACCOUNT, [value(1)]);
    expect(here).toEqual([1]);

    // Once the other replica streams it, it goes out, and arrives there.
    const there: number[] = [];
    b.subscribe(ACCOUNT, (events) => there.push(...events.map((e) => (e.type === 'value' ? e.value : -1))));
    await eventually(() => a.streamedElsewhere(ACCOUNT), 5000);
    a.publish(ACCOUNT, [value(2)]);
    await eventually(() => there.includes(2), 5000);
    expect(there).toEqual([2]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain('"value":1,');

    // Far more than the bus can take in one turn: the NOTIFYs in flight stay bounded.
    for (let n = 0; n < 20_000; n++) a.publish(ACCOUNT, [value(1_000_000 + n)]);
    await eventually(() => busA.droppedLive > 0, 5000);
    const wanted = 20_000 - busA.droppedLive;
    await eventually(() => there.length === 1 + wanted, 10_000);
    expect(wanted).toBeGreaterThan(0);
    // Nothing is stuck: the next event goes out.
    a.publish(ACCOUNT, [value(3)]);
    await eventually(() => there.includes(3), 5000);
  }, 60_000);
});
