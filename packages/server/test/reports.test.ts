import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTimeZone } from '../src/data/time-zones.ts';
import { ReportScheduler } from '../src/engines/reports/report-scheduler.ts';
import { alwaysLeader } from '../src/engines/scheduler/leadership.ts';
import { duePeriod } from '../src/reports/report-templates.ts';
import { Client, startTestApp, type TestApp } from './support/test-app.ts';
import { eventually } from './support/test-telemetry.ts';

/**
 * The alarm and device-asset reports against cases computed by hand, the range checks, the one
 * export module (PDF text read back with pdf.js, XLSX read back with exceljs, CSV), report templates
 * and their tenant isolation, and a scheduled template mailed once per period through a real SMTP
 * server with the report attached.
 *
 * Alarms in the test region, 2026-03-01 … 2026-03-07 (the account's calendar is Istanbul's, UTC+3,
 * and no alarm below is near its midnight):
 *   one   high   raised 03-02 10:00, acknowledged 10:10, cleared 10:40
 *   one   high   raised 03-02 12:00, acknowledged 12:30, still active
 *   two   low    raised 03-03 08:00, never acknowledged, cleared 09:00
 *   two   medium raised 03-05 00:00, active
 *   (and one high of the other account's device, which must never count)
 * So high: 2 raised, MTTA (10 + 30) / 2 = 20 min, MTTC 40 min; low: MTTA none, MTTC 60 min;
 * all: 4 raised, 2 active, 2 acknowledged (MTTA 20), 2 cleared (MTTC (40 + 60) / 2 = 50).
 */
let t: TestApp;
let api: Client;
let accountId: number;
let otherAccountId: number;
let regionId: number;
let one: number;
let two: number;
let foreign: number;
const FROM = '2026-03-01';
const TO = '2026-03-07';

const exec = (query: ReturnType<typeof sql>) => t.database.db.execute(query);
const rows = async <T>(query: ReturnType<typeof sql>) => ((await exec(query)) as unknown as { rows: T[] }).rows;

async function device(name: string, account: number, created: string): Promise<number> {
  const found = await rows<{ id: number }>(sql`
    INSERT INTO devices (account_id, name, device_type_model_id, region_id, street, status, is_active, created_at)
    SELECT ${account}, ${name}, m.id, ${regionId}, 'Rapor Sokak', 'installed', true, ${created}::timestamptz
    FROM device_models m WHERE m.model_name LIKE 'SLC-L2%' LIMIT 1 RETURNING id::int`);
  return (found[0] as { id: number }).id;
}

let alarmCount = 0;
async function alarm(
  deviceId: number,
  level: string,
  raised: string,
  acknowledged: string | null,
  cleared: string | null,
) {
  await exec(sql`
    INSERT INTO alert_logs (account_id, alert_level, date_time, device_id, region_id, is_active, state, kind,
                            acknowledged_at, cleared_at)
    SELECT d.account_id, ${level}, ${raised}::timestamptz, d.id, d.region_id, ${cleared === null},
           ${cleared ? 'cleared' : acknowledged ? 'acknowledged' : 'active'}, ${`report-test-${alarmCount++}`},
           ${acknowledged}::timestamptz, ${cleared}::timestamptz
    FROM devices d WHERE d.id = ${deviceId}`);
}

/** A file answer: status, headers and the bytes (the JSON client would decode them as text). */
async function download(url: string, body: unknown, language = 'en', account = accountId) {
  const response = await t.app.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${api.token}`,
      'x-account-id': String(account),
      'accept-language': language,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload, text: response.body };
}

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= pdf.numPages; p++) {
    const content = await (await pdf.getPage(p)).getTextContent();
    parts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await pdf.destroy();
  // Wrapped labels come out as pieces: compare with single spaces.
  return parts.join('\n').replace(/\s+/g, ' ');
}

// A real SMTP server: the scheduled report's mail arrives here.
const mails: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  hideSTARTTLS: true,
  authOptional: true,
  logger: false,
  onData(stream, session, callback) {
    let raw = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      raw += chunk;
    });
    stream.on('end', () => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      callback();
    });
  },
});
let smtpPort: number;

beforeAll(async () => {
  smtpPort = await new Promise<number>((resolve) =>
    smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)),
  );
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  [accountId, otherAccountId] = t.seeded.subAccountIds as [number, number];
  api.accountId = accountId;
  const city = (
    await rows<{ id: number; state_id: number; country_id: number }>(
      sql`SELECT id::int, state_id::int, country_id::int FROM cities LIMIT 1`,
    )
  )[0] as { id: number; state_id: number; country_id: number };
  const region = await api.create('regions', {
    name: 'Rapor bölgesi',
    cityId: city.id,
    stateId: city.state_id,
    countryId: city.country_id,
  });
  expect(region.status, region.raw).toBe(201);
  regionId = region.body.data.id;
  one = await device('Report lamp one', accountId, '2025-09-01T00:00:00Z');
  two = await device('Report lamp two', accountId, '2022-03-01T00:00:00Z');
  foreign = await device('Report lamp foreign', otherAccountId, '2025-09-01T00:00:00Z');
  await alarm(one, 'high', '2026-03-02T10:00:00Z', '2026-03-02T10:10:00Z', '2026-03-02T10:40:00Z');
  await alarm(one, 'high', '2026-03-02T12:00:00Z', '2026-03-02T12:30:00Z', null);
  await alarm(two, 'low', '2026-03-03T08:00:00Z', null, '2026-03-03T09:00:00Z');
  await alarm(two, 'medium', '2026-03-05T00:00:00Z', null, null);
  await alarm(foreign, 'high', '2026-03-02T10:00:00Z', '2026-03-02T10:01:00Z', '2026-03-02T10:02:00Z');
  // Outside the period: never counted.
  await alarm(one, 'high', '2026-03-08T00:00:00Z', null, null);
  // Health as ChirpStack reported it, and one fault report in the period.
  await exec(sql`
    INSERT INTO device_connection_status (account_id, device_id, status, date_time, battery_level, external_power, link_margin)
    VALUES (${accountId}, ${one}, 'online', now(), 80, false, 10), (${accountId}, ${two}, 'offline', now(), 10, true, 20)
    ON CONFLICT (device_id) DO UPDATE SET status = excluded.status, battery_level = excluded.battery_level,
      external_power = excluded.external_power, link_margin = excluded.link_margin`);
  await exec(sql`
    INSERT INTO fault_reports (account_id, device_id, fault_type, reported_at, status)
    VALUES (${accountId}, ${one}, 'lamp', '2026-03-04T09:00:00Z', 'open'),
           (${accountId}, ${one}, 'lamp', '2026-02-01T09:00:00Z', 'closed')`);
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const alarms = (body: Record<string, unknown>) =>
  api.call('POST', '/query/api/reports/alarms', { from: FROM, to: TO, regionId, ...body });

describe('the alarm report', () => {
  it('counts and times alarms by level as computed by hand', async () => {
    const res = await alarms({ groupBy: 'level' });
    expect(res.status, res.raw).toBe(200);
    const report = res.body.data;
    expect(report.rows.map((r: { key: string }) => r.key)).toEqual(['high', 'medium', 'low']);
    const [high, medium, low] = report.rows;
    expect(high).toMatchObject({ raised: 2, active: 1, acknowledged: 2, cleared: 1 });
    expect(high.mttaMinutes).toBeCloseTo(20, 9);
    expect(high.mttcMinutes).toBeCloseTo(40, 9);
    expect(medium).toMatchObject({
      raised: 1,
      active: 1,
      acknowledged: 0,
      cleared: 0,
      mttaMinutes: null,
      mttcMinutes: null,
    });
    expect(low).toMatchObject({ raised: 1, active: 0, acknowledged: 0, cleared: 1, mttaMinutes: null });
    expect(low.mttcMinutes).toBeCloseTo(60, 9);
    expect(report.totals).toMatchObject({ raised: 4, active: 2, acknowledged: 2, cleared: 2 });
    expect(report.totals.mttaMinutes).toBeCloseTo(20, 9);
    expect(report.totals.mttcMinutes).toBeCloseTo(50, 9);
    expect(report.totalRows).toBe(3);
    // Every day of the period is on the chart, with the alarms of each level.
    expect(report.bucket).toBe('day');
    expect(report.series).toHaveLength(7);
    expect(report.series[1]).toEqual({ bucket: '2026-03-02', low: 0, medium: 0, high: 2, other: 0 });
    expect(report.series[2]).toEqual({ bucket: '2026-03-03', low: 1, medium: 0, high: 0, other: 0 });
    expect(report.series[4]).toEqual({ bucket: '2026-03-05', low: 0, medium: 1, high: 0, other: 0 });
  });

  it('groups by device with names, filters by level and device, pages', async () => {
    const byDevice = await alarms({ groupBy: 'device' });
    expect(byDevice.body.data.rows.map((r: { label: string; raised: number }) => [r.label, r.raised])).toEqual([
      ['Report lamp one', 2],
      ['Report lamp two', 2],
    ]);
    const high = await alarms({ groupBy: 'day', level: 'high' });
    expect(high.body.data.totals.raised).toBe(2);
    expect(high.body.data.rows).toEqual([expect.objectContaining({ key: '2026-03-02', raised: 2 })]);
    const deviceTwo = await alarms({ groupBy: 'level', deviceId: two });
    expect(deviceTwo.body.data.totals.raised).toBe(2);
    const paged = await alarms({ groupBy: 'device', size: 1, page: 1 });
    expect(paged.body.data.totalRows).toBe(2);
    expect(paged.body.data.rows.map((r: { label: string }) => r.label)).toEqual(['Report lamp two']);
  });

  it("never counts another account's alarms", async () => {
    // Asked for by the other account's device id, from this account: nothing.
    const res = await alarms({ groupBy: 'level', deviceId: foreign });
    expect(res.status).toBe(200);
    expect(res.body.data.totals.raised).toBe(0);
    expect(res.body.data.rows).toEqual([]);
  });
});

describe('the device-asset report', () => {
  const assets = (body: Record<string, unknown>) =>
    api.call('POST', '/query/api/reports/assets', { from: FROM, to: TO, regionId, ...body });

  it('gives the inventory with online share, faults, alarms and health by model', async () => {
    const res = await assets({ groupBy: 'model' });
    expect(res.status, res.raw).toBe(200);
    const [row] = res.body.data.rows;
    expect(res.body.data.rows).toHaveLength(1);
    expect(row.label).toMatch(/^SLC-L2/);
    expect(row).toMatchObject({ devices: 2, online: 1, faults: 1, alarms: 4, lowBattery: 1, externalPower: 1 });
    expect(row.onlinePct).toBeCloseTo(50, 9);
    expect(row.batteryAvg).toBeCloseTo(45, 9);
    expect(row.linkMarginAvg).toBeCloseTo(15, 9);
    expect(res.body.data.totals.devices).toBe(2);
  });

  it('groups by age band, status and region', async () => {
    const age = await assets({ groupBy: 'age' });
    // Registered 2025-09 (under a year before now, 2026-11 at the latest) would be lt1 or 1to3 by
    // the clock; the 2022 one is 3 to 5 years old until 2027-03.
    const keys = age.body.data.rows.map((r: { key: string }) => r.key);
    expect(keys).toHaveLength(2);
    expect(keys).toContain('3to5');
    const status = await assets({ groupBy: 'status' });
    expect(status.body.data.rows).toEqual([expect.objectContaining({ key: 'installed', devices: 2 })]);
    const region = await assets({ groupBy: 'region' });
    expect(region.body.data.rows).toEqual([expect.objectContaining({ label: 'Rapor bölgesi', devices: 2 })]);
  });
});

describe('report periods', () => {
  it('refuses a too long, a backwards and a future period in the caller’s language', async () => {
    const long = await alarms({ from: '2025-01-01', to: '2026-03-01' });
    expect(long.status).toBe(400);
    expect(long.body.error?.message).toMatch(/at most 366 days/);
    api.language = 'tr';
    try {
      const longTr = await api.call('POST', '/query/api/reports/assets', { from: '2025-01-01', to: '2026-03-01' });
      expect(longTr.status).toBe(400);
      expect(longTr.body.error?.message).toMatch(/en fazla 366 günü kapsar/);
      const backwards = await api.call('POST', '/query/api/reports/energy', { from: '2026-03-05', to: '2026-03-01' });
      expect(backwards.status).toBe(400);
      expect(backwards.body.error?.message).toMatch(/önce bitiyor/);
      const future = await api.call('POST', '/query/api/reports/alarms', { from: '2099-01-01', to: '2099-01-02' });
      expect(future.status).toBe(400);
      expect(future.body.error?.message).toMatch(/henüz veri yok/);
    } finally {
      api.language = undefined;
    }
    const unknown = await alarms({ groupBy: 'colour' });
    expect(unknown.status).toBe(400);
    expect(unknown.raw).not.toMatch(/select|stack/i);
  });
});

describe('exports', () => {
  const request = { from: FROM, to: TO, regionId, groupBy: 'device' };

  it('writes a PDF with the title, translated column labels, names and figures', async () => {
    const en = await download('/query/api/reports/alarms/export', { format: 'pdf', request });
    expect(en.status, en.text).toBe(200);
    expect(en.headers['content-type']).toBe('application/pdf');
    expect(en.headers['content-disposition']).toMatch(
      /attachment; filename="alarms-report-2026-03-01_2026-03-07\.pdf"/,
    );
    expect(en.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(en.bytes);
    expect(text).toContain('Alarm report');
    expect(text).toContain('Period: 2026-03-01 – 2026-03-07');
    expect(text).toContain('Mean time to acknowledge (min)');
    expect(text).toContain('Report lamp one');
    expect(text).toContain('Total');
    // The chart's legend and its axis.
    expect(text).toContain('Alarms raised by level');
    expect(text).toContain('High');

    const tr = await download(
      '/query/api/reports/alarms/export',
      { format: 'pdf', request: { ...request, groupBy: 'level' } },
      'tr',
    );
    const trText = await pdfText(tr.bytes);
    expect(trText).toContain('Alarm raporu');
    expect(trText).toContain('Ortalama onaylama süresi (dk)');
    expect(trText).toContain('Yüksek');
    expect(trText).toContain('Toplam');
  });

  it('writes an XLSX that reads back with labels and numbers, and a CSV', async () => {
    const xlsx = await download('/query/api/reports/alarms/export', {
      format: 'xlsx',
      request,
      columns: ['raised', 'mttaMinutes'],
    });
    expect(xlsx.status, xlsx.text).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getRow(1).getCell(1).value).toBe('Alarm report');
    expect(sheet.getRow(4).values).toEqual([undefined, 'Device', 'Raised', 'Mean time to acknowledge (min)']);
    expect(sheet.getRow(5).values).toEqual([undefined, 'Report lamp one', 2, 20]);
    expect(sheet.getRow(6).values).toEqual([undefined, 'Report lamp two', 2]);
    expect(sheet.getRow(7).values).toEqual([undefined, 'Total', 4, 20]);
    expect(workbook.worksheets[1]?.getRow(1).values).toEqual([undefined, '', 'High', 'Medium', 'Low', 'Other']);

    const csv = await download(
      '/query/api/reports/assets/export',
      { format: 'csv', request: { from: FROM, to: TO, regionId, groupBy: 'model' } },
      'tr',
    );
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]?.split(',').slice(0, 4)).toEqual(['Model', 'Cihaz', 'Çevrim içi', 'Çevrim içi (%)']);
    expect(lines[1]).toMatch(/^SLC-L2[^,]*,2,1,50,1,4,45,1,1,15,/);
    expect(lines[2]).toMatch(/^Toplam,2,1,50,/);
  });

  it('exports the energy report too, and refuses an unknown column or kind', async () => {
    const energy = await download('/query/api/reports/energy/export', {
      format: 'pdf',
      request: { from: FROM, to: TO, groupBy: 'region' },
    });
    expect(energy.status, energy.text).toBe(200);
    const text = await pdfText(energy.bytes);
    expect(text).toContain('Energy and savings report');
    expect(text).toContain('Baseline (kWh)');
    const column = await download('/query/api/reports/alarms/export', { format: 'csv', request, columns: ['secret'] });
    expect(column.status).toBe(400);
    expect(JSON.parse(column.text).error.message).toContain('secret');
    const kind = await download('/query/api/reports/users/export', { format: 'csv', request });
    expect(kind.status).toBe(400);
  });
});

describe('report templates', () => {
  const template = {
    name: 'Weekly alarms',
    kind: 'alarms',
    filters: { groupBy: 'device', regionId },
    columns: ['raised', 'mttaMinutes', 'mttcMinutes'],
    format: 'pdf',
    schedule: 'none',
  };

  it('saves, lists, reruns, changes and deletes a template, within its account only', async () => {
    const created = await api.create('report-templates', template);
    expect(created.status, created.raw).toBe(201);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({ name: 'Weekly alarms', kind: 'alarms', lastPeriod: null });
    const list = await api.call('GET', '/query/api/report-templates');
    expect(list.body.data.map((r: { id: number }) => r.id)).toContain(id);

    const rerun = await download(`/query/api/report-templates/${id}/export`, { from: FROM, to: TO, format: 'xlsx' });
    expect(rerun.status, rerun.text).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(rerun.bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.getRow(4).values).toEqual([
      undefined,
      'Device',
      'Raised',
      'Mean time to acknowledge (min)',
      'Mean time to clear (min)',
    ]);

    // Another account's user (or this admin acting in the other account) cannot see, run, change or delete it.
    const other = new Client(t.app);
    other.token = api.token;
    other.accountId = otherAccountId;
    expect((await other.call('GET', `/query/api/report-templates/${id}`)).status).toBe(404);
    expect(
      (await other.call('GET', '/query/api/report-templates')).body.data.map((r: { id: number }) => r.id),
    ).not.toContain(id);
    expect(
      (await download(`/query/api/report-templates/${id}/export`, { from: FROM, to: TO }, 'en', otherAccountId)).status,
    ).toBe(404);
    expect((await other.call('PUT', `/command/api/report-templates/${id}`, template)).status).toBe(404);
    expect((await other.call('DELETE', `/command/api/report-templates/${id}`, {})).status).toBe(404);
    expect((await api.call('GET', `/query/api/report-templates/${id}`)).status).toBe(200);

    const changed = await api.call('PUT', `/command/api/report-templates/${id}`, {
      ...template,
      name: 'Alarms by device',
    });
    expect(changed.status, changed.raw).toBe(200);
    expect(changed.body.data.name).toBe('Alarms by device');
    expect((await api.call('DELETE', `/command/api/report-templates/${id}`, {})).status).toBe(200);
    expect((await api.call('GET', `/query/api/report-templates/${id}`)).status).toBe(404);
  });

  it('refuses a bad filter, an unknown column and a schedule without recipients', async () => {
    const filter = await api.create('report-templates', { ...template, name: 'bad', filters: { groupBy: 'colour' } });
    expect(filter.status).toBe(400);
    const column = await api.create('report-templates', { ...template, name: 'bad', columns: ['nope'] });
    expect(column.status).toBe(400);
    api.language = 'tr';
    const recipients = await api.create('report-templates', { ...template, name: 'bad', schedule: 'weekly' });
    api.language = undefined;
    expect(recipients.status).toBe(400);
    expect(recipients.body.error?.message).toMatch(/e-posta adresi/);
    const duplicate = await api.create('report-templates', { ...template, name: 'twice' });
    expect(duplicate.status).toBe(201);
    expect((await api.create('report-templates', { ...template, name: 'twice' })).status).toBe(409);
  });

  it('mails a scheduled template once per period with the report attached, through the SMTP service', async () => {
    const service = await api.create('alert-notification-settings', {
      name: 'Report mail',
      notificationType: 'email',
      serviceName: 'SMTP',
      serviceUri: `smtp://127.0.0.1:${smtpPort}`,
      encryption: 'none',
      notificationAddress: 'reports@lampyr.example',
    });
    expect(service.status, service.raw).toBe(201);
    const created = await api.create('report-templates', {
      ...template,
      name: 'Mailed weekly',
      schedule: 'weekly',
      language: 'tr',
      recipients: 'ops@example.com, chief@example.com',
    });
    expect(created.status, created.raw).toBe(201);
    const id = created.body.data.id as number;
    // Saved now, it waits for the next whole week: the week before is marked as done.
    expect(created.body.data.lastPeriod).toBe(
      duePeriod('weekly', new Date(), await accountTimeZone(t.database.db, accountId)).key,
    );
    // As if saved in March: the week of 2026-03-02 … 03-08 is due on Monday 2026-03-09.
    await exec(sql`UPDATE report_templates SET last_period = '2026-W09' WHERE id = ${id}`);
    const now = new Date('2026-03-09T06:00:00Z');
    const scheduler = new ReportScheduler(t.database.db, alwaysLeader, {
      now: () => now,
      wake: () => t.notifications.wake(),
    });
    const [first, second] = await Promise.all([scheduler.tick(), scheduler.tick()]);
    expect(first).toBe(1);
    expect(second).toBe(1); // the same pass (ticks do not overlap)
    expect(await scheduler.tick()).toBe(0);
    // A second scheduler (another replica after a failover) does not send the week again.
    const replica = new ReportScheduler(t.database.db, alwaysLeader, { now: () => now });
    expect(await replica.tick()).toBe(0);

    await eventually(() => expect(mails.filter((m) => m.raw.includes('2026-W10'))).toHaveLength(2), 10_000);
    const mail = mails.find((m) => m.to.includes('ops@example.com')) as { raw: string };
    expect(mail.raw).toMatch(/Content-Type: application\/pdf/i);
    expect(mail.raw).toMatch(/alarms-report-2026-03-02_2026-03-08\.pdf/);
    const body = mail.raw.split(/Content-Type: application\/pdf[^\n]*\n(?:[^\n]+\n)*\r?\n/i)[1] ?? '';
    const pdf = Buffer.from(body.split(/\r?\n--/)[0]?.replace(/\s+/g, '') ?? '', 'base64');
    const text = await pdfText(pdf);
    expect(text).toContain('Alarm raporu');
    expect(text).toContain('Dönem: 2026-03-02 – 2026-03-08');
    expect(text).toContain('Report lamp one');
    const [row] = await rows<{ last_period: string }>(sql`SELECT last_period FROM report_templates WHERE id = ${id}`);
    expect(row?.last_period).toBe('2026-W10');
    // The row is marked sent once the server accepted the mail: wait for both marks.
    await eventually(async () => {
      const sent = await rows<{ status: string }>(
        sql`SELECT status FROM alert_notification_list WHERE dedupe_key = ${`report:${id}:2026-W10`}`,
      );
      expect(sent.map((r) => r.status)).toEqual(['sent', 'sent']);
      return true;
    }, 10_000);
  });

  it('names the period due: the ISO week before, the month before', () => {
    expect(duePeriod('weekly', new Date('2026-03-09T00:00:00Z'))).toEqual({
      key: '2026-W10',
      from: '2026-03-02',
      to: '2026-03-08',
    });
    expect(duePeriod('weekly', new Date('2026-03-15T23:59:00Z')).key).toBe('2026-W10');
    expect(duePeriod('weekly', new Date('2027-01-04T01:00:00Z'))).toEqual({
      key: '2026-W53',
      from: '2026-12-28',
      to: '2027-01-03',
    });
    expect(duePeriod('monthly', new Date('2026-03-01T00:00:00Z'))).toEqual({
      key: '2026-02',
      from: '2026-02-01',
      to: '2026-02-28',
    });
  });
});

/**
 * The fault and maintenance KPI report (the Maintenance KPIs screen) in the test region, March 2025,
 * the account's calendar being Istanbul's (UTC+3):
 *   A lamp_failure  reported 03-02 00:00Z, resolved 06:00Z (6 h), closed 03-03 00:00Z (24 h), reopened 03-15
 *   B lamp_failure  reported 03-10 00:00Z, resolved 10:00Z (10 h)
 *   C over_voltage  reported 03-20, open                 D over_voltage 03-21, a duplicate: never counted
 *   E lamp_failure  reported 02-20, resolved 03-05 00:00Z (312 h, in the period; reported before it)
 *   F day_burning   reported 02-28 22:30Z = 03-01 01:30 in Istanbul: in the period; open
 *   G cycling       reported 03-31 22:30Z = 04-01 01:30 in Istanbul: after it; assigned (open now)
 *   and the `lamp` report of 2026 still open (open now, nothing in the period).
 * lamp_failure: reported 2 (A, B), resolved 3 (A, B, E), MTTR (6 + 10 + 312) / 3, closed 1, MTTC 24 h,
 * reopened 1. Totals: open 4 (C, F, G, lamp), reported 4 (A, B, C, F).
 */
describe('the maintenance report', () => {
  const period = { from: '2025-03-01', to: '2025-03-31' };
  const maintenance = (body: Record<string, unknown>) =>
    api.call('POST', '/query/api/reports/maintenance', { ...period, regionId, ...body });

  beforeAll(async () => {
    const inserted = await rows<{ id: number; fault_type: string }>(sql`
      INSERT INTO fault_reports (account_id, device_id, fault_type, reported_at, resolved_at, closed_at, status) VALUES
      (${accountId}, ${one}, 'lamp_failure', '2025-03-02T00:00:00Z', '2025-03-02T06:00:00Z', '2025-03-03T00:00:00Z', 'closed'),
      (${accountId}, ${one}, 'lamp_failure', '2025-03-10T00:00:00Z', '2025-03-10T10:00:00Z', NULL, 'resolved'),
      (${accountId}, ${one}, 'over_voltage', '2025-03-20T00:00:00Z', NULL, NULL, 'open'),
      (${accountId}, ${one}, 'over_voltage', '2025-03-21T00:00:00Z', NULL, NULL, 'duplicate'),
      (${accountId}, ${one}, 'lamp_failure', '2025-02-20T00:00:00Z', '2025-03-05T00:00:00Z', NULL, 'resolved'),
      (${accountId}, ${two}, 'day_burning', '2025-02-28T22:30:00Z', NULL, NULL, 'open'),
      (${accountId}, ${two}, 'cycling', '2025-03-31T22:30:00Z', NULL, NULL, 'assigned'),
      (${otherAccountId}, ${foreign}, 'lamp_failure', '2025-03-02T00:00:00Z', '2025-03-02T01:00:00Z', NULL, 'resolved')
      RETURNING id::int, fault_type`);
    const a = inserted[0] as { id: number };
    await exec(sql`INSERT INTO maintenance_history (account_id, device_id, fault_report_id, action, work, performed_by, performed_at)
      VALUES (${accountId}, ${one}, ${a.id}, 'reopen', 'came back', 'Test', '2025-03-15T08:00:00Z'),
             (${accountId}, ${one}, ${a.id}, 'reopen', 'earlier', 'Test', '2025-01-15T08:00:00Z')`);
  });

  it('counts, mean time to repair and to close by fault type, in the account’s calendar', async () => {
    const res = await maintenance({ groupBy: 'faultType' });
    expect(res.status, res.raw).toBe(200);
    const report = res.body.data;
    const byType = Object.fromEntries(report.rows.map((r: { key: string }) => [r.key, r]));
    expect(report.rows.map((r: { key: string }) => r.key)).toEqual([
      'day_burning',
      'over_voltage',
      'cycling',
      'lamp',
      'lamp_failure',
    ]);
    expect(byType.lamp_failure).toMatchObject({ open: 0, reported: 2, resolved: 3, closed: 1, reopened: 1 });
    expect(byType.lamp_failure.mttrHours).toBeCloseTo((6 + 10 + 312) / 3, 9);
    expect(byType.lamp_failure.mttcHours).toBeCloseTo(24, 9);
    expect(byType.over_voltage).toMatchObject({ open: 1, reported: 1, resolved: 0, mttrHours: null });
    expect(byType.day_burning).toMatchObject({ open: 1, reported: 1 });
    expect(byType.cycling).toMatchObject({ open: 1, reported: 0 });
    expect(report.totals).toMatchObject({ open: 4, reported: 4, resolved: 3, closed: 1, reopened: 1 });
    expect(report.totals.mttrHours).toBeCloseTo((6 + 10 + 312) / 3, 9);
    expect(report.totalRows).toBe(5);
    // By region: the one region holds them all; the other account's fault never counts.
    const byRegion = await maintenance({ groupBy: 'region' });
    expect(byRegion.body.data.rows).toEqual([
      expect.objectContaining({ key: String(regionId), label: 'Rapor bölgesi', reported: 4, open: 4, resolved: 3 }),
    ]);
    // Paged: two groups a page.
    const second = await maintenance({ groupBy: 'faultType', page: 1, size: 2 });
    expect(second.body.data.rows.map((r: { key: string }) => r.key)).toEqual(['cycling', 'lamp']);
    expect(second.body.data.totalRows).toBe(5);
  });

  it('counts the period’s days in the account’s time zone, however far from UTC', async () => {
    const [before] = await rows<{ zone: string | null }>(
      sql`SELECT time_zone AS zone FROM accounts WHERE id = ${accountId}`,
    );
    try {
      // In UTC F (02-28 22:30Z) is before the period and G (03-31 22:30Z) in it.
      await exec(sql`UPDATE accounts SET time_zone = 'UTC' WHERE id = ${accountId}`);
      const utc = (await maintenance({})).body.data;
      expect(utc.totals.reported).toBe(4); // A, B, C, G
      expect(utc.rows.find((r: { key: string }) => r.key === 'day_burning')?.reported).toBe(0);
      expect(utc.rows.find((r: { key: string }) => r.key === 'cycling')?.reported).toBe(1);
      // Kiritimati (UTC+14): the period runs 02-28 10:00Z … 03-31 10:00Z: F in, G out.
      await exec(sql`UPDATE accounts SET time_zone = 'Pacific/Kiritimati' WHERE id = ${accountId}`);
      const east = (await maintenance({})).body.data;
      expect(east.rows.find((r: { key: string }) => r.key === 'day_burning')?.reported).toBe(1);
      expect(east.rows.find((r: { key: string }) => r.key === 'cycling')?.reported).toBe(0);

      // The alarm report in Honolulu (UTC−10): the alarm of 03-03 08:00Z falls on the 2nd, the one of
      // 03-08 00:00Z on the 7th (inside the period now), 03-05 00:00Z on the 4th.
      await exec(sql`UPDATE accounts SET time_zone = 'Pacific/Honolulu' WHERE id = ${accountId}`);
      const honolulu = await alarms({ groupBy: 'day' });
      expect(honolulu.status, honolulu.raw).toBe(200);
      expect(honolulu.body.data.totals.raised).toBe(5);
      expect(honolulu.body.data.rows.map((r: { key: string; raised: number }) => [r.key, r.raised])).toEqual([
        ['2026-03-02', 3],
        ['2026-03-04', 1],
        ['2026-03-07', 1],
      ]);
      const series = honolulu.body.data.series as { bucket: string; high: number; low: number; medium: number }[];
      expect(series.find((s) => s.bucket === '2026-03-02')).toMatchObject({ high: 2, low: 1 });
      expect(series.find((s) => s.bucket === '2026-03-07')).toMatchObject({ high: 1 });
      expect(series.find((s) => s.bucket === '2026-03-05')).toMatchObject({ medium: 0 });
      // The asset report counts the period's alarms by the same days: five here, four in Istanbul.
      const inventory = await api.call('POST', '/query/api/reports/assets', {
        from: FROM,
        to: TO,
        regionId,
        groupBy: 'model',
      });
      expect(inventory.body.data.totals.alarms).toBe(5);
      // The PDF says which calendar it counted in.
      const pdf = await download('/query/api/reports/alarms/export', {
        format: 'pdf',
        request: { from: FROM, to: TO, regionId, groupBy: 'day' },
      });
      expect(await pdfText(pdf.bytes)).toContain('(Pacific/Honolulu)');
    } finally {
      await exec(sql`UPDATE accounts SET time_zone = ${before?.zone ?? null} WHERE id = ${accountId}`);
    }
  });

  it('takes the zone of the account’s cities when it has none of its own, and refuses a zone that is none', async () => {
    const [before] = await rows<{ zone: string | null }>(
      sql`SELECT time_zone AS zone FROM accounts WHERE id = ${accountId}`,
    );
    const cities = await rows<{ id: number; zone: string | null }>(sql`
      SELECT DISTINCT c.id::int AS id, c.time_zone AS zone FROM regions r JOIN cities c ON c.id = r.city_id
      WHERE r.account_id = ${accountId}`);
    try {
      await exec(sql`UPDATE accounts SET time_zone = NULL WHERE id = ${accountId}`);
      for (const c of cities) await exec(sql`UPDATE cities SET time_zone = 'Asia/Tokyo' WHERE id = ${c.id}`);
      expect(await accountTimeZone(t.database.db, accountId)).toBe('Asia/Tokyo');
      // A stored value that is no zone (written before zones were checked) is passed over.
      await exec(sql`UPDATE accounts SET time_zone = 'Mars/Olympus' WHERE id = ${accountId}`);
      expect(await accountTimeZone(t.database.db, accountId)).toBe('Asia/Tokyo');
      expect((await maintenance({})).status).toBe(200);
      for (const c of cities) await exec(sql`UPDATE cities SET time_zone = NULL WHERE id = ${c.id}`);
      // Neither: the cities' country's zone (Türkiye's).
      expect(await accountTimeZone(t.database.db, accountId)).toBe('Europe/Istanbul');
    } finally {
      await exec(sql`UPDATE accounts SET time_zone = ${before?.zone ?? null} WHERE id = ${accountId}`);
      for (const c of cities) await exec(sql`UPDATE cities SET time_zone = ${c.zone} WHERE id = ${c.id}`);
    }
    // The account's zone is checked when it is set, like a city's.
    const own = (await api.get('accounts', accountId)).body.data;
    const bad = await api.update('accounts', { ...own, timeZone: 'GMT+3' });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.fields?.timeZone).toBeTruthy();
    expect(bad.raw).not.toMatch(/stack/i);
  });

  it('exports CSV, XLSX and PDF with the KPI figures and its chart', async () => {
    const request = { ...period, regionId, groupBy: 'faultType' };
    const csv = await download('/query/api/reports/maintenance/export', { format: 'csv', request });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/filename="maintenance-report-2025-03-01_2025-03-31\.csv"/);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe(
      'Fault type,Open now,Reported,Resolved,Closed,Reopened,Mean time to repair (h),Mean time to close (h)',
    );
    expect(lines).toContain('Lamp failure,0,2,3,1,1,109.333,24');
    expect(lines.at(-1)).toBe('Total,4,4,3,1,1,109.333,24');

    const xlsx = await download(
      '/query/api/reports/maintenance/export',
      { format: 'xlsx', request, columns: ['open', 'mttrHours'] },
      'tr',
    );
    expect(xlsx.status, xlsx.text).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getRow(1).getCell(1).value).toBe('Arıza ve bakım raporu');
    expect(sheet.getRow(4).values).toEqual([undefined, 'Arıza türü', 'Şu an açık', 'Ortalama onarım süresi (sa)']);
    const total = sheet.getRow(sheet.rowCount).values as unknown[];
    expect(total.slice(1, 3)).toEqual(['Toplam', 4]);
    expect(total[3]).toBeCloseTo(109.333, 3);
    expect(workbook.worksheets[1]?.getRow(1).values).toEqual([undefined, '', 'Bildirilen', 'Çözülen', 'Şu an açık']);

    const pdf = await download('/query/api/reports/maintenance/export', { format: 'pdf', request });
    expect(pdf.status, pdf.text).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.bytes);
    expect(text).toContain('Fault and maintenance report');
    expect(text).toContain('Period: 2025-03-01 – 2025-03-31');
    expect(text).toContain('Mean time to repair (h)');
    expect(text).toContain('Lamp failure');
    expect(text).toContain('109.3');
    // The chart: its title and legend.
    expect(text).toContain('Faults reported, resolved and open');
    expect(text).toMatch(/Reported Resolved Open now/);
  });

  it('needs the right to read work orders, and refuses a bad request clearly', async () => {
    const bad = await maintenance({ groupBy: 'colour' });
    expect(bad.status).toBe(400);
    expect(bad.raw).not.toMatch(/select|stack/i);
    const backwards = await maintenance({ from: '2025-04-01', to: '2025-03-01' });
    expect(backwards.status).toBe(400);
  });
});

describe('scheduled periods in the account’s calendar', () => {
  it('turns the week at the account’s midnight', () => {
    // Sunday 2026-03-08 14:00Z is already Monday the 9th in Kiritimati (UTC+14), still Sunday in Honolulu.
    const at = new Date('2026-03-08T14:00:00Z');
    expect(duePeriod('weekly', at, 'Pacific/Kiritimati').key).toBe('2026-W10');
    expect(duePeriod('weekly', at, 'Pacific/Honolulu').key).toBe('2026-W09');
    expect(duePeriod('weekly', at).key).toBe('2026-W09');
    // 2026-03-31 23:30Z is April in Istanbul: March is due there, not yet in UTC.
    const monthEnd = new Date('2026-03-31T23:30:00Z');
    expect(duePeriod('monthly', monthEnd, 'Europe/Istanbul')).toEqual({
      key: '2026-03',
      from: '2026-03-01',
      to: '2026-03-31',
    });
    expect(duePeriod('monthly', monthEnd, 'UTC').key).toBe('2026-02');
  });

  it('sends a template when its account’s week has turned, not UTC’s', async () => {
    const [before] = await rows<{ zone: string | null }>(
      sql`SELECT time_zone AS zone FROM accounts WHERE id = ${accountId}`,
    );
    const created = await api.create('report-templates', {
      name: 'Kiritimati weekly',
      kind: 'maintenance',
      filters: { groupBy: 'region' },
      format: 'csv',
      schedule: 'weekly',
      recipients: 'east@example.com',
    });
    expect(created.status, created.raw).toBe(201);
    const id = created.body.data.id as number;
    const lastPeriod = async () =>
      (await rows<{ p: string }>(sql`SELECT last_period AS p FROM report_templates WHERE id = ${id}`))[0]?.p;
    // Sunday 2026-03-08 14:00Z: Monday 04:00 in Kiritimati, Sunday 04:00 in Honolulu.
    const scheduler = new ReportScheduler(t.database.db, alwaysLeader, {
      now: () => new Date('2026-03-08T14:00:00Z'),
    });
    try {
      await exec(sql`UPDATE report_templates SET last_period = '2026-W09' WHERE id = ${id}`);
      await exec(sql`UPDATE accounts SET time_zone = 'Pacific/Honolulu' WHERE id = ${accountId}`);
      await scheduler.tick();
      expect(await lastPeriod()).toBe('2026-W09');
      await exec(sql`UPDATE accounts SET time_zone = 'Pacific/Kiritimati' WHERE id = ${accountId}`);
      expect(await scheduler.tick()).toBeGreaterThanOrEqual(1);
      expect(await lastPeriod()).toBe('2026-W10');
      const [file] = await rows<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM alert_notification_list WHERE dedupe_key = ${`report:${id}:2026-W10`}`,
      );
      expect(file?.n).toBe(1);
    } finally {
      await exec(sql`UPDATE accounts SET time_zone = ${before?.zone ?? null} WHERE id = ${accountId}`);
      await api.call('DELETE', `/command/api/report-templates/${id}`, {});
    }
  });
});
