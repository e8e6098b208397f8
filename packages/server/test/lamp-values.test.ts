import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lampStates } from '../src/data/lamp-state.ts';
import type { Reading } from '../src/ingest/ingest-units.ts';
import { LatestWriter } from '../src/ingest/latest-writer.ts';
import { Client, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * device_lamp_values, kept by the database from channel_values (migration 0022): the ingest's
 * latest-value writer and direct statements keep it alike, a newer reading wins per code, an older
 * one changes nothing, and a template's new code or its deletion works the rows out again.
 */
let t: TestApp;
let operator: Client;
let account: number;
let modelId: number;
const channel: Record<'lamp' | 'dim' | 'power' | 'temperature', number> = { lamp: 0, dim: 0, power: 0, temperature: 0 };
let lightNumber = 0;

const exec = (query: ReturnType<typeof sql>) => t.database.db.execute(query);
const rows = async <T>(query: ReturnType<typeof sql>) => ((await exec(query)) as unknown as { rows: T[] }).rows;

/** Minutes after an evening in November. */
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 17, minutes));

interface LampRow {
  lamp: number | null;
  lamp_at: Date | null;
  dim: number | null;
  dim_at: Date | null;
  power: number | null;
  power_at: Date | null;
}

const lampRow = async (deviceId: number) =>
  (
    await rows<LampRow>(sql`
      SELECT lamp, lamp_at, dim, dim_at, power, power_at FROM device_lamp_values WHERE device_id = ${deviceId}`)
  ).map((r) => ({
    ...r,
    lamp_at: r.lamp_at && new Date(r.lamp_at),
    dim_at: r.dim_at && new Date(r.dim_at),
    power_at: r.power_at && new Date(r.power_at),
  }))[0];

async function light(): Promise<number> {
  lightNumber += 1;
  const [created] = await rows<{ id: number }>(sql`
    INSERT INTO devices (account_id, name, device_type_model_id, street)
    VALUES (${account}, ${`LAMP-VALUES-${lightNumber}`}, ${modelId}, 'Moda Caddesi') RETURNING id::int AS id`);
  return (created as { id: number }).id;
}

/** Readings through the ingest's latest-value writer, as one flush. */
async function ingest(deviceId: number, readings: [templateId: number, value: number, at: Date][]): Promise<void> {
  const errors: unknown[] = [];
  const writer = new LatestWriter(t.database.db, (error) => errors.push(error));
  writer.keep(
    readings.map(
      ([templateId, value, dateTime]): Reading => ({
        accountId: account,
        deviceId,
        templateId,
        subChannel: 0,
        channelCode: '',
        value,
        status: 'ok',
        dateTime,
        frameKey: `t:${dateTime.toISOString()}`,
      }),
    ),
    [],
  );
  await writer.pending;
  expect(errors).toEqual([]);
}

/** A channel of the model beside its own, made by the platform's operator like the lamp channel. */
async function extraChannel(name: string, channelCode: string): Promise<number> {
  const lamp = await operator.get('device-channel-templates', channel.lamp);
  const { id, createdAt, updatedAt, ...template } = lamp.body.data;
  const created = await operator.create('device-channel-templates', {
    ...template,
    name,
    channelCode,
    unit: '%',
    channelOrder: 90,
    mqttPackageOrder: 90,
  });
  expect(created.status, created.raw).toBe(201);
  return created.body.data.id;
}

async function recode(templateId: number, channelCode: string): Promise<void> {
  const read = await operator.get('device-channel-templates', templateId);
  const updated = await operator.update('device-channel-templates', { ...read.body.data, channelCode });
  expect(updated.status, updated.raw).toBe(200);
}

beforeAll(async () => {
  t = await startTestApp();
  operator = new Client(t.app);
  await operator.login();
  // Channel templates are shared reference data, written by the platform's operator in the integrator.
  operator.accountId = t.seeded.integratorId;
  account = t.seeded.subAccountIds[0] as number;
  const [model] = await rows<{ id: number }>(
    sql`SELECT id::int AS id FROM device_models WHERE model_name LIKE 'SLC-L2%'`,
  );
  modelId = (model as { id: number }).id;
  for (const row of await rows<{ id: number; code: keyof typeof channel }>(
    sql`SELECT id::int AS id, channel_code AS code FROM device_channel_templates
        WHERE device_type_model_id = ${modelId} AND channel_code IN ('lamp', 'dim', 'power', 'temperature')`,
  ))
    channel[row.code] = row.id;
  expect(Object.values(channel).every((id) => id > 0)).toBe(true);
});
afterAll(() => t.close());

describe('device_lamp_values', () => {
  it('holds a light’s first lamp, dim and power readings, which its lamp state shows', async () => {
    const id = await light();
    expect(await lampRow(id)).toBeUndefined();
    await ingest(id, [
      [channel.lamp, 1, at(0)],
      [channel.dim, 60, at(0)],
      [channel.power, 70, at(0)],
      [channel.temperature, 31, at(0)],
    ]);
    expect(await lampRow(id)).toEqual({
      lamp: 1,
      lamp_at: at(0),
      dim: 60,
      dim_at: at(0),
      power: 70,
      power_at: at(0),
    });
    const [state] = await lampStates(t.database.db, sql`devices.id = ${id}`);
    expect(state).toMatchObject({ deviceId: id, state: 'dimmed', lamp: 1, dim: 60, power: 70 });
  });

  it('takes a newer reading per code, each with its own time, and leaves the other codes', async () => {
    const id = await light();
    await ingest(id, [
      [channel.lamp, 1, at(0)],
      [channel.dim, 100, at(0)],
      [channel.power, 120, at(0)],
    ]);
    await ingest(id, [[channel.dim, 40, at(5)]]);
    await ingest(id, [
      [channel.lamp, 0, at(9)],
      [channel.power, 0, at(9)],
    ]);
    expect(await lampRow(id)).toEqual({ lamp: 0, lamp_at: at(9), dim: 40, dim_at: at(5), power: 0, power_at: at(9) });
    // A reading older than the stored one does not replace it: the writer keeps the latest value.
    await ingest(id, [[channel.lamp, 1, at(7)]]);
    expect(await lampRow(id)).toMatchObject({ lamp: 0, lamp_at: at(9) });
  });

  it('is never set back by an older reading written directly, inserted or updated', async () => {
    const spare = await extraChannel('Second lamp (older)', 'lamp');
    const id = await light();
    await ingest(id, [
      [channel.lamp, 1, at(20)],
      [channel.power, 90, at(20)],
    ]);
    // A second lamp channel whose reading is older than the first one's: a new row, not newer.
    await exec(sql`
      INSERT INTO channel_values (account_id, device_id, device_channel_template_id, value, date_time, status)
      VALUES (${account}, ${id}, ${spare}, 0, ${at(10).toISOString()}::timestamptz, 'ok')`);
    expect(await lampRow(id)).toMatchObject({ lamp: 1, lamp_at: at(20) });
    // An update that moves the power reading back in time, or rewrites the lamp's at its time.
    await exec(sql`
      UPDATE channel_values SET value = 10, date_time = ${at(15).toISOString()}::timestamptz
      WHERE device_id = ${id} AND device_channel_template_id = ${channel.power}`);
    expect(await lampRow(id)).toMatchObject({ power: 90, power_at: at(20) });
    await exec(sql`
      UPDATE channel_values SET value = 0 WHERE device_id = ${id} AND device_channel_template_id = ${channel.lamp}`);
    expect(await lampRow(id)).toMatchObject({ lamp: 0, lamp_at: at(20) });
    await exec(sql`DELETE FROM device_channel_templates WHERE id = ${spare}`);
  });

  it('takes the newest of a device’s channels with one code, not the largest value', async () => {
    const second = await extraChannel('Second lamp', 'lamp');
    const id = await light();
    // One statement, both channels: the newer reading (0) wins over the larger one (1).
    await ingest(id, [
      [channel.lamp, 1, at(30)],
      [second, 0, at(31)],
    ]);
    expect(await lampRow(id)).toMatchObject({ lamp: 0, lamp_at: at(31) });
    await ingest(id, [[channel.lamp, 1, at(32)]]);
    expect(await lampRow(id)).toMatchObject({ lamp: 1, lamp_at: at(32) });
    await exec(sql`DELETE FROM device_channel_templates WHERE id = ${second}`);
  });

  it('works a device’s row out again when a template’s code changes or the template is deleted', async () => {
    const spare = await extraChannel('Spare output', 'spare');
    const id = await light();
    await ingest(id, [
      [channel.lamp, 1, at(40)],
      [channel.dim, 80, at(40)],
      [spare, 30, at(45)],
    ]);
    expect(await lampRow(id)).toMatchObject({ lamp: 1, lamp_at: at(40), dim: 80, dim_at: at(40) });

    // The spare output becomes the dimmer: its newer reading is the dim level now.
    await recode(spare, 'dim');
    expect(await lampRow(id)).toMatchObject({ lamp: 1, lamp_at: at(40), dim: 30, dim_at: at(45) });
    expect((await lampStates(t.database.db, sql`devices.id = ${id}`))[0]).toMatchObject({ dim: 30, state: 'dimmed' });

    // Back to a code of no interest: the first dimmer's reading again.
    await recode(spare, 'spare');
    expect(await lampRow(id)).toMatchObject({ dim: 80, dim_at: at(40) });

    // Deleted while it is the dimmer (its latest values go with it, by the cascade).
    await recode(spare, 'dim');
    expect(await lampRow(id)).toMatchObject({ dim: 30 });
    const removed = await operator.remove('device-channel-templates', spare);
    expect(removed.status, removed.raw).toBe(200);
    expect(await lampRow(id)).toEqual({
      lamp: 1,
      lamp_at: at(40),
      dim: 80,
      dim_at: at(40),
      power: null,
      power_at: null,
    });
  });

  it('goes with its device', async () => {
    const id = await light();
    await ingest(id, [[channel.lamp, 1, at(50)]]);
    expect(await lampRow(id)).toMatchObject({ lamp: 1 });
    await exec(sql`DELETE FROM devices WHERE id = ${id}`);
    expect(await lampRow(id)).toBeUndefined();
  });

  it('agrees with the newest latest value per device and code for every device', async () => {
    const disagreeing = await rows<{ device_id: number }>(sql`
      WITH newest AS (
        SELECT DISTINCT ON (v.device_id, t.channel_code) v.device_id, t.channel_code AS code, v.value, v.date_time
        FROM channel_values v JOIN device_channel_templates t ON t.id = v.device_channel_template_id
        WHERE v.sub_channel = 0 AND t.channel_code IN ('lamp', 'dim', 'power')
        ORDER BY v.device_id, t.channel_code, v.date_time DESC, v.value DESC
      ), expected AS (
        SELECT device_id,
               min(value) FILTER (WHERE code = 'lamp') AS lamp, min(date_time) FILTER (WHERE code = 'lamp') AS lamp_at,
               min(value) FILTER (WHERE code = 'dim') AS dim, min(date_time) FILTER (WHERE code = 'dim') AS dim_at,
               min(value) FILTER (WHERE code = 'power') AS power, min(date_time) FILTER (WHERE code = 'power') AS power_at
        FROM newest GROUP BY device_id
      )
      SELECT coalesce(e.device_id, l.device_id)::int AS device_id
      FROM expected e FULL JOIN device_lamp_values l ON l.device_id = e.device_id
      WHERE (e.lamp, e.lamp_at, e.dim, e.dim_at, e.power, e.power_at)
            IS DISTINCT FROM (l.lamp, l.lamp_at, l.dim, l.dim_at, l.power, l.power_at)`);
    expect(disagreeing).toEqual([]);
  });

  it('keeps latest values a deadlocked flush could not write, and writes them on the next', async () => {
    const device = await light();
    // The first transaction fails as PostgreSQL fails one of two deadlocked ones; the rest go through.
    let failures = 0;
    const db = t.database.db;
    const deadlocking = new Proxy(db, {
      get(target, property) {
        if (property === 'transaction' && failures === 0)
          return async () => {
            failures++;
            throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
          };
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const errors: unknown[] = [];
    const writer = new LatestWriter(deadlocking, (error) => errors.push(error));
    writer.keep(
      [
        {
          accountId: account,
          deviceId: device,
          templateId: channel.power,
          subChannel: 0,
          channelCode: 'power',
          value: 88,
          status: 'ok',
          dateTime: at(30),
          frameKey: 'deadlock',
        },
      ],
      [],
    );
    while (writer.pending) await writer.pending;
    expect(failures).toBe(1);
    expect(errors).toHaveLength(1);
    expect(await lampRow(device)).toMatchObject({ power: 88, power_at: at(30) });
  });
});
