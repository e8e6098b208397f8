import { encodeUplink, Fleet, StreetLight } from '@lampyr/simulator';
import { DEMO_APPLICATION_ID, devEuiOf, ipUidOf, LAYOUTS } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationRequest, Notifier } from '../src/engines/notifications/notifier.ts';
import { fixture, freshFixture } from './support/fixtures.ts';
import { Client } from './support/test-app.ts';
import { connectClient, eventually, startTelemetryTestApp, type TelemetryTestApp } from './support/test-telemetry.ts';

/**
 * Lamp fault detection and gateway health end to end (issue 13): the simulator's street lights with
 * its faults report over MQTT (Lampyr JSON, each uplink stating its time so the rules' clocks are
 * exact), the fault engine settles, persists, latches an alarm with a fault report, and clears it.
 * The rules' times are scaled by 1/60 here: a minute of the rules is a second of the readings.
 */

class RecordingNotifier implements Notifier {
  requests: NotificationRequest[] = [];
  async notify(request: NotificationRequest) {
    this.requests.push(request);
  }
}

const SCALE = 1 / 60;
const S = 1000; // one second of readings = one minute of the rules
const notifier = new RecordingNotifier();
let t: TelemetryTestApp;
let client: Client;
let publisher: MqttClient;
let kadikoy: number;
const ids = new Map<string, number>();

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

interface AlarmRow {
  id: number;
  kind: string;
  state: string;
  is_active: boolean;
  date_time: Date | string;
  cleared_at: Date | string | null;
  clear_reason: string | null;
  value: number;
  alert_level: string;
  details: Record<string, unknown> | string | null;
  event_name: string;
  gateway_id: number | null;
}
const alarmsOf = (deviceId: number, kind: string) =>
  rows<AlarmRow>(
    sql`SELECT a.*, a.id::int AS id FROM alert_logs a WHERE a.device_id = ${deviceId} AND a.kind = ${kind} ORDER BY a.id`,
  );
const reportsOf = (deviceId: number, rule: string) =>
  rows<{
    id: number;
    source: string;
    rule_code: string;
    alert_log_id: number;
    status: string;
    fault_type: string;
    description: string;
  }>(
    sql`SELECT f.*, f.id::int AS id, f.alert_log_id::int AS alert_log_id FROM fault_reports f
        WHERE f.device_id = ${deviceId} AND f.rule_code = ${rule} ORDER BY f.id`,
  );
const timeOf = (v: Date | string) => new Date(v).getTime();
const historyOf = async (faultReportId: number) =>
  (
    await rows<{ action: string; work: string; performed_by: string; performed_at: Date | string }>(
      sql`SELECT action, work, performed_by, performed_at FROM maintenance_history WHERE fault_report_id = ${faultReportId} ORDER BY id`,
    )
  ).map(({ performed_at, ...h }) => ({ ...h, at: timeOf(performed_at) }));
const dataLogs = (reason: string) =>
  rows<{ device_uid: string; detail: string | null }>(
    sql`SELECT device_uid, detail FROM data_logs WHERE reason = ${reason} ORDER BY id`,
  );

/** One simulated IP street light, reporting with its own clock (`ts`) through MQTT. */
class Light {
  readonly light: StreetLight;
  at: number;
  constructor(
    readonly uid: string,
    start: number,
  ) {
    let seed = 7;
    this.light = new StreetLight(
      uid,
      LAYOUTS.l2,
      () => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      },
      start,
    );
    this.at = start;
  }
  get id() {
    return ids.get(this.uid) as number;
  }
  /** Reports `count` times, a second apart; resolves with the time of the first report. */
  async report(count: number): Promise<number> {
    const first = this.at + S;
    for (let i = 0; i < count; i++) {
      this.at += S;
      const values = this.light.read(this.at);
      await publisher.publishAsync(
        `lampyr/${this.uid}/up`,
        JSON.stringify({ ts: new Date(this.at).toISOString(), values }),
        { qos: 1 },
      );
    }
    return first;
  }
}

/** Waits until everything sent was stored and judged. */
async function settled(light: Light) {
  await eventually(async () => {
    const [row] = await rows<{ date_time: Date | string }>(
      sql`SELECT date_time FROM device_connection_status WHERE device_id = ${light.id}`,
    );
    return Boolean(row && timeOf(row.date_time) >= light.at);
  });
  await new Promise((r) => setTimeout(r, 150));
  await t.alarms.idle();
}

// The readings are dated three days back, where every rule's clock is the uplinks' own.
const base = Date.now() - 3 * 86_400_000;
const lights = [1, 2, 3, 4].map((n) => new Light(ipUidOf(n), base));
const [failing, burning, cycling, supply] = lights as [Light, Light, Light, Light];

beforeAll(async () => {
  t = await startTelemetryTestApp({
    notifier,
    alarms: { tickMs: 0, resyncMs: 0, faults: { timeScale: SCALE, commandRefreshMs: 0 } },
  });
  kadikoy = t.seeded.subAccountIds[0] as number;
  client = new Client(t.app);
  await client.login();
  client.accountId = kadikoy;
  publisher = await connectClient(t.broker, 'faults-publisher');
  for (const row of await rows<{ id: number; uid: string }>(
    sql`SELECT id::int AS id, uid FROM devices WHERE uid IS NOT NULL OR dev_eui IS NOT NULL`,
  ))
    ids.set(row.uid, row.id);
  // Nowhere: "by day" cannot be told for these lights (one test gives a light its place back).
  await rows(sql`UPDATE devices SET latitude = NULL, longitude = NULL, region_id = NULL
    WHERE uid IN (${sql.join(
      lights.map((l) => sql`${l.uid}`),
      sql`, `,
    )})`);
  // The demo's events stay out of the way; one account-wide event notifies about every alarm.
  await rows(sql`UPDATE alert_events SET status = 'inactive'`);
  const event = await client.create('alert-events', {
    eventName: 'Crew watch',
    isForever: true,
    priority: 1,
    notifyEmail: true,
    emailList: 'crew@example.com',
  });
  expect(event.status).toBe(201);
  await t.alarms.faults.devicesChanged();
}, 180_000);

afterAll(async () => {
  await publisher?.endAsync();
  await t?.close();
});

describe('lamp fault detection', () => {
  it('lamp failure: looks away while settling, latches after persistence, opens a fault report and clears', async () => {
    const l = failing;
    l.light.setLevel(0);
    await l.report(10);
    // Switched on, dark for four readings (a lamp running up), then burning: settling hides it.
    l.light.setLevel(100);
    l.light.faults.add('no_power');
    await l.report(4);
    l.light.faults.clear();
    await l.report(15);
    await settled(l);
    expect(await alarmsOf(l.id, 'lampFailure')).toEqual([]);
    // Off, then on with a dead lamp: settling 5 min, then 10 min of holding latch it.
    l.light.setLevel(0);
    await l.report(5);
    l.light.setLevel(100);
    l.light.faults.add('no_power');
    const on = await l.report(12);
    await settled(l);
    expect(await alarmsOf(l.id, 'lampFailure')).toEqual([]); // 12 min in: still settling + persisting
    await l.report(10);
    await settled(l);
    const [alarm] = await alarmsOf(l.id, 'lampFailure');
    expect(alarm).toMatchObject({ state: 'active', is_active: true, alert_level: 'high', value: 0 });
    // Latched by the first reading 5 + 10 minutes after switching on.
    expect(timeOf(alarm?.date_time as string)).toBe(on + 15 * S);
    const [report] = await reportsOf(l.id, 'lampFailure');
    expect(report).toMatchObject({
      source: 'detected',
      status: 'open',
      fault_type: 'lamp_failure',
      alert_log_id: alarm?.id,
    });
    expect(report?.description).toBe('Lamp failure: 0 W measured, 120 W expected at 100 %');
    // Its history starts like a person's report: reported (by Lampyr), with the finding.
    expect(await historyOf(report?.id as number)).toEqual([
      { action: 'reported', work: report?.description, performed_by: 'Lampyr', at: timeOf(alarm?.date_time as string) },
    ]);
    // Notifications follow through the account's alert event.
    await t.alarms.tick();
    expect(notifier.requests.some((r) => r.alertLogId === alarm?.id && r.vars.template === 'Lamp failure')).toBe(true);
    // Repaired: five minutes of burning clear the alarm; the report stays for the crew.
    l.light.faults.clear();
    // Burning again is a state change: 5 min settling, then 5 min without the fault.
    const repaired = await l.report(12);
    await settled(l);
    const [cleared] = await alarmsOf(l.id, 'lampFailure');
    expect(cleared).toMatchObject({ state: 'cleared', is_active: false, clear_reason: 'value' });
    // Both transitions are in the transaction log, by Lampyr (no user).
    expect(
      await rows(sql`SELECT action, user_id, before, after->>'kind' AS kind, after->>'clearReason' AS reason
        FROM transaction_logs WHERE resource = 'alert-logs' AND record_id = ${alarm?.id} ORDER BY id`),
    ).toEqual([
      { action: 'raise', user_id: null, before: null, kind: 'lampFailure', reason: null },
      { action: 'clear', user_id: null, before: { state: 'active' }, kind: null, reason: 'value' },
    ]);
    expect((await reportsOf(l.id, 'lampFailure'))[0]?.status).toBe('open');
    expect(await alarmsOf(l.id, 'powerMismatch')).toEqual([]);
    expect(repaired).toBeGreaterThan(on);
  });

  it('low power factor: a failing driver latches after 15 min while on, and clears', async () => {
    const l = failing;
    l.light.faults.add('low_power_factor');
    const from = await l.report(14);
    await settled(l);
    expect(await alarmsOf(l.id, 'lowPowerFactor')).toEqual([]);
    await l.report(4);
    await settled(l);
    const [alarm] = await alarmsOf(l.id, 'lowPowerFactor');
    expect(alarm).toMatchObject({ is_active: true, alert_level: 'low' });
    expect(alarm?.value).toBeCloseTo(0.5, 1);
    expect(timeOf(alarm?.date_time as string)).toBe(from + 15 * S);
    expect((await reportsOf(l.id, 'lowPowerFactor'))[0]).toMatchObject({ fault_type: 'low_power_factor' });
    l.light.faults.clear();
    await l.report(7);
    await settled(l);
    expect((await alarmsOf(l.id, 'lowPowerFactor'))[0]).toMatchObject({ is_active: false, clear_reason: 'value' });
  });

  it('day burning: a relay stuck closed burns while commanded off', async () => {
    const l = burning;
    await l.report(10);
    l.light.setLevel(0);
    l.light.faults.add('day_burning');
    const off = await l.report(18);
    await settled(l);
    expect(await alarmsOf(l.id, 'dayBurning')).toEqual([]);
    await l.report(5);
    await settled(l);
    const [alarm] = await alarmsOf(l.id, 'dayBurning');
    expect(alarm).toMatchObject({ is_active: true, alert_level: 'medium' });
    expect(timeOf(alarm?.date_time as string)).toBe(off + 20 * S);
    l.light.faults.clear();
    await l.report(12);
    await settled(l);
    expect((await alarmsOf(l.id, 'dayBurning'))[0]).toMatchObject({ is_active: false, clear_reason: 'value' });
    expect((await reportsOf(l.id, 'dayBurning'))[0]).toMatchObject({ status: 'open', fault_type: 'day_burning' });
  });

  it('cycling: three switch-offs within the hour while commanded on, cleared once they age out', async () => {
    const l = cycling;
    await l.report(10);
    l.light.faults.add('cycling');
    // Lit, out, lit, out, lit, out: the third going-out latches at once.
    const from = await l.report(6);
    await settled(l);
    const [alarm] = await alarmsOf(l.id, 'cycling');
    expect(alarm).toMatchObject({ is_active: true, value: 3 });
    expect(timeOf(alarm?.date_time as string)).toBe(from + 5 * S);
    expect(await alarmsOf(l.id, 'lampFailure')).toEqual([]);
    l.light.faults.clear();
    await l.report(40);
    await settled(l);
    expect((await alarmsOf(l.id, 'cycling'))[0]?.is_active).toBe(true);
    await l.report(30);
    await settled(l);
    expect((await alarmsOf(l.id, 'cycling'))[0]).toMatchObject({ is_active: false, clear_reason: 'value' });
  });

  it('power mismatch: a lamp drawing 60 % of its rated power latches after 15 min', async () => {
    const l = cycling;
    l.light.faults.add('wrong_power');
    const from = await l.report(22);
    await settled(l);
    const [alarm] = await alarmsOf(l.id, 'powerMismatch');
    expect(alarm).toMatchObject({ is_active: true });
    expect(alarm?.value).toBeGreaterThan(60);
    expect(alarm?.value).toBeLessThan(80);
    // Still lit and commanded the same: no settling, 15 min of persistence.
    expect(timeOf(alarm?.date_time as string)).toBe(from + 15 * S);
    l.light.faults.clear();
    await l.report(12);
    await settled(l);
    expect((await alarmsOf(l.id, 'powerMismatch'))[0]).toMatchObject({ is_active: false });
  });

  it('under- and over-voltage: ±15 % of 230 V for 10 min', async () => {
    const l = supply;
    await l.report(5);
    l.light.faults.add('under_voltage');
    const low = await l.report(12);
    await settled(l);
    const [under] = await alarmsOf(l.id, 'underVoltage');
    expect(under).toMatchObject({ is_active: true });
    expect(timeOf(under?.date_time as string)).toBe(low + 10 * S);
    expect(under?.value).toBeLessThan(195.5);
    l.light.faults.clear();
    l.light.faults.add('over_voltage');
    const high = await l.report(12);
    await settled(l);
    const [over] = await alarmsOf(l.id, 'overVoltage');
    expect(over).toMatchObject({ is_active: true, alert_level: 'high' });
    expect(timeOf(over?.date_time as string)).toBe(high + 10 * S);
    expect((await alarmsOf(l.id, 'underVoltage'))[0]).toMatchObject({ is_active: false, clear_reason: 'value' });
    l.light.faults.clear();
    await l.report(7);
    await settled(l);
    expect((await alarmsOf(l.id, 'overVoltage'))[0]).toMatchObject({ is_active: false });
    expect((await reportsOf(l.id, 'overVoltage'))[0]).toMatchObject({ fault_type: 'over_voltage' });
    expect((await reportsOf(l.id, 'underVoltage'))[0]).toMatchObject({ fault_type: 'under_voltage' });
  });

  it('an operator’s write is the commanded state: a lamp burning after "off" is day burning', async () => {
    const l = burning;
    const [lamp] = await rows<{ id: number }>(sql`
      SELECT c.id::int AS id FROM device_channel_templates c JOIN devices d ON d.device_type_model_id = c.device_type_model_id
      WHERE d.id = ${l.id} AND c.channel_code = 'lamp'`);
    const write = await client.create('channel-write-values', {
      deviceId: l.id,
      deviceChannelTemplateId: lamp?.id,
      value: 0,
    });
    expect(write.status).toBe(201);
    // The light ignores it (still on, as it reports) and keeps burning.
    l.at = Date.now();
    l.light.setLevel(100);
    await l.report(24);
    await settled(l);
    const list = await alarmsOf(l.id, 'dayBurning');
    expect(list).toHaveLength(2);
    expect(list[1]).toMatchObject({ is_active: true });
    // One open report per device and rule: the fault that came back is the one the crew has.
    expect(await reportsOf(l.id, 'dayBurning')).toHaveLength(1);
  });

  it('by day: a lamp burning in daylight at its place is day burning unless an operator asked for it', async () => {
    // Kadıköy, two days ago at 10:00 UTC (13:00 local): broad daylight.
    const day = new Date(Date.now() - 2 * 86_400_000);
    day.setUTCHours(10, 0, 0, 0);
    const l = new Light(ipUidOf(5), day.getTime());
    await l.report(25);
    await settled(l);
    const [alarm] = await alarmsOf(l.id, 'dayBurning');
    expect(alarm).toMatchObject({ is_active: true });
    // At night the same lamp burning is right: cleared.
    day.setUTCHours(21, 0, 0, 0);
    l.at = day.getTime();
    await l.report(8);
    await settled(l);
    expect((await alarmsOf(l.id, 'dayBurning'))[0]).toMatchObject({ is_active: false, clear_reason: 'value' });
  });

  it('an operator’s clear is respected, and a condition that persists latches again', async () => {
    const l = supply;
    l.light.faults.add('over_voltage');
    await l.report(12);
    await settled(l);
    const [, active] = await alarmsOf(l.id, 'overVoltage');
    expect(active?.is_active).toBe(true);
    const cleared = await client.call('POST', '/command/api/alarms/clear', {
      ids: [active?.id],
      comment: 'crew on site',
    });
    expect(cleared.status).toBe(200);
    await t.alarms.faults.resyncLatches();
    await l.report(12);
    await settled(l);
    const list = await alarmsOf(l.id, 'overVoltage');
    expect(list.map((a) => [a.is_active, a.clear_reason])).toEqual([
      [false, 'value'],
      [false, 'operator'],
      [true, null],
    ]);
    l.light.faults.clear();
    await l.report(7);
    await settled(l);
  });

  it('communication loss: a node-loss alarm opens a fault report', async () => {
    const l = supply;
    const setting = await client.create('device-node-loss-settings', {
      deviceId: l.id,
      alertLevel: 'high',
      isActive: true,
      heartbeatThreshold: 30,
    });
    expect(setting.status).toBe(201);
    // Its last uplink is three days old: lost.
    await t.alarms.tick();
    const [alarm] = await alarmsOf(l.id, 'nodeLoss');
    expect(alarm?.is_active).toBe(true);
    const [report] = await reportsOf(l.id, 'communicationLoss');
    expect(report).toMatchObject({ source: 'detected', fault_type: 'communication', alert_log_id: alarm?.id });
    expect((await historyOf(report?.id as number)).map((h) => [h.action, h.performed_by])).toEqual([
      ['reported', 'Lampyr'],
    ]);
    await t.alarms.tick();
    expect(await reportsOf(l.id, 'communicationLoss')).toHaveLength(1);
  });

  it('another account sees none of these alarms or reports', async () => {
    const other = t.seeded.subAccountIds[1] as number;
    client.accountId = other;
    const pageable = { pageable: { page: 1, size: 100 } };
    const alarms = await client.list('alert-logs', pageable);
    expect(alarms.status).toBe(200);
    const own = new Set(lights.map((l) => l.id));
    expect(alarms.body.data.content.some((a: { deviceId: number }) => own.has(a.deviceId))).toBe(false);
    const reports = await client.list('report-a-fault', pageable);
    expect(reports.body.data.content.some((r: { deviceId: number }) => own.has(r.deviceId))).toBe(false);
    // Another account's fault report cannot be read by id either.
    client.accountId = kadikoy;
    const mine = await client.list('report-a-fault', pageable);
    const detected = mine.body.data.content.find(
      (r: { source: string; ruleCode: string }) => r.source === 'detected' && r.ruleCode === 'lampFailure',
    );
    expect(detected).toBeDefined();
    client.accountId = other;
    expect((await client.get('report-a-fault', detected.id)).status).toBe(404);
    client.accountId = kadikoy;
  });
});

describe('gateway health', () => {
  const [g1, g2] = ['a840411b2c3d4e5f', 'a840411b2c3d4e60'];
  let fCnt = 50_000;
  const uplink = (n: number, gatewayIds: string[], at: number) => {
    const devEui = devEuiOf(n);
    return publisher.publishAsync(
      `application/${DEMO_APPLICATION_ID}/device/${devEui}/event/up`,
      JSON.stringify({
        time: new Date(at).toISOString(),
        deviceInfo: { devEui, applicationId: DEMO_APPLICATION_ID },
        fCnt: fCnt++,
        fPort: 10,
        data: encodeUplink(LAYOUTS.l2, {
          lamp: 1,
          dim: 100,
          power: 120,
          voltage: 230,
          current: 0.5,
          energy: 10,
          lux: 3,
          temperature: 20,
        }).toString('base64'),
        rxInfo: gatewayIds.map((gatewayId) => ({ gatewayId, rssi: -90, snr: 7 })),
      }),
      { qos: 1 },
    );
  };
  const gatewayAlarms = () =>
    rows<AlarmRow>(sql`SELECT a.*, a.id::int AS id, a.gateway_id::int AS gateway_id FROM alert_logs a
      WHERE a.kind = 'gatewayLoss' ORDER BY a.id`);
  let lone: number;
  let shared: number;

  it('a gateway silent past its threshold raises an alarm naming the luminaires heard only through it', async () => {
    // Lights of the SLC-L2 layout: one heard by g1 only, one by g1 and g2, one by g2 only.
    const l2 = await rows<{ n: number; id: number; name: string }>(sql`
      SELECT d.id::int AS id, d.name, d.dev_eui AS n FROM devices d
      WHERE d.dev_eui IS NOT NULL AND (SELECT count(*) FROM device_channel_templates c WHERE c.device_type_model_id = d.device_type_model_id) = 8
      ORDER BY d.id LIMIT 3`);
    expect(l2).toHaveLength(3);
    const n = (eui: unknown) => Number.parseInt(String(eui).slice(-4), 16);
    const twentyMinutesAgo = Date.now() - 20 * 60_000;
    lone = l2[0]?.id as number;
    shared = l2[1]?.id as number;
    await uplink(n(l2[0]?.n), [g1], twentyMinutesAgo);
    await uplink(n(l2[1]?.n), [g1, g2], twentyMinutesAgo);
    await uplink(n(l2[2]?.n), [g2], Date.now());
    await eventually(async () => {
      const [gw] = await rows<{ last_seen_at: Date | string | null }>(
        sql`SELECT last_seen_at FROM gateways WHERE lower(dev_eui) = ${g2}`,
      );
      const [seen] = await rows<{ gateway_euis: string[] | null }>(
        sql`SELECT gateway_euis FROM device_connection_status WHERE device_id = ${shared}`,
      );
      return Boolean(
        gw?.last_seen_at && timeOf(gw.last_seen_at) > Date.now() - 60_000 && seen?.gateway_euis?.length === 2,
      );
    });
    await t.alarms.tick();
    const list = await gatewayAlarms();
    // g1 (silent 20 min, past its 15) and nothing for g2 (heard now).
    const gws = await rows(sql`SELECT dev_eui, last_seen_at, stats_interval, status FROM gateways`);
    const cs = await rows(
      sql`SELECT device_id, date_time, gateway_eui, gateway_euis FROM device_connection_status WHERE gateway_eui IS NOT NULL`,
    );
    expect(list, JSON.stringify({ list, gws, cs, now: new Date() })).toHaveLength(1);
    const [alarm] = list;
    const [gateway] = await rows<{ id: number; name: string }>(
      sql`SELECT id::int AS id, name FROM gateways WHERE lower(dev_eui) = ${g1}`,
    );
    expect(alarm).toMatchObject({ gateway_id: gateway?.id, is_active: true, alert_level: 'high', value: 1 });
    const details = (typeof alarm?.details === 'string' ? JSON.parse(alarm.details) : alarm?.details) as {
      luminaires: { id: number; name: string }[];
      count: number;
    };
    expect(details.luminaires.map((d) => d.id)).toEqual([lone]);
    expect(alarm?.event_name).toContain(String(gateway?.name));
    expect(alarm?.event_name).toContain(String(l2[0]?.name));
    expect(alarm?.event_name).not.toContain(String(l2[1]?.name));
    // Ticking again raises nothing more.
    await t.alarms.tick();
    expect(await gatewayAlarms()).toHaveLength(1);
    expect(notifier.requests.some((r) => r.alertLogId === alarm?.id && r.vars.device === gateway?.name)).toBe(true);
  });

  it('clears when the gateway is heard again', async () => {
    const [device] = await rows<{ n: string }>(sql`SELECT dev_eui AS n FROM devices WHERE id = ${lone}`);
    await uplink(Number.parseInt(String(device?.n).slice(-4), 16), [g1], Date.now());
    await eventually(async () => {
      const [gw] = await rows<{ last_seen_at: Date | string }>(
        sql`SELECT last_seen_at FROM gateways WHERE lower(dev_eui) = ${g1}`,
      );
      return Boolean(gw?.last_seen_at && timeOf(gw.last_seen_at) > Date.now() - 60_000);
    });
    await t.alarms.tick();
    const [alarm] = await gatewayAlarms();
    expect(alarm).toMatchObject({ is_active: false, clear_reason: 'recovery' });
  });

  // The third gateway forwards no luminaire's frame in these tests: only its own stats say it lives.
  const g3 = 'a840411b2c3d4e61';
  interface GatewayRow {
    id: number;
    status: string;
    last_seen_at: Date | string | null;
    stats_at: Date | string | null;
    rx_packets_received: number | null;
    rx_packets_received_ok: number | null;
    tx_packets_received: number | null;
    tx_packets_emitted: number | null;
  }
  const gatewayRow = async (eui: string) =>
    (await rows<GatewayRow>(sql`SELECT *, id::int AS id FROM gateways WHERE lower(dev_eui) = ${eui}`))[0] as GatewayRow;
  /** The JSON fixture, dated `at`, with its counters changed. */
  const jsonStats = (at: number, counters: Record<string, number> = {}) =>
    JSON.stringify({ ...freshFixture('gateway-stats.json', new Date(at)), ...counters });
  /** The protobuf fixture with its Timestamp's seconds (a five-byte varint after `12 06 08`) set to `at`. */
  const protoStats = (at: number) => {
    const bytes = Buffer.from(fixture('gateway-stats.pb'));
    const start = bytes.indexOf(Buffer.from([0x12, 0x06, 0x08])) + 3;
    let seconds = Math.floor(at / 1000);
    for (let i = 0; i < 5; i++) {
      bytes[start + i] = (seconds % 128) | (i < 4 ? 0x80 : 0);
      seconds = Math.floor(seconds / 128);
    }
    return bytes;
  };
  const statsTopic = (eui: string, prefix = 'eu868/') => `${prefix}gateway/${eui}/event/stats`;
  const g3Alarms = async () => {
    const { id } = await gatewayRow(g3);
    return (await gatewayAlarms()).filter((a) => a.gateway_id === id);
  };

  it('a gateway sending stats is seen and keeps its counters, with no luminaire heard through it', async () => {
    expect((await gatewayRow(g3)).last_seen_at).toBeNull();
    const at = Date.now() - 5_000;
    await publisher.publishAsync(statsTopic(g3), jsonStats(at), { qos: 1 });
    await eventually(async () => (await gatewayRow(g3)).stats_at !== null);
    expect(await gatewayRow(g3)).toMatchObject({
      status: 'online',
      rx_packets_received: 42,
      rx_packets_received_ok: 39,
      tx_packets_received: 5,
      tx_packets_emitted: 4,
    });
    const row = await gatewayRow(g3);
    expect(timeOf(row.last_seen_at as string)).toBe(at);
    expect(timeOf(row.stats_at as string)).toBe(at);
    await t.alarms.tick();
    expect(await g3Alarms()).toEqual([]);
    // The gateway details show them (the catalogue's read-only fields).
    const record = (await client.get('gateway', row.id)).body.data;
    expect(record).toMatchObject({ rxPacketsReceived: 42, txPacketsEmitted: 4, status: 'online' });
    expect(timeOf(record.statsAt)).toBe(at);

    // The same in Protocol Buffers, on a topic without a region prefix; a later interval's counters win.
    const later = at + 2_000;
    await publisher.publishAsync(statsTopic(g3, ''), protoStats(later), { qos: 1 });
    await eventually(async () => timeOf((await gatewayRow(g3)).stats_at as string) === Math.floor(later / 1000) * 1000);
    // Stats older than those kept move nothing back.
    await publisher.publishAsync(statsTopic(g3), jsonStats(at - 60_000, { rxPacketsReceived: 1 }), { qos: 1 });
    await publisher.publishAsync(
      statsTopic('ffffffffffffffff'),
      jsonStats(at, { gatewayId: undefined as unknown as number }),
      { qos: 1 },
    );
    await eventually(async () => (await dataLogs('unknown_gateway')).length > 0);
    expect(await gatewayRow(g3)).toMatchObject({ rx_packets_received: 42 });
    expect(timeOf((await gatewayRow(g3)).last_seen_at as string)).toBe(Math.floor(later / 1000) * 1000);
  });

  it('refuses stats it cannot read or that name another gateway, into the data log', async () => {
    const before = (await gatewayRow(g3)).stats_at;
    await publisher.publishAsync(statsTopic(g3), JSON.stringify({ gatewayId: g1, rxPacketsReceived: 1 }), { qos: 1 });
    await publisher.publishAsync(statsTopic(g3), JSON.stringify({ rxPacketsReceived: 'many' }), { qos: 1 });
    await publisher.publishAsync(statsTopic(g3), Buffer.from([0x0b, 0x0c]), { qos: 1 });
    await eventually(async () => (await dataLogs('bad_gateway_stats')).length === 3);
    const logs = await dataLogs('bad_gateway_stats');
    expect(logs.map((l) => l.device_uid)).toEqual([g3, g3, g3]);
    expect(logs.map((l) => l.detail)).toEqual([`gatewayId: ${g1}`, 'rxPacketsReceived', null]);
    expect((await gatewayRow(g3)).stats_at).toEqual(before);
  });

  it('a gateway whose stats stop is lost past its threshold, and found with its next stats', async () => {
    // Its last stats twenty minutes ago: silent past three stats intervals and the quarter hour.
    await rows(sql`UPDATE gateways SET last_seen_at = now() - interval '20 minutes' WHERE lower(dev_eui) = ${g3}`);
    await t.alarms.tick();
    const [lost] = await g3Alarms();
    expect(lost).toMatchObject({ is_active: true, alert_level: 'medium', value: 0 });
    await publisher.publishAsync(statsTopic(g3), jsonStats(Date.now()), { qos: 1 });
    await eventually(async () => timeOf((await gatewayRow(g3)).last_seen_at as string) > Date.now() - 60_000);
    await t.alarms.tick();
    expect(await g3Alarms()).toEqual([expect.objectContaining({ is_active: false, clear_reason: 'recovery' })]);
  });

  it('the simulator’s gateways publish their stats, those that are down do not', async () => {
    await rows(sql`UPDATE gateways SET stats_at = NULL WHERE lower(dev_eui) IN (${g1}, ${g2}, ${g3})`);
    const fleet = new Fleet({
      url: t.broker.url,
      username: t.broker.username,
      password: t.broker.password,
      lights: 0,
      ipDevices: 0,
      reportingPeriodMs: 3_600_000,
      gatewayStatsMs: 200,
      gatewaysDown: [g2],
      seed: 3,
    });
    await fleet.start();
    try {
      await eventually(
        async () => (await gatewayRow(g1)).stats_at !== null && (await gatewayRow(g3)).stats_at !== null,
      );
      const first = timeOf((await gatewayRow(g1)).stats_at as string);
      await eventually(async () => timeOf((await gatewayRow(g1)).stats_at as string) > first);
      expect((await gatewayRow(g2)).stats_at).toBeNull();
      expect((await gatewayRow(g1)).status).toBe('online');
    } finally {
      await fleet.stop();
    }
  });
});
