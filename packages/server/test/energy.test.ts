import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeMonths } from '../src/data/energy-report.ts';
import {
  EnergyEngine,
  MAX_READING_SPAN_SECONDS,
  REPAIR_AFTER_MS,
  rollUpEnergy,
  rollUpMonths,
  SETTLE_MS,
} from '../src/engines/energy/energy-rollup.ts';
import { Client, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * Savings arithmetic against cases computed by hand. The night of 2026-06-10 in Istanbul (UTC+3):
 * sunset 18:00, sunrise 06:00 the next morning, 12 dark hours. A 100 W luminaire burning full until
 * midnight and at 50 % until sunrise uses 0.6 + 0.3 = 0.9 kWh against a 1.2 kWh baseline.
 */
let t: TestApp;
let api: Client;
let accountId: number;
let otherAccountId: number;
let regionId: number;
let powered: number;
let metered: number;
let foreign: number;
const NIGHT = '2026-06-10';

const exec = (query: ReturnType<typeof sql>) => t.database.db.execute(query);
const rows = async <T>(query: ReturnType<typeof sql>) => (await exec(query)) as unknown as { rows: T[] };

/** A reading of `code` at Istanbul local time `local` (`2026-06-10T18:00`). */
async function reading(deviceId: number, code: string, local: string, value: number) {
  const at = `${local}:00+03:00`;
  await exec(sql`SELECT lampyr_ensure_reading_partition(${at}::timestamptz)`);
  await exec(sql`
    INSERT INTO channel_read_values (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key)
    SELECT d.account_id, d.id, c.id, 0, ${value}, ${at}::timestamptz, 'ok', ${`t:${at}`}
    FROM devices d JOIN device_channel_templates c ON c.device_type_model_id = d.device_type_model_id AND c.channel_code = ${code}
    WHERE d.id = ${deviceId}`);
}

async function device(name: string, account: number, ratedPower: number | null): Promise<number> {
  const { rows: found } = await rows<{ id: number }>(sql`
    INSERT INTO devices (account_id, name, device_type_model_id, region_id, street, rated_power, status, is_active)
    SELECT ${account}, ${name}, m.id, ${regionId}, 'Test Caddesi', ${ratedPower}, 'commissioned', true
    FROM device_models m WHERE m.model_name LIKE 'SLC-L2%' RETURNING id::int`);
  return (found[0] as { id: number }).id;
}

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  [accountId, otherAccountId] = t.seeded.subAccountIds as [number, number];
  api.accountId = accountId;
  await exec(sql`UPDATE accounts SET time_zone = 'Europe/Istanbul', tariff_per_kwh = 4, emission_factor = 0.5, currency = 'TRY'
    WHERE id IN (${accountId}, ${otherAccountId})`);
  const { rows: city } = await rows<{ id: number; state_id: number; country_id: number }>(
    sql`SELECT id::int, state_id::int, country_id::int FROM cities LIMIT 1`,
  );
  const c = city[0] as { id: number; state_id: number; country_id: number };
  const region = await api.create('regions', {
    name: 'Energy test',
    cityId: c.id,
    stateId: c.state_id,
    countryId: c.country_id,
  });
  regionId = region.body.data.id;
  await exec(sql`DELETE FROM sunset_sunrises WHERE city_id = ${c.id} AND date IN (${NIGHT}::date, ${NIGHT}::date + 1)`);
  await exec(sql`
    INSERT INTO sunset_sunrises (date, sunrise, sunset, city_id, state_id, country_id) VALUES
      (${NIGHT}, '05:58', '18:00', ${c.id}, ${c.state_id}, ${c.country_id}),
      ('2026-06-11', '06:00', '18:01', ${c.id}, ${c.state_id}, ${c.country_id})`);

  powered = await device('Energy powered', accountId, 100);
  metered = await device('Energy metered', accountId, 200);
  foreign = await device('Energy foreign', otherAccountId, 100);
  // Powered, reporting every half hour: 100 W from sunset, 50 W from midnight, off at sunrise; a
  // reading before noon belongs to the night before.
  await reading(powered, 'power', '2026-06-10T11:00', 80);
  for (let half = 0; half <= 26; half++) {
    const at = new Date(Date.UTC(2026, 5, 10, 18) + half * 1_800_000).toISOString().slice(0, 16);
    await reading(powered, 'power', at, half < 12 ? 100 : half < 24 ? 50 : 0);
  }
  // Metered: a meter that resets (replaced) in the night; its increases are 0.4 + 0.5 + 0.2.
  for (const [at, kwh] of [
    ['2026-06-10T18:00', 10],
    ['2026-06-10T22:00', 10.4],
    ['2026-06-11T02:00', 10.9],
    ['2026-06-11T03:00', 0.1],
    ['2026-06-11T06:00', 0.3],
  ] as const)
    await reading(metered, 'energy', at, kwh);
  await reading(metered, 'power', '2026-06-10T18:00', 180);
  await reading(metered, 'power', '2026-06-10T18:30', 0);
  await reading(foreign, 'power', '2026-06-10T18:00', 100);
  await reading(foreign, 'power', '2026-06-10T19:00', 0);

  await rollUpEnergy(t.database.db, accountId, NIGHT, NIGHT);
  await rollUpEnergy(t.database.db, otherAccountId, NIGHT, NIGHT);
});
afterAll(() => t.close());

describe('the energy rollup', () => {
  it('integrates power over the night and sums a meter’s increases', async () => {
    const { rows: daily } = await rows<Record<string, number | boolean>>(sql`
      SELECT device_id::int AS "deviceId", energy_kwh AS energy, metered, burn_hours AS burn, baseline_kwh AS baseline,
             night_hours AS night
      FROM energy_daily WHERE day = ${NIGHT} AND device_id IN (${powered}, ${metered})
      ORDER BY device_id`);
    const byDevice = new Map(daily.map((d) => [d.deviceId, d]));
    const p = byDevice.get(powered);
    expect(p?.energy).toBeCloseTo(0.9, 9);
    expect(p?.metered).toBe(false);
    expect(p?.burn).toBeCloseTo(12, 9);
    // 18:00 to 06:00 the next morning.
    expect(p?.night).toBeCloseTo(12, 9);
    expect(p?.baseline).toBeCloseTo(1.2, 9);
    const m = byDevice.get(metered);
    expect(m?.energy).toBeCloseTo(1.1, 9);
    expect(m?.metered).toBe(true);
    expect(m?.burn).toBeCloseTo(0.5, 9);
    expect(m?.baseline).toBeCloseTo(2.4, 9);
    // The 11:00 reading is the previous lighting day's, which this rollup did not ask for.
    const { rows: before } = await rows(
      sql`SELECT 1 FROM energy_daily WHERE day < ${NIGHT} AND device_id = ${powered}`,
    );
    expect(before).toHaveLength(0);
  });

  it('recomputes a day whole, so running it again changes nothing', async () => {
    await rollUpEnergy(t.database.db, accountId, NIGHT, NIGHT);
    const { rows: daily } = await rows<{ n: number; total: number }>(sql`
      SELECT count(*)::int AS n, sum(energy_kwh)::float8 AS total FROM energy_daily
      WHERE day = ${NIGHT} AND device_id IN (${powered}, ${metered})`);
    expect(daily[0]).toEqual({ n: 2, total: expect.closeTo(2.0, 9) });
  });
});

describe('POST /query/api/reports/energy', () => {
  const report = (body: object) => api.call('POST', '/query/api/reports/energy', body);

  it('reports energy, baseline, savings, money and CO₂ by device', async () => {
    const res = await report({ from: NIGHT, to: NIGHT, groupBy: 'device', regionId, sort: 'label' });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.rows.map((r: { label: string }) => r.label)).toEqual(['Energy metered', 'Energy powered']);
    const p = data.rows[1];
    expect(p.energyKwh).toBeCloseTo(0.9, 9);
    expect(p.baselineKwh).toBeCloseTo(1.2, 9);
    expect(p.savingsKwh).toBeCloseTo(0.3, 9);
    expect(p.savingsPct).toBeCloseTo(25, 9);
    expect(p.money).toBeCloseTo(1.2, 9);
    expect(p.co2Kg).toBeCloseTo(0.15, 9);
    // Totals: 2.0 kWh used of a 3.6 kWh baseline.
    expect(data.totals.energyKwh).toBeCloseTo(2.0, 9);
    expect(data.totals.baselineKwh).toBeCloseTo(3.6, 9);
    expect(data.totals.savingsPct).toBeCloseTo((100 * 1.6) / 3.6, 9);
    expect(data.totals).toMatchObject({ devices: 2, deviceDays: 2, meteredDeviceDays: 1 });
    expect(data.currency).toBe('TRY');
    expect(data.bucket).toBe('day');
    expect(data.series).toHaveLength(1);
    expect(data.series[0].bucket).toBe(NIGHT);
  });

  it('groups by street and region, and never shows another account’s devices', async () => {
    const street = await report({ from: NIGHT, to: NIGHT, groupBy: 'street', regionId });
    expect(street.body.data.rows).toHaveLength(1);
    expect(street.body.data.rows[0]).toMatchObject({ label: 'Test Caddesi', devices: 2 });
    const byRegion = await report({ from: NIGHT, to: NIGHT, groupBy: 'region', regionId });
    expect(byRegion.body.data.rows[0]).toMatchObject({ label: 'Energy test', devices: 2 });
    const theirs = await report({ from: NIGHT, to: NIGHT, groupBy: 'device', deviceId: foreign });
    expect(theirs.body.data.rows).toEqual([]);
    expect(theirs.body.data.totals.energyKwh).toBe(0);
  });

  it('refuses a backwards or too long period and a report without an account', async () => {
    const backwards = await report({ from: NIGHT, to: '2026-06-01' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error?.message).toMatch(/ends before it begins/);
    const long = await report({ from: '2025-01-01', to: '2026-06-10' });
    expect(long.status).toBe(400);
    expect(long.body.error?.message).toMatch(/366/);
    expect(JSON.stringify(long.body)).not.toMatch(/select|energy_daily/i);
    const bare = new Client(t.app);
    bare.token = api.token;
    expect((await bare.call('POST', '/query/api/reports/energy', { from: NIGHT, to: NIGHT })).status).toBe(400);
  });
});

describe('whole months and edge days', () => {
  it('reads the months a period covers whole from the monthly rollups, the edges by day', () => {
    expect(wholeMonths('2026-05-15', '2026-08-10')).toEqual(['2026-06-01', '2026-08-01']);
    expect(wholeMonths('2026-06-01', '2026-06-30')).toEqual(['2026-06-01', '2026-07-01']);
    expect(wholeMonths('2026-06-02', '2026-06-29')).toEqual(['2026-07-01', '2026-07-01']);
    expect(wholeMonths('2025-12-01', '2026-12-31')).toEqual(['2025-12-01', '2027-01-01']);
  });

  it('gives the same figures whichever rollup a day comes from', async () => {
    // Thirty-three nights from 30 May to 1 July: June whole, two days at each edge.
    await exec(sql`
      INSERT INTO energy_daily (account_id, device_id, day, energy_kwh, metered, burn_hours, baseline_kwh, night_hours)
      SELECT ${accountId}, ${powered}, d::date, 1 + extract(day FROM d) / 100.0, false, 10, 2, 10
      FROM generate_series('2026-05-30'::date, '2026-07-01'::date, interval '1 day') d
      ON CONFLICT (device_id, day) DO NOTHING`);
    await rollUpMonths(t.database.db, accountId, '2026-05-30', '2026-07-01');
    const { rows: expected } = await rows<{ energy: number; baseline: number; n: number }>(sql`
      SELECT sum(energy_kwh)::float8 AS energy, sum(baseline_kwh)::float8 AS baseline, count(*)::int AS n
      FROM energy_daily WHERE device_id = ${powered} AND day BETWEEN '2026-05-30' AND '2026-07-01'`);
    const res = await api.call('POST', '/query/api/reports/energy', {
      from: '2026-05-30',
      to: '2026-07-01',
      groupBy: 'device',
      deviceId: powered,
    });
    const { totals, series, bucket } = res.body.data;
    expect(totals.energyKwh).toBeCloseTo(expected[0]?.energy as number, 9);
    expect(totals.baselineKwh).toBeCloseTo(expected[0]?.baseline as number, 9);
    expect(totals.deviceDays).toBe(expected[0]?.n);
    expect(bucket).toBe('day');
    expect(series).toHaveLength(33);
    const byMonth = await api.call('POST', '/query/api/reports/energy', {
      from: '2026-04-01',
      to: '2026-07-01',
      groupBy: 'device',
      deviceId: powered,
    });
    expect(byMonth.body.data.bucket).toBe('month');
    expect(byMonth.body.data.series.map((s: { bucket: string }) => s.bucket)).toEqual([
      '2026-05',
      '2026-06',
      '2026-07',
    ]);
    expect(byMonth.body.data.totals.energyKwh).toBeCloseTo(expected[0]?.energy as number, 9);
  });
});

/**
 * The engine adds windows of readings to the days after its mark. Checked against the pairs of
 * readings summed here in the test, and against the day recomputed whole.
 */
describe('the energy engine', () => {
  const DAY = '2026-06-20';
  const HOUR = 3_600_000;
  /** Noon of DAY in Istanbul: the lighting day's start. */
  const START = Date.UTC(2026, 5, 20, 9);
  const END = START + 24 * HOUR;
  const local = (ms: number) => new Date(ms + 3 * HOUR).toISOString().slice(0, 16);
  let clock = START;
  const engine = () =>
    new EnergyEngine(
      t.database.db,
      (e) => {
        throw e;
      },
      () => new Date(clock),
    );
  let stepper: number;
  const power: [number, number][] = [];
  const energy: [number, number][] = [];

  /** What the day should hold, summed from the readings whose pair closed before `until`. */
  function expected(until: number) {
    const sorted = (list: [number, number][]) => [...list].sort((a, b) => a[0] - b[0]);
    let kwh = 0;
    let burn = 0;
    let metered = 0;
    const p = sorted(power);
    for (let i = 1; i < p.length; i++) {
      const [pt, pv] = p[i - 1] as [number, number];
      const [rt] = p[i] as [number, number];
      if (rt >= until || pt < START || pt >= END) continue;
      const seconds = Math.min((rt - pt) / 1000, MAX_READING_SPAN_SECONDS);
      kwh += (pv * seconds) / 3_600_000;
      if (pv > 6) burn += seconds / 3600;
    }
    const e = sorted(energy);
    for (let i = 1; i < e.length; i++) {
      const [rt, rv] = e[i] as [number, number];
      const increase = rv - (e[i - 1] as [number, number])[1];
      if (rt < until && rt >= START && rt < END && increase >= 0) metered += increase;
    }
    return { kwh, burn, metered };
  }

  async function day() {
    const { rows: found } = await rows<{
      energy: number;
      power: number;
      metered: number;
      burn: number;
      flag: boolean;
    }>(sql`
      SELECT energy_kwh AS energy, power_kwh AS power, metered_kwh AS metered, burn_hours AS burn, metered AS flag
      FROM energy_daily WHERE device_id = ${stepper} AND day = ${DAY}`);
    return found[0];
  }

  async function mark() {
    const { rows: found } = await rows<{ until: number; repaired: string | null }>(sql`
      SELECT (extract(epoch FROM rolled_until) * 1000)::float8 AS until, repaired_through::text AS repaired FROM energy_rollup_marks WHERE account_id = ${accountId}`);
    return found[0];
  }

  async function expectDay(until: number) {
    const want = expected(until);
    const got = await day();
    expect(got?.power).toBeCloseTo(want.kwh, 9);
    expect(got?.burn).toBeCloseTo(want.burn, 9);
    expect(got?.metered).toBeCloseTo(want.metered, 9);
    expect(got?.energy).toBeCloseTo(want.metered, 9);
    expect(got?.flag).toBe(true);
    // The month holds what its days hold, after every tick.
    const { rows: month } = await rows<{ energy: number; burn: number }>(sql`
      SELECT energy_kwh AS energy, burn_hours AS burn FROM energy_monthly WHERE device_id = ${stepper} AND month = '2026-06-01'`);
    const { rows: days } = await rows<{ energy: number; burn: number }>(sql`
      SELECT sum(energy_kwh) AS energy, sum(burn_hours) AS burn FROM energy_daily
      WHERE device_id = ${stepper} AND day >= '2026-06-01' AND day < '2026-07-01'`);
    expect(month[0]?.energy).toBeCloseTo(days[0]?.energy as number, 9);
    expect(month[0]?.burn).toBeCloseTo(days[0]?.burn as number, 9);
    expect(month[0]?.energy).toBeGreaterThan(0);
  }

  async function add(list: [number, number][], code: string, at: number, value: number) {
    list.push([at, value]);
    await reading(stepper, code, local(at), value);
  }

  beforeAll(async () => {
    await exec(sql`DELETE FROM energy_rollup_marks`);
    stepper = await device('Energy stepper', accountId, 100);
    // Power every 10 minutes at a level that changes, silent for two hours at night (a span is at
    // most an hour); a meter every half hour that is replaced (reset) once.
    let level = 7;
    for (let at = START + 5 * 60_000; at < END + HOUR; at += 10 * 60_000) {
      if (at >= START + 13 * HOUR && at < START + 15 * HOUR) continue;
      level = (level * 31 + 17) % 101;
      await add(power, 'power', at, level < 20 ? 0 : level);
    }
    let meter = 100;
    for (let at = START + 20 * 60_000; at < END + HOUR; at += 30 * 60_000) {
      meter = at === START + 10 * HOUR + 20 * 60_000 ? 0.25 : meter + ((at / 60_000) % 7) / 100;
      await add(energy, 'energy', at, meter);
    }
  });

  it('adds windows of readings that sum to the day recomputed whole, however the ticks fall', async () => {
    // The first tick finds no mark: yesterday and today recomputed whole, up to a minute ago.
    clock = START + 2 * HOUR;
    await engine().tick();
    expect((await mark())?.until).toBe(clock - SETTLE_MS);
    await expectDay(clock - SETTLE_MS);
    // Ticks close together, far apart (many windows in one tick) and two replicas at once.
    for (const at of [START + 2 * HOUR + 7 * 60_000, START + 2 * HOUR + 9 * 60_000, START + 7 * HOUR + 40 * 60_000]) {
      clock = at;
      await engine().tick();
      await expectDay(clock - SETTLE_MS);
    }
    clock = START + 11 * HOUR + 59 * 60_000;
    await Promise.all([engine().tick(), engine().tick()]);
    await expectDay(clock - SETTLE_MS);
    for (const at of [START + 16 * HOUR, START + 23 * HOUR + 55 * 60_000, END + 30 * 60_000]) {
      clock = at;
      await engine().tick();
      await expectDay(clock - SETTLE_MS);
    }
    const windowed = await day();
    await rollUpEnergy(t.database.db, accountId, DAY, DAY, new Date(clock - SETTLE_MS));
    const whole = await day();
    expect(whole?.power).toBeCloseTo(windowed?.power as number, 9);
    expect(whole?.metered).toBeCloseTo(windowed?.metered as number, 9);
    expect(whole?.burn).toBeCloseTo(windowed?.burn as number, 9);
  });

  it('counts a reading that came after its window when the day is repaired, once', async () => {
    // Stored late: its time is long behind the mark.
    await add(power, 'power', START + 8 * HOUR + 7 * 60_000, 250);
    clock = END + 50 * 60_000;
    await engine().tick();
    const before = expected(clock - SETTLE_MS);
    expect((await day())?.power).not.toBeCloseTo(before.kwh, 6);
    expect((await mark())?.repaired).toBe('2026-06-19');
    // An hour after the day closed it is recomputed whole, and only once.
    clock = END + REPAIR_AFTER_MS + 5 * 60_000;
    await engine().tick();
    expect((await mark())?.repaired).toBe(DAY);
    await expectDay(clock - SETTLE_MS);
    clock += 10 * 60_000;
    await engine().tick();
    await expectDay(clock - SETTLE_MS);
  });

  it('goes on with the other accounts when one account’s rollup fails, whose mark stays before the failure', async () => {
    const markOf = async (account: number) =>
      (
        await rows<{ until: number }>(sql`SELECT (extract(epoch FROM rolled_until) * 1000)::float8 AS until
          FROM energy_rollup_marks WHERE account_id = ${account}`)
      ).rows[0]?.until;
    expect(await markOf(otherAccountId)).toBeGreaterThan(0);
    const drop = async () => {
      await exec(sql.raw('DROP TRIGGER IF EXISTS energy_test_refuse ON energy_daily'));
      await exec(sql.raw('DROP FUNCTION IF EXISTS energy_test_refuse()'));
    };
    await exec(
      sql.raw(`CREATE FUNCTION energy_test_refuse() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`),
    );
    await exec(
      sql.raw(`CREATE TRIGGER energy_test_refuse BEFORE INSERT ON energy_daily FOR EACH ROW
      WHEN (NEW.account_id = ${otherAccountId}) EXECUTE FUNCTION energy_test_refuse()`),
    );
    const refused = clock + 2 * 60_000;
    try {
      await add(power, 'power', clock + 60_000, 30);
      await reading(foreign, 'power', local(clock + 60_000), 100);
      await reading(foreign, 'power', local(refused), 100);
      clock += 10 * 60_000;
      const errors: unknown[] = [];
      await new EnergyEngine(
        t.database.db,
        (e) => errors.push(e),
        () => new Date(clock),
      ).tick();
      expect(errors).toHaveLength(1);
      expect(String((errors[0] as { cause?: unknown }).cause ?? errors[0])).toMatch(/refused by the test/);
      expect(await markOf(accountId)).toBe(clock - SETTLE_MS);
      await expectDay(clock - SETTLE_MS);
      // Windows before the failing one were rolled; the failing one was not.
      expect(await markOf(otherAccountId)).toBeLessThanOrEqual(refused);
    } finally {
      await drop();
    }
    await engine().tick();
    expect(await markOf(otherAccountId)).toBe(clock - SETTLE_MS);
  });
});
