import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUN_TABLE_DAYS, SunTable } from '../src/engines/sun-times/sun-table.ts';
import { CommandEvents } from '../src/events/command-events.ts';
import { Client, countRows, page, startTestApp, type TestApp } from './support/test-app.ts';

/** The Sunset/sunrise table: filled by the engine, recomputed on a city's change, read-only in the API. */
let t: TestApp;
let api: Client;
let table: SunTable;
let stop: () => void;
const commands = new CommandEvents();
const NOW = new Date('2026-11-20T09:00:00Z');
let stateId: number;
let norwayId: number;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const rowsFor = async (cityId: number, date: string) =>
  rowsOf(
    await t.database.db.execute(
      sql`SELECT date::text, sunrise::text, sunset::text, dawn::text, polar_day, polar_night, time_zone
          FROM sunset_sunrises WHERE city_id = ${cityId} AND date = ${date}`,
    ),
  )[0];

beforeAll(async () => {
  t = await startTestApp({ demo: false, app: { commands } });
  api = new Client(t.app);
  await api.login();
  api.accountId = t.seeded.integratorId;
  table = new SunTable(t.database.db, (e) => {
    throw e;
  });
  const norway = await api.create('countries', { name: 'Norway', timeZone: 'Europe/Oslo' });
  norwayId = norway.body.data.id;
  stateId = (await api.create('states', { name: 'Troms', countryId: norwayId })).body.data.id;
});
afterAll(async () => {
  stop?.();
  await table?.settled();
  await t?.close();
});

describe('filling', () => {
  it('fills every seeded city 400 days ahead in its zone (Türkiye: Europe/Istanbul)', async () => {
    const written = await table.fill(NOW);
    const cities = await countRows(t.database, 'cities');
    expect(written).toBe(cities * SUN_TABLE_DAYS);
    expect(await countRows(t.database, 'sunset_sunrises')).toBe(cities * SUN_TABLE_DAYS);
    const istanbul = rowsOf(await t.database.db.execute(sql`SELECT id FROM cities WHERE name = 'İstanbul'`))[0];
    const row = await rowsFor(Number(istanbul?.id), '2027-06-21');
    // Istanbul's midsummer sunrise 05:32–05:33 and sunset 20:39–20:40 local time (UTC+3).
    expect(row).toMatchObject({ time_zone: 'Europe/Istanbul', polar_day: false, polar_night: false });
    expect(String(row?.sunrise) >= '05:31' && String(row?.sunrise) <= '05:34').toBe(true);
    expect(String(row?.sunset) >= '20:38' && String(row?.sunset) <= '20:41').toBe(true);
    // Filling again writes the same rows, not new ones.
    await table.fill(NOW);
    expect(await countRows(t.database, 'sunset_sunrises')).toBe(cities * SUN_TABLE_DAYS);
  });

  it('fills a new city at once, polar night and midnight sun flagged, and refills it when it moves', async () => {
    stop = table.start(commands, () => NOW, 3_600_000);
    const created = await api.create('cities', {
      name: 'Tromsø',
      stateId,
      countryId: norwayId,
      latitude: 69.6492,
      longitude: 18.9553,
    });
    expect(created.status).toBe(201);
    const cityId = created.body.data.id as number;
    await table.settled();
    const december = await rowsFor(cityId, '2026-12-21');
    expect(december).toMatchObject({ sunrise: null, sunset: null, polar_night: true, polar_day: false });
    expect(december?.time_zone).toBe('Europe/Oslo');
    expect(await rowsFor(cityId, '2027-06-21')).toMatchObject({ sunrise: null, polar_day: true });
    // Moved to Oslo's latitude: the same day now has a sunrise.
    const moved = await api.update('cities', { ...created.body.data, latitude: 59.9139, longitude: 10.7522 });
    expect(moved.status).toBe(200);
    await table.settled();
    const after = await rowsFor(cityId, '2026-12-21');
    // Oslo's shortest day: sunrise about 09:18, sunset about 15:12.
    expect(String(after?.sunrise) >= '09:15' && String(after?.sunrise) <= '09:21').toBe(true);
    expect(after?.polar_night).toBe(false);
  });

  it("follows a change of the city's time zone", async () => {
    const city = (await api.list('cities', { filter: { name: 'Tromsø' }, pageable: page(1) })).body.data.content[0];
    const before = await rowsFor(city.id, '2026-12-21');
    const res = await api.update('cities', { ...city, timeZone: 'UTC' });
    expect(res.status).toBe(200);
    await table.settled();
    const after = await rowsFor(city.id, '2026-12-21');
    expect(after?.time_zone).toBe('UTC');
    // Oslo is UTC+1 in December: the same sunrise shows an hour earlier on a UTC clock.
    const minutes = (v: unknown) => Number(String(v).slice(0, 2)) * 60 + Number(String(v).slice(3, 5));
    expect(minutes(before?.sunrise) - minutes(after?.sunrise)).toBe(60);
  });
});

describe('the API', () => {
  it('refuses every write to the table with a 403 that says why, in en and tr, and changes nothing', async () => {
    const count = await countRows(t.database, 'sunset_sunrises');
    const listed = await api.list('sunsetsunrises', { filter: null, pageable: page(1, 1) });
    expect(listed.status).toBe(200);
    const row = listed.body.data.content[0];
    const create = await api.create('sunsetsunrises', { ...row, id: undefined, date: '2030-01-01' });
    expect(create.status).toBe(403);
    expect(create.body.error?.message).toMatch(/written by Lampyr alone/);
    const update = await api.update('sunsetsunrises', { ...row, sunrise: '01:00' });
    expect(update.status).toBe(403);
    api.language = 'tr';
    const remove = await api.remove('sunsetsunrises', row.id);
    api.language = undefined;
    expect(remove.status).toBe(403);
    expect(remove.body.error?.message).toMatch(/yalnızca Lampyr/);
    expect(await countRows(t.database, 'sunset_sunrises')).toBe(count);
    expect((await api.get('sunsetsunrises', row.id)).body.data.sunrise).toBe(row.sunrise);
  });

  it('refuses a time zone the runtime does not know, in en and tr', async () => {
    const bad = await api.create('countries', { name: 'Atlantis', timeZone: 'Atlantis/Capital' });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.fields?.timeZone).toMatch(/time zone such as Europe\/Istanbul/);
    api.language = 'tr';
    const city = (await api.list('cities', { filter: { name: 'Tromsø' }, pageable: page(1) })).body.data.content[0];
    const badCity = await api.update('cities', { ...city, timeZone: '+03:00' });
    api.language = undefined;
    expect(badCity.status).toBe(422);
    expect(badCity.body.error?.fields?.timeZone).toMatch(/saat dilimi/);
    expect((await api.get('cities', city.id)).body.data.timeZone).toBe('UTC');
  });
});
