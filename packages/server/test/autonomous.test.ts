import { Fleet } from '@lampyr/simulator';
import { devEuiOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autonomousWindowEnd } from '../src/engines/autonomous/autonomous-engine.ts';
import { Client } from './support/test-app.ts';
import { eventually, startTelemetryTestApp, type TelemetryTestApp } from './support/test-telemetry.ts';

let t: TelemetryTestApp;
let client: Client;
let fleet: Fleet;

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const deviceOf = async (n: number) =>
  Number((await rows<{ id: number }>(sql`SELECT id FROM devices WHERE dev_eui = ${devEuiOf(n)}`))[0]?.id);
const overridesOf = (profileId: number) =>
  rows<{ id: number; status: string; level: number; device_ids: number[] }>(sql`
    SELECT id::int, status, level, device_ids FROM overrides WHERE autonomous_profile_id = ${profileId} ORDER BY id`);
const lightOf = (n: number) => fleet.devices.get(devEuiOf(n))?.light;

/** Lights 11 on carry a photocell (layout l2). Where the sun is high now: the photocells of this test's lights see daylight whatever the hour here. */
const sunnyPlace = () => {
  const now = new Date();
  const hours = now.getUTCHours() + now.getUTCMinutes() / 60;
  return { lat: 0, lon: (((12 - hours) * 15 + 540) % 360) - 180 };
};

beforeAll(async () => {
  t = await startTelemetryTestApp({ configWaitMs: 5_000 });
  client = new Client(t.app);
  await client.login();
  client.accountId = t.seeded.subAccountIds[0] as number;
  fleet = new Fleet({
    url: t.broker.url,
    username: t.broker.username,
    password: t.broker.password,
    lights: 14,
    ipDevices: 0,
    reportingPeriodMs: 700,
    silenceChance: 0,
    seed: 11,
    scheduleCheckMs: 200,
  });
  await fleet.start();
  // The poles stand where the sun is high: a program deployed meanwhile (its own place) does not
  // change the sky the photocells see.
  const place = sunnyPlace();
  for (const device of fleet.devices.values()) device.light.pole = place;
});

afterAll(async () => {
  await fleet?.stop();
  await t?.close();
});

describe('autonomous window', () => {
  const zone = 'Europe/Istanbul';
  it('opens and ends in the local time of the light, past midnight when the end comes first', () => {
    // 20:00 in Istanbul (UTC+3) on a Monday.
    const at = new Date('2026-11-23T17:00:00Z');
    expect(autonomousWindowEnd({ start: 18 * 60, end: 22 * 60, weekday: null }, at, zone)?.toISOString()).toBe(
      '2026-11-23T19:00:00.000Z',
    );
    expect(autonomousWindowEnd({ start: 8 * 60, end: 18 * 60, weekday: null }, at, zone)).toBeUndefined();
    // 18:00–06:00 wraps: it ends at 06:00 the next morning, and 02:00 belongs to the window opened the day before.
    expect(autonomousWindowEnd({ start: 18 * 60, end: 6 * 60, weekday: null }, at, zone)?.toISOString()).toBe(
      '2026-11-24T03:00:00.000Z',
    );
    const night = new Date('2026-11-23T23:00:00Z');
    expect(autonomousWindowEnd({ start: 18 * 60, end: 6 * 60, weekday: 1 }, night, zone)?.toISOString()).toBe(
      '2026-11-24T03:00:00.000Z',
    );
    // The weekday is the day the window opened on: Tuesday's does not hold Monday night.
    expect(autonomousWindowEnd({ start: 18 * 60, end: 6 * 60, weekday: 2 }, night, zone)).toBeUndefined();
    // 00:00–00:00 is the whole day.
    expect(autonomousWindowEnd({ start: 0, end: 0, weekday: null }, at, zone)?.toISOString()).toBe(
      '2026-11-23T21:00:00.000Z',
    );
  });
});

describe('autonomous profiles with the simulator', () => {
  it('switches on a light whose photocell reads dark (a storm by day) after the delay, and releases it when the sky clears', async () => {
    const [type] = await rows<{ id: number }>(sql`
      SELECT m.device_type_id::int AS id FROM devices d JOIN device_models m ON m.id = d.device_type_model_id
      WHERE d.dev_eui = ${devEuiOf(12)}`);
    const created = await client.create('autonomous', {
      name: 'Storm lighting',
      startTime: '00:00:00',
      endTime: '00:00:00',
      delayTime: 2,
      condition: 'lt',
      threshold: 50,
      sensorControl: true,
      deviceTypeId: type?.id,
      period: 30,
    });
    expect(created.status).toBe(201);
    const profileId = created.body.data.id as number;
    const stormy = await deviceOf(12);
    // Daylight everywhere: nothing switches.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await overridesOf(profileId)).toEqual([]);

    expect(fleet.injectFault(devEuiOf(12), 'dark_sky')).toBe(true);
    const made = await eventually(async () => {
      const list = await overridesOf(profileId);
      return list.length > 0 && list;
    }, 20_000);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ status: 'active', level: 100 });
    expect(made[0]?.device_ids.map(Number)).toEqual([stormy]);
    // The controller got the override command and burns at full level by day; its neighbours do not.
    await eventually(() => lightOf(12)?.level === 100, 20_000);
    expect(lightOf(13)?.level).toBe(lightOf(13)?.controller.scheduledLevel(new Date()));
    // Still dark: the same switch holds, none is made twice.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await overridesOf(profileId)).toHaveLength(1);

    // The storm passes: after the delay the switch is cancelled and the program resumes.
    fleet.injectFault(devEuiOf(12), undefined);
    await eventually(async () => (await overridesOf(profileId))[0]?.status === 'cancelled', 20_000);
    await eventually(() => lightOf(12)?.controller.override === null, 20_000);
    expect(lightOf(12)?.level).toBe(lightOf(12)?.controller.scheduledLevel(new Date()));
    const [cancel] = await rows<{ operation: string }>(sql`
      SELECT operation FROM deploy_response_logs WHERE device_id = ${stormy} ORDER BY id DESC LIMIT 1`);
    expect(cancel?.operation).toBe('cancel-override');
  });

  it('does nothing outside its window or with sensor control off', async () => {
    const now = new Date();
    // A window that closed an hour ago (local), and one that is open but not sensor-controlled.
    const hhmm = (d: Date) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Istanbul',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      }).format(d);
    const closed = await client.create('autonomous', {
      name: 'Closed window',
      startTime: `${hhmm(new Date(now.getTime() - 3 * 3_600_000))}:00`,
      endTime: `${hhmm(new Date(now.getTime() - 3_600_000))}:00`,
      delayTime: 0,
      condition: 'lt',
      threshold: 50,
      sensorControl: true,
    });
    const manual = await client.create('autonomous', {
      name: 'Sensor off',
      startTime: '00:00:00',
      endTime: '00:00:00',
      delayTime: 0,
      condition: 'lt',
      threshold: 50,
      sensorControl: false,
    });
    expect([closed.status, manual.status]).toEqual([201, 201]);
    fleet.injectFault(devEuiOf(14), 'dark_sky');
    try {
      await new Promise((r) => setTimeout(r, 4_000));
      expect(await overridesOf(closed.body.data.id)).toEqual([]);
      expect(await overridesOf(manual.body.data.id)).toEqual([]);
    } finally {
      fleet.injectFault(devEuiOf(14), undefined);
    }
  });
});
