/**
 * Readings and data logs grow without end: every list, search, aggregate and export over them
 * covers at most 31 days of their time field (channel-read-values: dateTime, data-logs: createdAt):
 * a wider range is refused with a 400 that names the field in en and tr, and a side left open is
 * closed 31 days from the other (from now, with none).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, page, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let api: Client;
let deviceId: number;
let templateId: number;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const lastDay = [iso(now - DAY), iso(now + HOUR)];

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  api.accountId = t.seeded.subAccountIds[0];
  const rows = (
    (await t.database.db.execute(sql`
      SELECT d.id AS device, c.id AS template FROM devices d
      JOIN device_channel_templates c ON c.device_type_model_id = d.device_type_model_id
      WHERE d.account_id = ${api.accountId} ORDER BY d.id, c.id LIMIT 1`)) as unknown as {
      rows: { device: number; template: number }[];
    }
  ).rows;
  deviceId = Number(rows[0]?.device);
  templateId = Number(rows[0]?.template);
  // Two readings an hour ago and one 40 days ago.
  for (const at of [now - HOUR, now - HOUR + 1000, now - 40 * DAY]) {
    await t.database.db.execute(sql`SELECT lampyr_ensure_reading_partition(${iso(at)}::timestamptz)`);
    await t.database.db.execute(sql`
      INSERT INTO channel_read_values (account_id, device_id, device_channel_template_id, value, date_time, status, frame_key)
      VALUES (${api.accountId}, ${deviceId}, ${templateId}, 42, ${iso(at)}::timestamptz, 'ok', ${`t:${at}`})`);
  }
});
afterAll(async () => {
  await t?.close();
});

const between = (field: string, from: string, to: string) => ({ field, operator: 'between', value: [from, to] });

describe('channel-read-values', () => {
  it('closes a range left open at 31 days, so a call naming no time answers the last 31 days only', async () => {
    const list = await api.list('channel-read-values', { filter: { deviceId }, pageable: page(1, 10) });
    expect(list.status).toBe(200);
    // The reading 40 days old is outside the window; the two of an hour ago are in it.
    expect(list.body.data.totalElements).toBe(2);
    // SPEC §7's sub-channel pairing search, as a client written from it alone sends it.
    const pairing = await api.search('channel-read-values', {
      filter: { deviceId, deviceChannelTemplateId: templateId },
      pageable: { page: 0, size: 100, sort: [] },
    });
    expect(pairing.status).toBe(200);
    expect(pairing.body.data.totalElements).toBe(2);
    // The same search under SPEC §7's own path, `channel-read-values1/search`, answers the same.
    const spelled = await api.search('channel-read-values1', {
      filter: { deviceId, deviceChannelTemplateId: templateId },
      pageable: { page: 0, size: 100, sort: [] },
    });
    expect(spelled.status).toBe(200);
    expect(spelled.body.data).toEqual(pairing.body.data);
    const service = await api.search('channel-read-values', {
      filters: [{ field: 'deviceId', operator: 'eq', value: deviceId }],
      logic: 'AND',
      page: 0,
      size: 10,
    });
    expect(service.body.data.totalElements).toBe(2);
    const aggregate = await api.call('POST', '/query/api/channel-read-values/aggregate', {
      filters: [{ field: 'deviceId', operator: 'eq', value: deviceId }],
      aggregations: [{ field: 'value', fn: 'count', as: 'n' }],
    });
    expect(aggregate.body.data.rows[0].n).toBe(2);
    // Open on one side: the other is closed 31 days away — from 50 days back reaches the old one only.
    const fromOld = await api.list('channel-read-values', {
      filter: { deviceId },
      detailFilter: [{ field: 'dateTime', operator: 'gte', value: iso(now - 50 * DAY) }],
      pageable: page(1, 10),
    });
    expect(fromOld.body.data.totalElements).toBe(1);
    // OR loosens nothing: the window still holds, so the old reading stays out.
    const ored = await api.call('POST', '/query/api/channel-read-values/aggregate', {
      filters: [
        { field: 'deviceId', operator: 'eq', value: deviceId },
        { field: 'value', operator: 'gt', value: 0 },
      ],
      logic: 'OR',
      aggregations: [{ field: 'value', fn: 'count', as: 'n' }],
    });
    expect(ored.body.data.rows[0].n).toBe(2);
  });

  it("guards the pairing search under SPEC §7's path like every other search", async () => {
    const body = {
      filter: { deviceId, deviceChannelTemplateId: templateId },
      pageable: { page: 0, size: 100, sort: [] },
    };
    // No token: refused, nothing of the readings in the answer.
    const anonymous = new Client(t.app);
    const refused = await anonymous.search('channel-read-values1', body);
    expect(refused.status).toBe(401);
    expect(refused.raw).not.toContain('"totalElements"');
    // Acting in the other district: its scope holds, the first district's readings stay out.
    const other = new Client(t.app);
    await other.login();
    other.accountId = t.seeded.subAccountIds[1];
    const elsewhere = await other.search('channel-read-values1', body);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.data.totalElements).toBe(0);
  });

  it('refuses a range wider than 31 days, naming the field in en and tr', async () => {
    const wide = await api.list('channel-read-values', {
      filter: null,
      detailFilter: [between('dateTime', iso(now - 45 * DAY), iso(now))],
      pageable: page(1, 10),
    });
    expect(wide.status).toBe(400);
    expect(wide.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'Date and time: the time range may span at most 31 days.',
      fields: { dateTime: 'Date and time: the time range may span at most 31 days.' },
    });
    const wideAggregate = await api.call('POST', '/query/api/channel-read-values/aggregate', {
      filters: [
        { field: 'dateTime', operator: 'gte', value: iso(now - 60 * DAY) },
        { field: 'dateTime', operator: 'lte', value: iso(now) },
      ],
      aggregations: [{ field: 'value', fn: 'count', as: 'n' }],
    });
    expect(wideAggregate.status).toBe(400);
    const exported = await api.call('POST', '/query/api/channel-read-values/export', {
      filter: null,
      detailFilter: [between('dateTime', iso(now - 45 * DAY), iso(now))],
      format: 'csv',
    });
    expect(exported.status).toBe(400);
    api.language = 'tr';
    const turkish = await api.list('channel-read-values', {
      filter: null,
      detailFilter: [between('dateTime', iso(now - 45 * DAY), iso(now))],
      pageable: page(1, 10),
    });
    api.language = undefined;
    expect(turkish.status).toBe(400);
    expect(turkish.body.error?.fields).toHaveProperty('dateTime');
  });

  it('answers over a range of at most 31 days, with only the readings inside it', async () => {
    const list = await api.list('channel-read-values', {
      filter: { deviceId },
      detailFilter: [between('dateTime', lastDay[0] as string, lastDay[1] as string)],
      pageable: page(1, 10),
    });
    expect(list.status).toBe(200);
    expect(list.body.data.totalElements).toBe(2);
    // Two sides from two conditions, and exactly 31 days, are accepted too.
    const month = await api.search('channel-read-values', {
      filters: [
        { field: 'deviceId', operator: 'eq', value: deviceId },
        { field: 'dateTime', operator: 'gt', value: iso(now - 31 * DAY) },
        { field: 'dateTime', operator: 'lte', value: iso(now) },
      ],
      logic: 'AND',
      page: 0,
      size: 10,
    });
    expect(month.status).toBe(200);
    expect(month.body.data.totalElements).toBe(2);
    // The console's chart call: averages per bucket over a range.
    const chart = await api.call('POST', '/query/api/channel-read-values/aggregate', {
      filters: [
        { field: 'deviceId', operator: 'eq', value: deviceId },
        between('dateTime', iso(now - 15 * DAY), iso(now)),
      ],
      aggregations: [{ field: 'value', fn: 'count', as: 'n' }],
      groupBy: [{ field: 'dateTime', interval: '1d' }],
    });
    expect(chart.status).toBe(200);
    expect(chart.body.data.rows.reduce((sum: number, r: { n: number }) => sum + r.n, 0)).toBe(2);
  });
});

describe('data-logs', () => {
  it('are bounded on createdAt like readings; other resources are not', async () => {
    const wide = await api.list('data-logs', {
      filter: null,
      detailFilter: [between('createdAt', iso(now - 45 * DAY), iso(now))],
      pageable: page(1, 10),
    });
    expect(wide.status).toBe(400);
    expect(wide.body.error?.fields).toEqual({ createdAt: 'Created at: the time range may span at most 31 days.' });
    const within = await api.list('data-logs', {
      filter: null,
      detailFilter: [between('createdAt', lastDay[0] as string, lastDay[1] as string)],
      pageable: page(1, 10),
    });
    expect(within.status).toBe(200);
    const devices = await api.list('devices', { filter: null, pageable: page(1, 10) });
    expect(devices.status).toBe(200);
    expect(devices.body.data.totalElements).toBeGreaterThan(0);
  });
});
