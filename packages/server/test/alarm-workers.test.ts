import { ipUidOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/connect.ts';
import type { NotificationRequest, Notifier } from '../src/engines/notifications/notifier.ts';
import { Client, testDatabase } from './support/test-app.ts';
import { connectClient, eventually, startTelemetryTestApp, type TelemetryTestApp } from './support/test-telemetry.ts';

/**
 * What must hold across processes and restarts (DEVICES.md "Alarms"): two workers raise an alarm
 * once; a restart in the middle of an alert event's duration neither loses nor repeats its
 * notification; a timer claimed by a worker that died is taken over. And node loss: a silent device
 * raises one alarm and notifies, a device that never spoke does not, its next uplink clears it.
 * A "minute" of the settings is one second here.
 */

class RecordingNotifier implements Notifier {
  requests: NotificationRequest[] = [];
  async notify(request: NotificationRequest) {
    this.requests.push(request);
  }
}

const PACE = { tickMs: 0, resyncMs: 0, minuteSeconds: 1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let database: Database;
/** A second connection (pool) to the same database, as another process would have; PGlite has one. */
let second: Database | undefined;
let first: TelemetryTestApp;
let client: Client;
let kadikoy: number;
let deviceId: number;
let voltageChannel: number;
let eventId: number;
let firstNotifier = new RecordingNotifier();

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
const activeAlarms = (id: number) =>
  rows<{ id: number; kind: string; alert_level: string; clear_reason: string | null; is_active: boolean }>(sql`
    SELECT id::int AS id, kind, alert_level, clear_reason, is_active FROM alert_logs WHERE device_id = ${id} AND is_active`);
const reading = (value: number) => ({
  accountId: kadikoy,
  deviceId,
  templateId: voltageChannel,
  subChannel: 0,
  value,
  dateTime: new Date(),
});

beforeAll(async () => {
  database = await testDatabase();
  const url = process.env.LAMPYR_TEST_DB;
  first = await startTelemetryTestApp({ database, notifier: firstNotifier, alarms: PACE });
  if (url && url !== 'pglite') second = await openDatabase({ url, dataDir: 'unused' });
  kadikoy = first.seeded.subAccountIds[0] as number;
  client = new Client(first.app);
  await client.login();
  client.accountId = kadikoy;
  const [device] = await rows<{ id: number; model: number }>(
    sql`SELECT id::int AS id, device_type_model_id::int AS model FROM devices WHERE uid = ${ipUidOf(1)}`,
  );
  deviceId = device?.id as number;
  voltageChannel = Number(
    (
      await rows<{ id: number }>(
        sql`SELECT id FROM device_channel_templates WHERE device_type_model_id = ${device?.model} AND channel_code = 'voltage'`,
      )
    )[0]?.id,
  );
  // The demo's own rules and its mail-everything event stay out of this test's way.
  await rows(sql`DELETE FROM alert_device_pairing WHERE device_id = ${deviceId}`);
  await rows(sql`UPDATE alert_events SET status = 'inactive'`);
  const template = await client.create('alert-device-parameter-templates', {
    name: 'Worker over-voltage',
    condition: 'gt',
    value: 253,
    threshold: 5,
    unit: 'V',
    alertLevel: 'high',
    channelTemplateId: voltageChannel,
  });
  await client.create('alert-device-pairing', { alertTemplateId: template.body.data.id, deviceId });
  const event = await client.create('alert-events', {
    eventName: 'Worker watch',
    deviceId,
    isForever: true,
    turnToAlarm: true,
    durationOfAlarm: 2,
    notifyEmail: true,
    emailList: 'ops@example.com',
  });
  expect(event.status).toBe(201);
  eventId = event.body.data.id;
  await sleep(400);
  await first.alarms.idle();
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await database?.close();
});

describe('several workers and restarts', () => {
  it('two app instances on the same database raise the same alarm once', async () => {
    const other = await startTelemetryTestApp({
      database: second ?? database,
      notifier: new RecordingNotifier(),
      alarms: PACE,
    });
    try {
      // Both evaluate the same violating value at the same time; neither knows of the other's alarm.
      const value = reading(300);
      first.alarms.onCommitted([value]);
      other.alarms.onCommitted([value]);
      await Promise.all([first.alarms.idle(), other.alarms.idle()]);
      const active = await activeAlarms(deviceId);
      expect(active).toHaveLength(1);
      expect(await rows(sql`SELECT id FROM alarm_timers WHERE alert_log_id = ${active[0]?.id}`)).toHaveLength(1);
      // Both now know it: the next violating value raises nothing, on either.
      first.alarms.onCommitted([reading(301)]);
      other.alarms.onCommitted([reading(302)]);
      await Promise.all([first.alarms.idle(), other.alarms.idle()]);
      expect(await activeAlarms(deviceId)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('a restart in the middle of the duration neither loses nor repeats the notification', async () => {
    const [alarm] = await activeAlarms(deviceId);
    await first.alarms.tick();
    expect(firstNotifier.requests).toHaveLength(0);
    // The first app stops before the duration is over; a new one starts on the same database.
    await first.close();
    const stopped = firstNotifier;
    const notifier = new RecordingNotifier();
    firstNotifier = notifier;
    first = await startTelemetryTestApp({ database: second ?? database, notifier, alarms: PACE });
    await sleep(2100);
    await Promise.all([first.alarms.tick(), first.alarms.tick()]);
    await first.alarms.tick();
    expect(notifier.requests.map((r) => r.dedupeKey)).toEqual([`event:${eventId}:log:${alarm?.id}:n:0`]);
    expect(stopped.requests).toHaveLength(0);
    const [event] = await rows<{ execution_count: number }>(
      sql`SELECT execution_count FROM alert_events WHERE id = ${eventId}`,
    );
    expect(event?.execution_count).toBe(1);
    // Without a reporting frequency the event's timer is done.
    expect(await rows(sql`SELECT id FROM alarm_timers WHERE alert_log_id = ${alarm?.id}`)).toEqual([]);
    client = new Client(first.app);
    await client.login();
    client.accountId = kadikoy;
  });

  it('a timer claimed by a worker that died is taken over once its claim runs out, with the same key', async () => {
    const [alarm] = await activeAlarms(deviceId);
    await rows(sql`
      INSERT INTO alarm_timers (account_id, alert_log_id, alert_event_id, due_at, sequence, claimed_until)
      VALUES (${kadikoy}, ${alarm?.id}, ${eventId}, now() - interval '1 second', 5, now() + interval '1 minute')`);
    const notifier = new RecordingNotifier();
    const other = await startTelemetryTestApp({ database: second ?? database, notifier, alarms: PACE });
    try {
      await other.alarms.tick();
      expect(notifier.requests).toHaveLength(0);
      await rows(
        sql`UPDATE alarm_timers SET claimed_until = now() - interval '1 second' WHERE alert_log_id = ${alarm?.id}`,
      );
      await other.alarms.tick();
      expect(notifier.requests.map((r) => r.dedupeKey)).toEqual([`event:${eventId}:log:${alarm?.id}:n:5`]);
    } finally {
      await other.close();
    }
  });
});

describe('node loss', () => {
  let publisher: MqttClient;
  let lostId: number;
  let neverId: number;
  const notifier = new RecordingNotifier();
  let app: TelemetryTestApp;

  beforeAll(async () => {
    app = await startTelemetryTestApp({ database: second ?? database, notifier, alarms: PACE });
    client = new Client(app.app);
    await client.login();
    client.accountId = kadikoy;
    publisher = await connectClient(app.broker, 'node-loss-publisher');
    const idOf = async (uid: string) =>
      Number((await rows<{ id: number }>(sql`SELECT id FROM devices WHERE uid = ${uid}`))[0]?.id);
    lostId = await idOf(ipUidOf(4));
    neverId = await idOf(ipUidOf(5));
    for (const id of [lostId, neverId]) {
      const settings = await client.create('device-node-loss-settings', {
        deviceId: id,
        alertLevel: 'medium',
        isActive: true,
        heartbeatThreshold: 1,
        heartbeatCycle: 1,
        isForever: true,
        alarmCount: 2,
        period: 60,
        notifyEmail: true,
        notifyPush: true,
      });
      expect(settings.status).toBe(201);
    }
    await publisher.publishAsync(`lampyr/${ipUidOf(4)}/up`, JSON.stringify({ values: { lamp: 1 } }), { qos: 1 });
    await eventually(
      async () => (await rows(sql`SELECT 1 FROM device_connection_status WHERE device_id = ${lostId}`)).length === 1,
    );
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await app?.close();
  });

  it('raises one node-loss alarm for a silent device at its level, and none for a device never seen', async () => {
    await app.alarms.tick();
    expect(await activeAlarms(lostId)).toHaveLength(0);
    await sleep(1200);
    await Promise.all([app.alarms.tick(), first.alarms.tick()]);
    const lost = await activeAlarms(lostId);
    expect(lost).toMatchObject([{ kind: 'nodeLoss', alert_level: 'medium' }]);
    expect(await activeAlarms(neverId)).toEqual([]);
    const members = await rows<{ email: string }>(sql`
      SELECT u.email FROM users u JOIN users_roles m ON m.user_id = u.id WHERE m.account_id = ${kadikoy} ORDER BY u.id`);
    const sent = [...notifier.requests, ...firstNotifier.requests].filter((r) => r.alertLogId === lost[0]?.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      dedupeKey: `nodeLoss:log:${lost[0]?.id}:n:0`,
      level: 'medium',
      channels: { email: members.map((m) => m.email), sms: [], push: true },
      vars: { template: 'Node loss' },
    });
    const summary = await client.call('GET', '/query/api/dashboard-summary');
    expect(summary.body.data.neverSeen).toBeGreaterThan(0);
  });

  it('repeats every heartbeat cycle up to the alarm count of the period', async () => {
    const [lost] = await activeAlarms(lostId);
    for (let i = 0; i < 3; i++) {
      await sleep(1100);
      await app.alarms.tick();
    }
    const keys = [...notifier.requests, ...firstNotifier.requests]
      .filter((r) => r.alertLogId === lost?.id)
      .map((r) => r.dedupeKey)
      .sort();
    // (Either worker may have sent either one: each went out once.)
    expect(keys).toEqual([`nodeLoss:log:${lost?.id}:n:0`, `nodeLoss:log:${lost?.id}:n:1`]);
  });

  it("clears on the device's next uplink (recovery) and stops its notifications", async () => {
    const [lost] = await activeAlarms(lostId);
    await publisher.publishAsync(`lampyr/${ipUidOf(4)}/up`, JSON.stringify({ values: { lamp: 1 } }), { qos: 1 });
    await eventually(async () => (await activeAlarms(lostId)).length === 0);
    const [row] = await rows<{ state: string; clear_reason: string }>(
      sql`SELECT state, clear_reason FROM alert_logs WHERE id = ${lost?.id}`,
    );
    expect(row).toEqual({ state: 'cleared', clear_reason: 'recovery' });
    expect(await rows(sql`SELECT id FROM alarm_timers WHERE alert_log_id = ${lost?.id}`)).toEqual([]);
  });
});
