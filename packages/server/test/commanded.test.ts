import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandedSource } from '../src/engines/faults/commanded.ts';
import { nightOf, nightStart } from '../src/engines/schedules/plan.ts';
import { sunDay } from '../src/engines/sun-times/sun-day.ts';
import { localDate } from '../src/engines/sun-times/zoned-time.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * What the fault engine takes a lamp to be commanded to (engines/faults/commanded.ts): operators'
 * overrides read for a batch of devices at once, a sample from long ago read on its own, and the sun
 * of a device's place computed once a day.
 */
let t: TestApp;
let accountId: number;
let overridden: number;
let plain: number;
const HOUR = 3_600_000;
const now = Date.now();

const exec = (query: ReturnType<typeof sql>) => t.database.db.execute(query);

async function accountTimeZone(): Promise<string> {
  const found = (await exec(
    sql`SELECT coalesce(time_zone, 'UTC') AS tz FROM accounts WHERE id = ${accountId}`,
  )) as unknown as {
    rows: { tz: string }[];
  };
  return found.rows[0]?.tz as string;
}

/** Whether the sun is up at a place (30 minutes inside sunrise and sunset), from that local day's sun. */
function isDayAt(place: { latitude: number; longitude: number; timeZone: string }, at: number): boolean {
  const sun = sunDay(place, localDate(new Date(at), place.timeZone));
  return (
    sun.polarDay ||
    (!sun.polarNight &&
      at > (sun.sunrise as Date).getTime() + 30 * 60_000 &&
      at < (sun.sunset as Date).getTime() - 30 * 60_000)
  );
}

async function override(deviceId: number, level: number, from: number, until: number) {
  await exec(sql`INSERT INTO overrides (account_id, level, until, reason, device_ids, device_count, created_at)
    VALUES (${accountId}, ${level}, ${new Date(until).toISOString()}::timestamptz, 'test',
      ${JSON.stringify([deviceId])}::jsonb, 1, ${new Date(from).toISOString()}::timestamptz)`);
}

beforeAll(async () => {
  t = await startTestApp();
  accountId = t.seeded.subAccountIds[0] as number;
  const found = (await exec(sql`SELECT id::int AS id FROM devices WHERE account_id = ${accountId}
    AND latitude IS NOT NULL AND latitude <> 0 ORDER BY id LIMIT 2`)) as unknown as { rows: { id: number }[] };
  [overridden, plain] = found.rows.map((r) => r.id) as [number, number];
  await exec(sql`UPDATE overrides SET status = 'cancelled', cancelled_at = now() - interval '30 days'`);
  // Now: 35 % for two hours. Ten days ago: 70 % for two hours (older than what a batch reads).
  await override(overridden, 35, now - HOUR, now + HOUR);
  await override(overridden, 70, now - 10 * 24 * HOUR - HOUR, now - 10 * 24 * HOUR + HOUR);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the commanded state of a lamp', () => {
  it('takes an override from the batch read, only for the devices it covers, and one from long ago by itself', async () => {
    const source = new CommandedSource(t.database.db, 60_000, () => now);
    await source.prepare([overridden, plain]);
    expect(await source.commandedAt(overridden, now)).toMatchObject({ level: 35, source: 'override' });
    expect((await source.commandedAt(plain, now))?.source).not.toBe('override');
    // Before the override was made it commands nothing.
    expect((await source.commandedAt(overridden, now - 2 * HOUR))?.source).not.toBe('override');
    // After it ended, the level it returned to (the end is the override's last switch point).
    expect((await source.commandedAt(overridden, now + 2 * HOUR))?.level).not.toBe(35);
    // Ten days back is outside what the batch read: read for that night.
    expect(await source.commandedAt(overridden, now - 10 * 24 * HOUR)).toMatchObject({ level: 70, source: 'override' });
    // Back to the night of now: the plan is made again and the batch's override holds.
    expect(await source.commandedAt(overridden, now + 30 * 60_000)).toMatchObject({ level: 35, source: 'override' });
  });

  it('sees an override made after the batch once told that overrides changed', async () => {
    const source = new CommandedSource(t.database.db, 60_000, () => now);
    await source.prepare([plain]);
    expect((await source.commandedAt(plain, now))?.source).not.toBe('override');
    await override(plain, 55, now - 60_000, now + HOUR);
    source.invalidate();
    await source.prepare([plain]);
    expect(await source.commandedAt(plain, now)).toMatchObject({ level: 55, source: 'override' });
  });

  it('tells day from night at the device’s place, across local days', async () => {
    const source = new CommandedSource(t.database.db, 60_000, () => now);
    await source.prepare([plain]);
    const device = (await exec(sql`SELECT latitude, longitude FROM devices WHERE id = ${plain}`)) as unknown as {
      rows: { latitude: number; longitude: number }[];
    };
    const tz = await accountTimeZone();
    const place = {
      latitude: Number(device.rows[0]?.latitude),
      longitude: Number(device.rows[0]?.longitude),
      timeZone: tz,
    };
    // Every two hours over three days: the same answer as the sun of that local day.
    for (let at = nightStart(nightOf(new Date(now), tz), tz).getTime(); at < now + 3 * 24 * HOUR; at += 2 * HOUR) {
      expect(source.isDay(plain, at)).toBe(isDayAt(place, at));
    }
  });

  it('keeps a night’s plan across a refresh while what it was planned from stands, and plans again when it changes', async () => {
    let clock = now;
    const source = new CommandedSource(t.database.db, 60_000, () => clock);
    const known = (id: number) =>
      (source as unknown as { byDevice: Map<number, { plan?: object; sun?: object }> }).byDevice.get(id);
    const refresh = async (ids: number[], ms: number) => {
      clock += ms;
      await source.prepare(ids);
    };
    await source.prepare([overridden, plain]);
    expect(await source.commandedAt(overridden, now)).toMatchObject({ level: 35, source: 'override' });
    await source.commandedAt(plain, now);
    source.isDay(plain, now);
    const plan = known(overridden)?.plan;
    const sun = known(plain)?.sun;
    expect(plan).toBeDefined();
    expect(sun).toBeDefined();

    // Two minutes on, nothing changed: the same plan and sun, not made again.
    await refresh([overridden, plain], 2 * 60_000);
    expect(known(overridden)?.plan).toBe(plan);
    expect(known(plain)?.sun).toBe(sun);
    expect(await source.commandedAt(overridden, now)).toMatchObject({ level: 35, source: 'override' });

    // An override the refresh reads (nobody said overrides changed): planned again, and it holds.
    await override(overridden, 20, now - 30 * 60_000, now + HOUR);
    await refresh([overridden], 2 * 60_000);
    expect(known(overridden)?.plan).toBeUndefined();
    expect(await source.commandedAt(overridden, now)).toMatchObject({ level: 20, source: 'override' });
    const replanned = known(overridden)?.plan;

    // The account's schedules read again (five refreshes on): planned from them again.
    await refresh([overridden], 6 * 60_000);
    expect(known(overridden)?.plan).toBeUndefined();
    await source.commandedAt(overridden, now);
    expect(known(overridden)?.plan).not.toBe(replanned);

    // The device moved to the other side of the world: its sun is the new place's.
    const before = (await exec(sql`SELECT latitude, longitude FROM devices WHERE id = ${plain}`)) as unknown as {
      rows: { latitude: number; longitude: number }[];
    };
    const { latitude, longitude } = before.rows[0] as { latitude: number; longitude: number };
    const moved = {
      latitude: -Number(latitude),
      longitude: Number(longitude) > 0 ? Number(longitude) - 180 : Number(longitude) + 180,
    };
    await exec(
      sql`UPDATE devices SET latitude = ${moved.latitude}, longitude = ${moved.longitude} WHERE id = ${plain}`,
    );
    try {
      await refresh([plain], 2 * 60_000);
      expect(known(plain)?.sun).toBeUndefined();
      expect(source.isDay(plain, now)).toBe(isDayAt({ ...moved, timeZone: await accountTimeZone() }, now));
    } finally {
      await exec(sql`UPDATE devices SET latitude = ${latitude}, longitude = ${longitude} WHERE id = ${plain}`);
    }
  });
});
