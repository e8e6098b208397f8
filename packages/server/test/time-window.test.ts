/**
 * Readings and data logs grow without end: every list, search, aggregate and export over them
 * names a time range of at most 31 days on their time field (channel-read-values: dateTime,
 * data-logs: createdAt), or is refused with a 400 that names the field in en and tr.
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
  it('refuses a list, a search and an aggregate without a time range, naming the field in en and tr', async () => {
    const list = await api.list('channel-read-values', { filter: null, pageable: page(1, 10) });
    expect(list.status).toBe(400);
    expect(list.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'Date and time: a time range is required (from and to, at most 31 days apart).',
      fields: { dateTime: 'Date and time: a time range is required (from and to, at most 31 days apart).' },
    });
    // SPEC §7's sub-channel pairing search, as a client written from it alone sends it.
    const pairing = await api.search('channel-read-values', {
      filter: { deviceId, deviceChannelTemplateId: templateId },
      pageable: { page: 0, size: 100, sort: [] },
    });
    expect(pairing.status).toBe(400);
    const service = await api.search('channel-read-values', { filters: [], logic: 'AND', page: 0, size: 10 });
    expect(service.status).toBe(400);
    const aggregate = await api.call('POST', '/query/api/channel-read-values/aggregate', {
      filters: [{ field: 'deviceId', operator: 'eq', value: deviceId }],
      aggregations: [{ field: 'value', fn: 'count', as: 'n' }],
    });
    expect(aggregate.status).toBe(400);
    expect(aggregate.body.error?.fields).toHaveProperty('dateTime');
    api.language = 'tr';
    const turkish = await api.list('channel-read-values', { filter: null, pageable: page(1, 10) });
    api.language = undefined;
    expect(turkish.status).toBe(400);
    expect(turkish.body.error?.message).toBe(
      'Tarih ve saat: bir zaman aralığı gerekli (başlangıç ve bitiş, en fazla 31 gün arayla).',
    );
  });

  it('refuses a range open on one side, wider than 31 days, or loosened by OR', async () => {
    const openEnded = await api.list('channel-read-values', {
      filter: null,
      detailFilter: [{ field: 'dateTime', operator: 'gte', value: iso(now - DAY) }],
      pageable: page(1, 10),
    });
    expect(openEnded.status).toBe(400);
    const wide = await api.list('channel-read-values', {
      filter: null,
      detailFilter: [between('dateTime', iso(now - 45 * DAY), iso(now))],
      pageable: page(1, 10),
    });
    expect(wide.status).toBe(400);
    expect(wide.body.error?.message).toBe('Date and time: the time range may span at most 31 days.');
    const ored = await api.call('POST', '/query/api/channel-read-values/aggregate', {
      filters: [
        between('dateTime', lastDay[0] as string, lastDay[1] as string),
        { field: 'value', operator: 'gt', value: 0 },
      ],
      logic: 'OR',
      aggregations: [{ field: 'value', fn: 'count', as: 'n' }],
    });
    expect(ored.status).toBe(400);
    const wideAggregate = await api.call('POST', '/query/api/channel-read-values/aggregate', {
      filters: [
        { field: 'dateTime', operator: 'gte', value: iso(now - 60 * DAY) },
        { field: 'dateTime', operator: 'lte', value: iso(now) },
      ],
      aggregations: [{ field: 'value', fn: 'count', as: 'n' }],
    });
    expect(wideAggregate.status).toBe(400);
    const exported = await api.call('POST', '/query/api/channel-read-values/export', { filter: null, format: 'csv' });
    expect(exported.status).toBe(400);
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
  it('needs a range on createdAt; other resources need none', async () => {
    const without = await api.list('data-logs', { filter: null, pageable: page(1, 10) });
    expect(without.status).toBe(400);
    expect(without.body.error?.fields).toEqual({
      createdAt: 'Created at: a time range is required (from and to, at most 31 days apart).',
    });
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
