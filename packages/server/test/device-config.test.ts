import { CONFIG_FPORT, decodeConfigCommand } from '@lampyr/contract';
import { Fleet } from '@lampyr/simulator';
import { DEMO_APPLICATION_ID, devEuiOf, ipUidOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeOverrides, expireOverrides } from '../src/data/overrides.ts';
import { Client } from './support/test-app.ts';
import {
  connectClient,
  eventually,
  openStreamAs,
  type StreamReader,
  startTelemetryTestApp,
  type TelemetryTestApp,
} from './support/test-telemetry.ts';

let t: TelemetryTestApp;
let client: Client;
let fleet: Fleet;
let spy: MqttClient;
let stream: StreamReader;
let skewMs = 0;
/** Every command/down the server published, by DevEUI. */
const downlinks = new Map<string, Record<string, unknown>[]>();

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const idOf = async (where: ReturnType<typeof sql>) =>
  Number((await rows<{ id: number }>(sql`SELECT id FROM devices WHERE ${where}`))[0]?.id);
const deviceOf = (n: number) => idOf(sql`dev_eui = ${devEuiOf(n)}`);
const logRows = (ids: number[]) =>
  rows<{ id: number; device_id: number; status: string; resend_count: number; version: number | null }>(sql`
    SELECT id::int, device_id::int, status, resend_count, version, reported_version, response_result
    FROM deploy_response_logs WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[]) ORDER BY id`);
const deployRowCount = async () =>
  Number((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM deploy_response_logs`))[0]?.n);
const profileId = async () => Number((await rows<{ id: number }>(sql`SELECT id FROM task_profiles LIMIT 1`))[0]?.id);
const configAction = (body: unknown) => client.call('POST', '/command/api/devices/config-actions', body);

beforeAll(async () => {
  // Short waits keep the resend tests quick, but not so short that a controller answering on a busy
  // machine (CI runs PostgreSQL, Mosquitto and the tests on two cores) counts as silent.
  t = await startTelemetryTestApp({ downlinkTimeoutMs: 2000, configWaitMs: 2000 });
  client = new Client(t.app);
  await client.login();
  client.accountId = t.seeded.subAccountIds[0] as number;
  fleet = new Fleet({
    url: t.broker.url,
    username: t.broker.username,
    password: t.broker.password,
    lights: 12,
    ipDevices: 1,
    reportingPeriodMs: 3_600_000,
    silenceChance: 0,
    seed: 7,
    // The controllers' own clock, which a test moves forward.
    now: () => new Date(Date.now() + skewMs),
    scheduleCheckMs: 200,
  });
  await fleet.start();
  spy = await connectClient(t.broker, 'deploy-spy');
  spy.on('message', (topic, payload) => {
    const devEui = topic.split('/')[3] as string;
    downlinks.set(devEui, [...(downlinks.get(devEui) ?? []), JSON.parse(payload.toString())]);
  });
  await spy.subscribeAsync(`application/${DEMO_APPLICATION_ID}/device/+/command/down`, { qos: 1 });
  stream = await openStreamAs(t.baseUrl, client);
});

afterAll(async () => {
  stream?.close();
  await spy?.endAsync();
  await fleet?.stop();
  await t?.close();
});

describe('config deploy to controllers', () => {
  it('deploys a profile, and each controller confirms it with a config report showing the version', async () => {
    const ids = [await deviceOf(1), await deviceOf(11), await idOf(sql`uid = ${ipUidOf(1)}`)];
    const res = await configAction({ action: 'config-deploy', deviceIds: ids, profileId: await profileId() });
    expect(res.status).toBe(200);
    const results = res.body.data.results as { deviceId: number; logId: number; status: string; version: number }[];
    expect(results.map((r) => [r.deviceId, r.status, r.version])).toEqual(ids.map((id) => [id, 'pending', 1]));
    const logIds = results.map((r) => r.logId);
    const settled = await eventually(async () => {
      const now = await logRows(logIds);
      return now.every((r) => r.status === 'confirmed') && now;
    });
    expect(settled.map((r) => [r.resend_count, r.version])).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
    // The command went on the configuration port, and the controllers run the program they were sent.
    const sent = downlinks.get(devEuiOf(11))?.find((m) => m.fPort === CONFIG_FPORT) as { data: string };
    const command = decodeConfigCommand(Buffer.from(sent.data, 'base64'));
    expect(command?.op).toBe('deploy');
    for (const id of [devEuiOf(1), devEuiOf(11), ipUidOf(1)]) {
      const light = fleet.devices.get(id)?.light;
      expect(light?.controller.program.version).toBe(1);
      expect(light?.controller.program.steps).toEqual([
        { anchor: 'sunset', minutes: 0, level: 100 },
        { anchor: 'sunrise', minutes: 0, level: 0 },
        { anchor: 'fixed', minutes: 0, level: 50 },
      ]);
      expect(light?.level).toBe(light?.controller.scheduledLevel(new Date()));
    }
    // The program carries the device's place for the sun.
    const place = (
      await rows<{ latitude: number; longitude: number }>(
        sql`SELECT latitude, longitude FROM devices WHERE id = ${ids[1]}`,
      )
    )[0];
    expect(command?.op === 'deploy' && command.program.location?.lat).toBeCloseTo(place?.latitude as number, 4);
    // The console hears each row's progress live.
    await eventually(async () =>
      stream.events.some((e) => e.event === 'deploy' && e.data.id === logIds[0] && e.data.status === 'confirmed'),
    );
    // A second deploy gets the next version.
    const again = await configAction({ action: 'config-deploy', deviceIds: [ids[0]], profileId: await profileId() });
    expect(again.body.data.results[0].version).toBe(2);
    await eventually(async () => (await logRows([again.body.data.results[0].logId]))[0]?.status === 'confirmed');
    expect(fleet.devices.get(devEuiOf(1))?.light.controller.program.version).toBe(2);
  });

  it("reads a program's fixed times in the device's city zone (its country's when the city names none)", async () => {
    const id = await deviceOf(5);
    const [place] = await rows<{ account_id: number; city_id: number; country_id: number }>(sql`
      SELECT d.account_id::int, c.id::int AS city_id, c.country_id::int FROM devices d
      JOIN regions r ON r.id = d.region_id JOIN cities c ON c.id = r.city_id WHERE d.id = ${id}`);
    const offsetOf = async () => {
      const res = await configAction({ action: 'config-deploy', deviceIds: [id], profileId: await profileId() });
      expect(res.status).toBe(200);
      const logId = res.body.data.results[0].logId as number;
      const [row] = await rows<{ command: { program: { utcOffsetMinutes: number } } }>(
        sql`SELECT command FROM deploy_response_logs WHERE id = ${logId}`,
      );
      return row?.command.program.utcOffsetMinutes;
    };
    const [before] = await rows<{ c: string | null; k: string | null }>(sql`
      SELECT (SELECT time_zone FROM cities WHERE id = ${place?.city_id}) AS c,
             (SELECT time_zone FROM countries WHERE id = ${place?.country_id}) AS k`);
    try {
      // Kolkata keeps +5:30 all year; Tokyo +9:00.
      await t.database.db.execute(sql`UPDATE cities SET time_zone = 'Asia/Kolkata' WHERE id = ${place?.city_id}`);
      expect(await offsetOf()).toBe(330);
      await t.database.db.execute(sql`UPDATE cities SET time_zone = NULL WHERE id = ${place?.city_id}`);
      await t.database.db.execute(sql`UPDATE countries SET time_zone = 'Asia/Tokyo' WHERE id = ${place?.country_id}`);
      expect(await offsetOf()).toBe(540);
    } finally {
      await t.database.db.execute(sql`UPDATE cities SET time_zone = ${before?.c ?? null} WHERE id = ${place?.city_id}`);
      await t.database.db.execute(
        sql`UPDATE countries SET time_zone = ${before?.k ?? null} WHERE id = ${place?.country_id}`,
      );
    }
  });

  it('answers config request, clear data and reset config; each confirmed by the report answering it', async () => {
    const id = await deviceOf(2);
    fleet.devices
      .get(devEuiOf(2))
      ?.light.controller.apply(
        { op: 'deploy', program: { version: 9, utcOffsetMinutes: 0, weekdays: 127, steps: [] } },
        new Date(),
      );
    for (const action of ['config-request', 'clear-device-data', 'reset-device-config']) {
      const res = await configAction({ action, deviceIds: [id] });
      expect(res.status).toBe(200);
      const logId = res.body.data.results[0].logId;
      const [row] = await eventually(async () => {
        const r = await logRows([logId]);
        return r[0]?.status === 'confirmed' && r;
      });
      expect(row).toMatchObject({ status: 'confirmed', resend_count: 0 });
    }
    const light = fleet.devices.get(devEuiOf(2))?.light;
    expect(light?.energyKwh).toBeLessThan(1);
    expect(light?.controller.program.version).toBe(0);
  });

  it('resends to a device that never answers up to its ConnectionAttemptNumber, then times out', async () => {
    const silent = await deviceOf(150);
    await t.database.db.execute(sql`UPDATE devices SET connection_attempt_number = 3 WHERE id = ${silent}`);
    const res = await configAction({ action: 'config-request', deviceIds: [silent] });
    const logId = res.body.data.results[0].logId;
    const [row] = await eventually(async () => {
      const r = await logRows([logId]);
      return r[0]?.status === 'timeout' && r;
    }, 30_000);
    expect(row).toMatchObject({ status: 'timeout', resend_count: 2 });
    const sent = (downlinks.get(devEuiOf(150)) ?? []).filter((m) => m.fPort === CONFIG_FPORT);
    expect(sent).toHaveLength(3);
    // Each attempt is its own command id.
    expect(new Set(sent.map((m) => m.id)).size).toBe(3);
  });

  it('deploys a task group and sets its publication status from the progress', async () => {
    const [model] = await rows<{ id: number }>(
      sql`SELECT device_type_model_id::int AS id FROM devices WHERE dev_eui = ${devEuiOf(1)}`,
    );
    const account = client.accountId as number;
    const [group] = await rows<{ id: number }>(sql`
      INSERT INTO task_groups (account_id, name, device_type_model_id, publication_status)
      VALUES (${account}, 'SLC-L1 lights', ${model?.id}, 'unpublished') RETURNING id::int`);
    await t.database.db.execute(sql`
      INSERT INTO task_group_profiles (account_id, task_group_id, task_profile_id, mode, method, operation, hour, minute,
        start_day, end_day, priority, color)
      VALUES (${account}, ${group?.id}, ${await profileId()}, 'sun', 'sunset', 'on', 0, 0, 1, 31, 5, '#2e9e4f')`);
    const res = await client.call('POST', `/command/api/task-groups/${group?.id}/deploy`, {});
    expect(res.status).toBe(200);
    // SLC-L1 is the first ten lights, all in the simulated fleet.
    expect(res.body.data.results).toHaveLength(10);
    const status = async () =>
      (
        await rows<{ publication_status: string; message: string }>(
          sql`SELECT publication_status, message FROM task_groups WHERE id = ${group?.id}`,
        )
      )[0];
    const done = await eventually(async () => {
      const s = await status();
      return s?.publication_status === 'published' && s;
    }, 30_000);
    expect(done?.message).toBe('10/10');
  });

  it("deploys a group that lists its members (a street) to those members only, not its model's other lights", async () => {
    const account = client.accountId as number;
    const [model] = await rows<{ id: number }>(
      sql`SELECT device_type_model_id::int AS id FROM devices WHERE dev_eui = ${devEuiOf(2)}`,
    );
    const listed = [await deviceOf(2), await deviceOf(3)];
    const [group] = await rows<{ id: number }>(sql`
      INSERT INTO task_groups (account_id, name, device_type_model_id, publication_status)
      VALUES (${account}, 'Listed street', ${model?.id}, 'unpublished') RETURNING id::int`);
    for (const device of listed)
      await t.database.db.execute(sql`
        INSERT INTO task_group_members (account_id, task_group_id, device_id) VALUES (${account}, ${group?.id}, ${device})`);
    await t.database.db.execute(sql`
      INSERT INTO task_group_profiles (account_id, task_group_id, task_profile_id, mode, method, operation, hour, minute,
        start_day, end_day, priority, color)
      VALUES (${account}, ${group?.id}, ${await profileId()}, 'sun', 'sunset', 'on', 0, 0, 1, 31, 5, '#2e9e4f')`);
    const res = await client.call('POST', `/command/api/task-groups/${group?.id}/deploy`, {});
    expect(res.status).toBe(200);
    expect((res.body.data.results as { deviceId: number }[]).map((r) => r.deviceId).sort()).toEqual([...listed].sort());
  });
});

describe('config reports from the field', () => {
  it('logs a config report it cannot read, and it confirms nothing', async () => {
    const silent = await deviceOf(152);
    const res = await configAction({ action: 'config-request', deviceIds: [silent] });
    const logId = res.body.data.results[0].logId;
    await eventually(async () => (await logRows([logId]))[0]?.status === 'sent');
    // Three bytes on the configuration port, and a JSON report that is not one.
    spy.publish(
      `application/${DEMO_APPLICATION_ID}/device/${devEuiOf(152)}/event/up`,
      JSON.stringify({
        fCnt: 5,
        fPort: CONFIG_FPORT,
        data: Buffer.from([0x81, 0, 1]).toString('base64'),
        time: new Date().toISOString(),
      }),
      { qos: 1 },
    );
    spy.publish(`lampyr/${ipUidOf(1)}/up`, JSON.stringify({ config: { version: 'x' } }), { qos: 1 });
    const logged = await eventually(async () => {
      const r = await rows<{ device_uid: string }>(
        sql`SELECT device_uid FROM data_logs WHERE reason = 'bad_config_report'`,
      );
      return r.length === 2 && r;
    });
    expect(logged.map((l) => l.device_uid).sort()).toEqual([devEuiOf(152), ipUidOf(1)].sort());
    expect((await logRows([logId]))[0]?.status).not.toBe('confirmed');
  });
});

describe('state in the database', () => {
  it('sends a row no event announced (made before a restart, or by another replica) from its timer in the table', async () => {
    const id = await deviceOf(7);
    const account = client.accountId as number;
    const [row] = await rows<{ id: number }>(sql`
      INSERT INTO deploy_response_logs (account_id, device_id, dev_eui, status, operation, command, resend_count, created_at)
      VALUES (${account}, ${id}, ${devEuiOf(7)}, 'pending', 'config-request', '{}'::jsonb, 0, now() - interval '1 minute')
      RETURNING id::int`);
    const [done] = await eventually(async () => {
      const r = await logRows([row?.id as number]);
      return r[0]?.status === 'confirmed' && r;
    });
    expect(done).toMatchObject({ status: 'confirmed', resend_count: 0 });
  });
});

describe('refusals: all or nothing', () => {
  it("refuses another account's devices as unknown, and changes nothing there", async () => {
    const other = t.seeded.subAccountIds[1] as number;
    const [model] = await rows<{ id: number }>(
      sql`SELECT device_type_model_id::int AS id FROM devices WHERE dev_eui = ${devEuiOf(1)}`,
    );
    const [foreign] = await rows<{ id: number }>(sql`
      INSERT INTO devices (account_id, name, device_type_model_id, dev_eui, is_active)
      VALUES (${other}, 'FOREIGN-1', ${model?.id}, 'bb00000000000001', true) RETURNING id::int`);
    const before = await deployRowCount();
    const overridesBefore = Number((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM overrides`))[0]?.n);
    const res = await configAction({ action: 'reset-device-config', deviceIds: [foreign?.id] });
    expect(res.status).toBe(422);
    expect(res.raw).not.toContain('FOREIGN-1');
    const override = await client.call('POST', '/command/api/overrides', {
      target: { deviceIds: [foreign?.id] },
      level: 0,
      until: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'not mine',
    });
    expect(override.status).toBe(422);
    expect(await deployRowCount()).toBe(before);
    expect(Number((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM overrides`))[0]?.n)).toBe(
      overridesBefore,
    );
    expect((downlinks.get('bb00000000000001') ?? []).length).toBe(0);
    expect((await client.call('GET', `/query/api/devices/${foreign?.id}/active-overrides`)).status).toBe(404);
  });

  it('refuses devices whose model keeps no schedule with 422, sending nothing (en and tr)', async () => {
    const account = client.accountId as number;
    const [model] = await rows<{ id: number }>(sql`
      INSERT INTO device_models (model_name, device_type_id, device_type_protocol_id, support_task, parameter_group_code)
      SELECT 'Plain relay', device_type_id, device_type_protocol_id, false, 'RELAY' FROM device_models LIMIT 1 RETURNING id::int`);
    const [relay] = await rows<{ id: number }>(sql`
      INSERT INTO devices (account_id, name, device_type_model_id, dev_eui, is_active)
      VALUES (${account}, 'RELAY-1', ${model?.id}, 'aa00000000000001', true) RETURNING id::int`);
    const before = await deployRowCount();
    const res = await configAction({
      action: 'config-deploy',
      deviceIds: [await deviceOf(3), relay?.id],
      profileId: await profileId(),
    });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields?.deviceIds).toMatch(/RELAY-1.*does not keep a schedule.*Nothing was sent/);
    client.language = 'tr';
    const tr = await configAction({ action: 'config-request', deviceIds: [relay?.id] });
    client.language = undefined;
    expect(tr.status).toBe(422);
    expect(tr.body.error?.message).toMatch(/RELAY-1.*takvimini tutmuyor/);
    expect(await deployRowCount()).toBe(before);
  });

  it('refuses unknown or foreign devices, a deploy without a profile, a profile without timings and bad bodies', async () => {
    const before = await deployRowCount();
    const foreign = await configAction({ action: 'config-request', deviceIds: [await deviceOf(4), 99_999_999] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error?.fields?.deviceIds).toMatch(/99999999/);
    const noProfile = await configAction({ action: 'config-deploy', deviceIds: [await deviceOf(4)] });
    expect(noProfile.status).toBe(400);
    const account = client.accountId as number;
    const [empty] = await rows<{ id: number }>(sql`
      INSERT INTO task_profiles (account_id, name, task_type_id, operation, color, priority)
      SELECT ${account}, 'Empty', task_type_id, 'on', '#000000', 1 FROM task_profiles LIMIT 1 RETURNING id::int`);
    const noTimings = await configAction({
      action: 'config-deploy',
      deviceIds: [await deviceOf(4)],
      profileId: empty?.id,
    });
    expect(noTimings.status).toBe(422);
    expect(noTimings.body.error?.message).toMatch(/no on\/off timings/);
    for (const body of [
      { action: 'explode', deviceIds: [1] },
      { action: 'config-request', deviceIds: [] },
      { action: 'config-request', deviceIds: Array.from({ length: 501 }, (_, i) => i + 1) },
      { action: 'config-request', deviceIds: ['1; DROP TABLE devices'] },
      { action: 'config-request', deviceIds: [1], extra: true },
    ]) {
      const res = await configAction(body);
      expect(res.status).toBe(400);
      expect(res.raw).not.toMatch(/SELECT|stack/i);
    }
    expect(await deployRowCount()).toBe(before);
  });
});

describe('downlinks honour the device', () => {
  const templateOf = async (deviceId: number, code: string) =>
    Number(
      (
        await rows<{ id: number }>(sql`
          SELECT t.id FROM device_channel_templates t JOIN devices d ON d.device_type_model_id = t.device_type_model_id
          WHERE d.id = ${deviceId} AND t.channel_code = ${code}`)
      )[0]?.id,
    );

  it("sends channel writes on the device's port, confirmed or not as it says, and settles both", async () => {
    const id = await deviceOf(5);
    await t.database.db.execute(sql`UPDATE devices SET port_number = 12, confirmed = true WHERE id = ${id}`);
    t.ingest.directory.forget();
    const write = async (value: number) => {
      const created = await client.create('channel-write-values', {
        deviceId: id,
        deviceChannelTemplateId: await templateOf(id, 'dim'),
        value,
      });
      return eventually(async () => {
        const w = (await client.get('channel-write-values', created.body.data.id)).body.data;
        return w.status === 'acknowledged' && w;
      });
    };
    await write(30);
    const first = downlinks.get(devEuiOf(5))?.at(-1);
    expect(first).toMatchObject({ fPort: 12, confirmed: true });
    await t.database.db.execute(sql`UPDATE devices SET port_number = NULL, confirmed = false WHERE id = ${id}`);
    t.ingest.directory.forget();
    await write(40);
    expect(downlinks.get(devEuiOf(5))?.at(-1)).toMatchObject({ fPort: 10, confirmed: false });
    expect(fleet.devices.get(devEuiOf(5))?.light.dim).toBe(40);
  });

  it('resends a write that timed out up to the ConnectionAttemptNumber before it fails', async () => {
    const silent = await deviceOf(151);
    await t.database.db.execute(
      sql`UPDATE devices SET connection_attempt_number = 2, confirmed = true WHERE id = ${silent}`,
    );
    t.ingest.directory.forget();
    const created = await client.create('channel-write-values', {
      deviceId: silent,
      deviceChannelTemplateId: await templateOf(silent, 'dim'),
      value: 20,
    });
    const failed = await eventually(async () => {
      const w = (await client.get('channel-write-values', created.body.data.id)).body.data;
      return w.status === 'failed' && w;
    }, 30_000);
    expect(failed).toMatchObject({ message: 'timeout', attempts: 2 });
    expect(downlinks.get(devEuiOf(151))?.filter((m) => m.fPort === 10)).toHaveLength(2);
  });
});

describe('overrides with expiry', () => {
  const overrideCount = async () =>
    Number((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM overrides`))[0]?.n);
  const inMinutes = (minutes: number) => new Date(Math.ceil(Date.now() / 60_000) * 60_000 + minutes * 60_000);

  it('holds a controller (override command) and a server-timed light (write now) until the time, then both resume', async () => {
    const controller = await deviceOf(3);
    const ip = await idOf(sql`uid = ${ipUidOf(1)}`);
    // The IP model becomes a plain, server-timed light.
    await t.database.db.execute(sql`
      UPDATE device_models SET support_task = false WHERE id = (SELECT device_type_model_id FROM devices WHERE id = ${ip})`);
    const until = inMinutes(2);
    const res = await client.call('POST', '/command/api/overrides', {
      target: { deviceIds: [controller, ip] },
      level: 40,
      until: until.toISOString(),
      reason: 'Street festival',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ level: 40, deviceCount: 2 });
    expect(res.body.data.controllers.map((c: { deviceId: number }) => c.deviceId)).toEqual([controller]);
    expect(res.body.data.writes.map((w: { deviceId: number }) => w.deviceId)).toEqual([ip]);
    const logId = res.body.data.controllers[0].logId;
    await eventually(async () => (await logRows([logId]))[0]?.status === 'confirmed');
    const light = fleet.devices.get(devEuiOf(3))?.light;
    expect(light?.level).toBe(40);
    expect(light?.controller.override?.until.toISOString()).toBe(until.toISOString());
    await eventually(async () => fleet.devices.get(ipUidOf(1))?.light.level === 40);
    const write = (
      await rows<{ status: string; operation_source: string }>(sql`
      SELECT status, operation_source FROM channel_write_values WHERE id = ${res.body.data.writes[0].writeId}`)
    )[0];
    expect(write).toMatchObject({ status: 'acknowledged', operation_source: 'override' });
    // The scheduler's input for the server-timed light.
    expect((await activeOverrides(t.database.db, ip, new Date())).map((o) => o.level)).toEqual([40]);
    expect(await activeOverrides(t.database.db, ip, new Date(until.getTime() + 1000))).toEqual([]);
    // What device details shows: "Override 40 % until …".
    const shown = await client.call('GET', `/query/api/devices/${controller}/active-overrides`);
    expect(shown.body.data).toEqual([
      { id: res.body.data.id, level: 40, until: until.toISOString(), reason: 'Street festival' },
    ]);
    // Listed like any entity.
    const listed = await client.list('overrides', { filter: {}, pageable: { page: 1, size: 10 } });
    expect(listed.body.data.content[0]).toMatchObject({ reason: 'Street festival', status: 'active', level: 40 });

    // The controller's clock passes `until`: it drops the override by itself and runs its program again.
    skewMs = until.getTime() - Date.now() + 1000;
    await eventually(() => light?.controller.override === null);
    const after = new Date(Date.now() + skewMs);
    expect(light?.level).toBe(light?.controller.scheduledLevel(after));
    // The server's sweep marks it expired once its time has come.
    const expired = await expireOverrides(t.database.db, new Date(until.getTime() + 1000));
    expect(expired.map((e) => e.id)).toContain(res.body.data.id);
    skewMs = 0;
  });

  it('cancels an override: the controller gets cancel-override and resumes its program', async () => {
    const id = await deviceOf(4);
    const res = await client.call('POST', '/command/api/overrides', {
      target: { deviceIds: [id] },
      level: 0,
      until: inMinutes(30).toISOString(),
      reason: 'Maintenance',
    });
    await eventually(async () => (await logRows([res.body.data.controllers[0].logId]))[0]?.status === 'confirmed');
    const light = fleet.devices.get(devEuiOf(4))?.light;
    expect(light?.level).toBe(0);
    const cancelled = await client.call('DELETE', `/command/api/overrides/${res.body.data.id}`, {});
    expect(cancelled.status).toBe(200);
    await eventually(
      async () => (await logRows([cancelled.body.data.controllers[0].logId]))[0]?.status === 'confirmed',
    );
    expect(light?.controller.override).toBeNull();
    expect(light?.level).toBe(light?.controller.scheduledLevel(new Date()));
    expect(await activeOverrides(t.database.db, id, new Date())).toEqual([]);
    // A cancelled override cannot be cancelled again.
    expect((await client.call('DELETE', `/command/api/overrides/${res.body.data.id}`, {})).status).toBe(404);
  });

  it('refuses a past or far time, a bad level, an empty target and a street with no lights, storing nothing', async () => {
    const before = await overrideCount();
    const beforeRows = await deployRowCount();
    const id = await deviceOf(6);
    const base = { target: { deviceIds: [id] }, level: 50, until: inMinutes(10).toISOString(), reason: 'x' };
    const cases: [unknown, number, string?][] = [
      [{ ...base, until: new Date(Date.now() - 60_000).toISOString() }, 400, 'until'],
      [{ ...base, until: new Date(Date.now() + 31 * 86_400_000).toISOString() }, 400, 'until'],
      [{ ...base, until: 'tomorrow' }, 400],
      [{ ...base, level: 101 }, 400],
      [{ ...base, target: {} }, 400],
      [{ ...base, reason: '' }, 400],
      [{ ...base, target: { street: 'Nowhere Sokak' } }, 422],
      [{ ...base, target: { deviceIds: [99_999_999] } }, 422],
    ];
    for (const [body, status, field] of cases) {
      const res = await client.call('POST', '/command/api/overrides', body);
      expect(res.status).toBe(status);
      if (field) expect(res.body.error?.message).toContain(field);
    }
    client.language = 'tr';
    const tr = await client.call('POST', '/command/api/overrides', { ...base, target: { street: 'Nowhere Sokak' } });
    client.language = undefined;
    expect(tr.body.error?.message).toMatch(/etkin cihaz yok/);
    expect(await overrideCount()).toBe(before);
    expect(await deployRowCount()).toBe(beforeRows);
  });
});
