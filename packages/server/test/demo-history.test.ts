import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '../src/engines/sun-times/zoned-time.ts';
import { backfillDemoHistory, type DemoHistoryResult } from '../src/seed/demo-history.ts';
import { demoMeters } from '../src/seed/history-readings.ts';
import { ADMIN, Client, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * The demo's two weeks of history (issue 15), written once for the whole file up to now (the seed
 * dates the lost lights' last sighting from the real clock, as the first start does).
 */
const NOW = new Date();
const DAY = 86_400_000;
/** A local date of Kadıköy `n` days before now. */
const daysAgo = (n: number) => localDate(new Date(NOW.getTime() - n * DAY), 'Europe/Istanbul');
let t: TestApp;
let api: Client;
let kadikoy: number;
let first: DemoHistoryResult;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const one = async <T>(query: ReturnType<typeof sql>) => (await rows<T>(query))[0] as T;
const history = (now: Date) =>
  backfillDemoHistory(t.database.db, { accountIds: t.seeded.subAccountIds, now, adminEmail: ADMIN.email });

/** A light of the demo by its number (KDK-…-0042). */
const light = (n: number) =>
  one<{ id: number }>(sql`SELECT id::int FROM devices WHERE code = ${`SL${String(n).padStart(4, '0')}`}`).then(
    (r) => r.id,
  );

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  kadikoy = t.seeded.subAccountIds[0] as number;
  api.accountId = kadikoy;
  first = await history(NOW);
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe('the demo history', () => {
  it('gives every light of the fleet 14 days of readings every 15 minutes, up to the first start', async () => {
    // 200 LoRaWAN lights and 5 IP controllers; the three lost ones stop where the seed says they were last heard.
    expect(first.devices).toBe(205);
    const lost = await one<{ to: string }>(sql`
      SELECT max(r.date_time) AS to FROM channel_read_values r JOIN devices d ON d.id = r.device_id WHERE d.code = 'SL0200'`);
    const heard = await one<{ at: string }>(sql`
      SELECT s.date_time AS at FROM device_connection_status s JOIN devices d ON d.id = s.device_id WHERE d.code = 'SL0200'`);
    expect(new Date(heard.at).getTime() - new Date(lost.to).getTime()).toBeLessThan(15 * 60_000);
    expect(new Date(heard.at).getTime()).toBeGreaterThanOrEqual(new Date(lost.to).getTime());
    expect(NOW.getTime() - new Date(lost.to).getTime()).toBeGreaterThan(DAY);
    const span = await one<{ from: string; to: string; lights: number }>(sql`
      SELECT min(date_time) AS from, max(date_time) AS to, count(DISTINCT device_id)::int AS lights
      FROM channel_read_values WHERE account_id = ${kadikoy}`);
    expect(span.lights).toBe(205);
    expect(new Date(span.from).getTime() - (NOW.getTime() - 14 * DAY)).toBeLessThanOrEqual(15 * 60_000);
    expect(new Date(span.to).getTime()).toBeLessThanOrEqual(NOW.getTime());
    expect(NOW.getTime() - new Date(span.to).getTime()).toBeLessThan(15 * 60_000);
    // A healthy light's lamp channel: one reading per quarter of an hour.
    const perLight = await one<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM channel_read_values r JOIN device_channel_templates c ON c.id = r.device_channel_template_id
      WHERE r.device_id = ${await light(60)} AND c.channel_code = 'lamp'`);
    expect(perLight.n).toBeGreaterThanOrEqual(14 * 96 - 1);
    expect(perLight.n).toBeLessThanOrEqual(14 * 96);
    expect(first.readings).toBe(
      (await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM channel_read_values WHERE account_id = ${kadikoy}`))
        .n,
    );
  });

  it('leaves each light’s last lamp, dim and power reports in its lamp values row, for the map', async () => {
    const kept = await one<{ lights: number; differing: number }>(sql`
      SELECT count(DISTINCT v.device_id)::int AS lights,
             count(*) FILTER (WHERE (v.value, v.date_time) IS DISTINCT FROM (
               CASE c.channel_code WHEN 'lamp' THEN l.lamp WHEN 'dim' THEN l.dim ELSE l.power END,
               CASE c.channel_code WHEN 'lamp' THEN l.lamp_at WHEN 'dim' THEN l.dim_at ELSE l.power_at END))::int AS differing
      FROM channel_values v JOIN device_channel_templates c ON c.id = v.device_channel_template_id
      LEFT JOIN device_lamp_values l ON l.device_id = v.device_id
      WHERE v.account_id = ${kadikoy} AND v.sub_channel = 0 AND c.channel_code IN ('lamp', 'dim', 'power')`);
    expect(kept).toEqual({ lights: 205, differing: 0 });
  });

  it('follows the schedule: on from sunset, 50 % after midnight, off by day', async () => {
    // Readings of healthy lights by the sun times of Kadıköy (local clock, Europe/Istanbul).
    const faulty = [await light(42), await light(131), await light(163), await light(15)];
    type Period = { period: string; lamp: number; lamp_max: number; dim: number; dim_max: number; power: number };
    const states = await rows<Period & { readings: number }>(sql`
      WITH r AS (
        SELECT r.device_id, r.date_time AT TIME ZONE 'Europe/Istanbul' AS local, c.channel_code, r.value
        FROM channel_read_values r JOIN device_channel_templates c ON c.id = r.device_channel_template_id
        JOIN devices d ON d.id = r.device_id JOIN device_models m ON m.id = d.device_type_model_id
        WHERE r.account_id = ${kadikoy} AND m.model_name LIKE 'SLC-L2%' AND d.code BETWEEN 'SL0011' AND 'SL0200'
          AND d.id % 5 = 0 AND NOT r.device_id = ANY(${`{${faulty.join(',')}}`}::bigint[])
      ), sun AS (
        SELECT s.date, s.sunrise, s.sunset FROM sunset_sunrises s JOIN cities k ON k.id = s.city_id WHERE k.name = 'Kadıköy'
      ), judged AS (
        SELECT r.*, CASE
          WHEN r.local::time BETWEEN sun.sunrise + interval '20 minutes' AND sun.sunset - interval '20 minutes' THEN 'day'
          WHEN r.local::time BETWEEN sun.sunset + interval '20 minutes' AND time '23:40' THEN 'evening'
          WHEN r.local::time BETWEEN time '00:20' AND sun.sunrise - interval '20 minutes' THEN 'late night'
        END AS period
        FROM r JOIN sun ON sun.date = r.local::date
      )
      SELECT period, min(value) FILTER (WHERE channel_code = 'lamp') AS lamp,
        max(value) FILTER (WHERE channel_code = 'lamp') AS lamp_max,
        min(value) FILTER (WHERE channel_code = 'dim') AS dim, max(value) FILTER (WHERE channel_code = 'dim') AS dim_max,
        avg(value) FILTER (WHERE channel_code = 'power') AS power,
        count(*) FILTER (WHERE channel_code = 'lamp')::int AS readings
      FROM judged WHERE period IS NOT NULL GROUP BY period ORDER BY period`);
    const by: Record<string, Period & { readings: number }> = Object.fromEntries(states.map((s) => [s.period, s]));
    expect(by.day?.readings).toBeGreaterThan(1000);
    expect([by.day?.lamp, by.day?.lamp_max]).toEqual([0, 0]);
    expect(by.day?.power).toBe(0);
    expect([by.evening?.lamp, by.evening?.dim, by.evening?.dim_max]).toEqual([1, 100, 100]);
    expect(by.evening?.power).toBeGreaterThan(110);
    expect(by.evening?.power).toBeLessThan(130);
    expect([by['late night']?.lamp, by['late night']?.dim, by['late night']?.dim_max]).toEqual([1, 50, 50]);
    expect(by['late night']?.power).toBeGreaterThan(55);
    expect(by['late night']?.power).toBeLessThan(65);
    // The ambient light is dark at night and bright by day.
    const lux = await rows<{ night: boolean; lux: number }>(sql`
      SELECT extract(hour FROM r.date_time AT TIME ZONE 'Europe/Istanbul') NOT BETWEEN 6 AND 18 AS night, avg(r.value) AS lux
      FROM channel_read_values r JOIN device_channel_templates c ON c.id = r.device_channel_template_id
      WHERE r.account_id = ${kadikoy} AND c.channel_code = 'lux'
        AND extract(hour FROM r.date_time AT TIME ZONE 'Europe/Istanbul') IN (2, 13) GROUP BY 1`);
    expect(lux.find((l) => l.night)?.lux).toBeLessThan(10);
    expect(lux.find((l) => !l.night)?.lux).toBeGreaterThan(10_000);
  });

  it('keeps every energy meter counting up, and the rollup shows what dimming saved', async () => {
    const backwards = await one<{ n: number; lights: number }>(sql`
      SELECT count(*) FILTER (WHERE value < before)::int AS n, count(DISTINCT device_id)::int AS lights FROM (
        SELECT r.device_id, r.value, lag(r.value) OVER (PARTITION BY r.device_id ORDER BY r.date_time) AS before
        FROM channel_read_values r JOIN device_channel_templates c ON c.id = r.device_channel_template_id
        WHERE r.account_id = ${kadikoy} AND c.channel_code = 'energy') m`);
    expect(backwards).toEqual({ n: 0, lights: 205 });
    // Last week, as the Savings report shows it: about 205 lights × 120 W × 14 h, less the dimmed hours.
    const week = await api.call('POST', '/query/api/reports/energy', {
      from: daysAgo(8),
      to: daysAgo(2),
      groupBy: 'account',
    });
    expect(week.status).toBe(200);
    const totals = week.body.data.totals;
    expect(totals.energyKwh).toBeGreaterThan(7 * 200 * 0.12 * 10);
    expect(totals.baselineKwh).toBeGreaterThan(totals.energyKwh);
    expect(totals.savingsPct).toBeGreaterThan(15);
    expect(totals.savingsPct).toBeLessThan(40);
    // The simulator's meters go on from the history's last readings.
    const meters = await demoMeters(t.database.db, t.seeded.subAccountIds);
    expect(meters.size).toBe(205);
    const last = await one<{ value: number }>(sql`
      SELECT r.value FROM channel_read_values r JOIN device_channel_templates c ON c.id = r.device_channel_template_id
      JOIN devices d ON d.id = r.device_id
      WHERE d.dev_eui = '70b3d57ed005003c' AND c.channel_code = 'energy' ORDER BY r.date_time DESC LIMIT 1`);
    expect(meters.get('70b3d57ed005003c')).toBe(last.value);
  });

  it('has the faults: a failed lamp, a day-burner, a cycling lamp and a light gone silent, with their work orders', async () => {
    // (Up to now: the test app's own engines watch the fleet too, and the last test runs its clock on.)
    const alarms = await rows<{
      code: string;
      kind: string;
      state: string;
      raised: string;
      cleared: string | null;
    }>(sql`
      SELECT d.code, a.kind, a.state, a.date_time AS raised, a.cleared_at AS cleared
      FROM alert_logs a JOIN devices d ON d.id = a.device_id
      WHERE a.date_time <= ${NOW.toISOString()}::timestamptz ORDER BY a.date_time`);
    const kinds = (code: string) => [...new Set(alarms.filter((a) => a.code === code).map((a) => a.kind))].sort();
    expect(kinds('SL0042')).toEqual(['lampFailure', 'threshold']);
    expect(kinds('SL0131')).toEqual(['dayBurning']);
    expect(kinds('SL0163')).toEqual(['cycling', 'threshold']);
    expect(kinds('SL0015')).toEqual(['nodeLoss']);
    expect(new Set(alarms.map((a) => a.code))).toEqual(new Set(['SL0042', 'SL0131', 'SL0163', 'SL0015']));
    // All over by the first start, each cleared after it was raised.
    for (const a of alarms) {
      expect(a.state).toBe('cleared');
      expect(new Date(a.cleared as string).getTime()).toBeGreaterThan(new Date(a.raised).getTime());
    }
    // The failed lamp: dark while switched on, from the night it failed until the repair.
    const failed = await light(42);
    const dark = await one<{ n: number; lit: number }>(sql`
      SELECT count(*) FILTER (WHERE p.value = 0)::int AS n, count(*) FILTER (WHERE p.value > 100)::int AS lit
      FROM channel_read_values l
      JOIN device_channel_templates lc ON lc.id = l.device_channel_template_id AND lc.channel_code = 'lamp'
      JOIN channel_read_values p ON p.device_id = l.device_id AND p.date_time = l.date_time
      JOIN device_channel_templates pc ON pc.id = p.device_channel_template_id AND pc.channel_code = 'power'
      WHERE l.device_id = ${failed} AND l.value = 1
        AND l.date_time BETWEEN ${new Date(NOW.getTime() - 9 * DAY).toISOString()}::timestamptz
          AND ${new Date(NOW.getTime() - 7 * DAY).toISOString()}::timestamptz`);
    expect(dark.n).toBeGreaterThan(40);
    expect(dark.lit).toBeLessThan(dark.n);
    // The silent light sent nothing for twelve hours.
    const silence = await one<{ hours: number }>(sql`
      SELECT (max(extract(epoch FROM date_time - before)) / 3600)::float8 AS hours FROM (
        SELECT r.date_time, lag(r.date_time) OVER (ORDER BY r.date_time) AS before
        FROM channel_read_values r JOIN device_channel_templates c ON c.id = r.device_channel_template_id
        WHERE r.device_id = ${await light(15)} AND c.channel_code = 'lamp') g`);
    expect(silence.hours).toBeGreaterThan(11);
    // Fault reports filed by detection, worked through by the administrator, one still planned.
    const reports = await rows<{ code: string; rule: string; status: string; source: string; history: number }>(sql`
      SELECT d.code, f.rule_code AS rule, f.status, f.source,
        (SELECT count(*)::int FROM maintenance_history h WHERE h.fault_report_id = f.id) AS history
      FROM fault_reports f JOIN devices d ON d.id = f.device_id
      WHERE f.reported_at <= ${NOW.toISOString()}::timestamptz ORDER BY d.code`);
    expect(reports).toEqual([
      { code: 'SL0015', rule: 'communicationLoss', status: 'closed', source: 'detected', history: 4 },
      { code: 'SL0042', rule: 'lampFailure', status: 'closed', source: 'detected', history: 5 },
      { code: 'SL0131', rule: 'dayBurning', status: 'closed', source: 'detected', history: 5 },
      { code: 'SL0163', rule: 'cycling', status: 'planned', source: 'detected', history: 2 },
    ]);
    expect(first.faultReports).toBe(4);
    // The alarm report of the fortnight counts them: the failed lamp's two alarms, acknowledged and cleared.
    const report = await api.call('POST', '/query/api/reports/alarms', {
      from: daysAgo(14),
      to: daysAgo(0),
      groupBy: 'device',
      deviceId: failed,
    });
    expect(report.status).toBe(200);
    expect(report.body.data.totals).toMatchObject({ raised: 2, cleared: 2, active: 0 });
    expect(report.body.data.totals.mttaMinutes).toBeGreaterThan(0);
  });

  it('writes nothing twice, and a start days later fills only the days since', async () => {
    const count = async () =>
      (await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM channel_read_values WHERE account_id = ${kadikoy}`))
        .n;
    const before = await count();
    const historyAlarms = sql`SELECT count(*)::int AS n FROM alert_logs WHERE date_time <= ${NOW.toISOString()}::timestamptz`;
    const alarmsBefore = (await one<{ n: number }>(historyAlarms)).n;
    expect((await history(NOW)).readings).toBe(0);
    expect(await count()).toBe(before);
    const later = await history(new Date(NOW.getTime() + 2 * DAY));
    // Two days of 202 reporting lights (the three lost ones stay silent), and no new faults.
    expect(later.devices).toBe(202);
    expect(later.samples).toBeGreaterThanOrEqual(202 * 191);
    expect(later.samples).toBeLessThanOrEqual(202 * 192);
    expect(later.alarms).toBe(0);
    expect((await one<{ n: number }>(historyAlarms)).n).toBe(alarmsBefore);
    const twice = await one<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM channel_read_values WHERE account_id = ${kadikoy}
        GROUP BY device_id, device_channel_template_id, date_time HAVING count(*) > 1) x`);
    expect(twice.n).toBe(0);
    const backwards = await one<{ n: number }>(sql`
      SELECT count(*) FILTER (WHERE value < before)::int AS n FROM (
        SELECT r.value, lag(r.value) OVER (PARTITION BY r.device_id ORDER BY r.date_time) AS before
        FROM channel_read_values r JOIN device_channel_templates c ON c.id = r.device_channel_template_id
        WHERE r.account_id = ${kadikoy} AND c.channel_code = 'energy') m`);
    expect(backwards.n).toBe(0);
    // The latest values and last sightings moved on with it.
    const seen = await one<{ at: string }>(sql`SELECT max(date_time) AS at FROM device_connection_status`);
    expect(NOW.getTime() + 2 * DAY - new Date(seen.at).getTime()).toBeLessThan(15 * 60_000);
  });
});
