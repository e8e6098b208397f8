import { sql } from 'drizzle-orm';
import { FALLBACK_TIME_ZONE } from '../../data/time-zones.ts';
import type { Db } from '../../db/connect.ts';
import type { CommandEvents } from '../../events/command-events.ts';
import { type Place, type SunDay, sunDay } from './sun-day.ts';
import { addDays, localDate, localTime } from './zoned-time.ts';

/** Days ahead the Sunset/sunrise table always covers (DEVICES.md). */
export const SUN_TABLE_DAYS = 400;
export { FALLBACK_TIME_ZONE };

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export interface CityPlace extends Place {
  cityId: number;
  stateId: number;
  countryId: number;
}

/** Cities with their effective zone: their own, else their country's, else UTC. */
export async function cityPlaces(db: Db, cityId?: number): Promise<CityPlace[]> {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT c.id, c.state_id, c.country_id, c.latitude, c.longitude,
             coalesce(nullif(c.time_zone, ''), nullif(k.time_zone, ''), ${FALLBACK_TIME_ZONE}) AS time_zone
      FROM cities c JOIN countries k ON k.id = c.country_id
      ${cityId === undefined ? sql`` : sql`WHERE c.id = ${cityId}`}
      ORDER BY c.id`),
  );
  return rows.map((r) => ({
    cityId: Number(r.id),
    stateId: Number(r.state_id),
    countryId: Number(r.country_id),
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    timeZone: String(r.time_zone),
  }));
}

const clock = (instant: Date | null, timeZone: string) => (instant ? localTime(instant, timeZone, true) : null);

/**
 * Keeps the Sunset/sunrise table filled: for every city, one row per local date from today (in the
 * city's zone) for SUN_TABLE_DAYS days, times as the city's local clock shows them. Rows are
 * upserted on (city, date), so replicas and restarts may refill at will; past rows stay as history.
 */
export class SunTable {
  private timer?: NodeJS.Timeout;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Fills every city (or one) from `now`'s local date on; resolves with the rows written. */
  async fill(now: Date, cityId?: number): Promise<number> {
    let written = 0;
    for (const place of await cityPlaces(this.db, cityId)) {
      const from = localDate(now, place.timeZone);
      const days: SunDay[] = [];
      for (let i = 0; i < SUN_TABLE_DAYS; i++) days.push(sunDay(place, addDays(from, i)));
      // Upserted: a city that moved or changed zone gets its rows from today on recomputed.
      for (let i = 0; i < days.length; i += 100) written += await this.upsert(place, days.slice(i, i + 100));
    }
    return written;
  }

  private async upsert(place: CityPlace, days: SunDay[]): Promise<number> {
    const z = place.timeZone;
    const values = days.map(
      (d) =>
        sql`(${d.date}::date, ${clock(d.sunrise, z)}::time, ${clock(d.sunset, z)}::time, ${clock(d.dawn, z)}::time,
          ${clock(d.dusk, z)}::time, ${clock(d.nauticalDawn, z)}::time, ${clock(d.nauticalDusk, z)}::time,
          ${d.polarDay}, ${d.polarNight}, ${z}, ${place.cityId}::bigint, ${place.stateId}::bigint, ${place.countryId}::bigint)`,
    );
    const result = await this.db.execute(sql`
      INSERT INTO sunset_sunrises (date, sunrise, sunset, dawn, dusk, nautical_dawn, nautical_dusk, polar_day,
        polar_night, time_zone, city_id, state_id, country_id)
      VALUES ${sql.join(values, sql`, `)}
      ON CONFLICT (city_id, date) DO UPDATE SET sunrise = excluded.sunrise, sunset = excluded.sunset,
        dawn = excluded.dawn, dusk = excluded.dusk, nautical_dawn = excluded.nautical_dawn,
        nautical_dusk = excluded.nautical_dusk, polar_day = excluded.polar_day, polar_night = excluded.polar_night,
        time_zone = excluded.time_zone, state_id = excluded.state_id, country_id = excluded.country_id,
        updated_at = now()`);
    return (result as { rowCount?: number; affectedRows?: number }).rowCount ?? days.length;
  }

  /**
   * Fills now, again every day, and for a city whenever it is created or its place or zone changes
   * (a country's zone change refills its cities). `now` is the clock.
   */
  start(commands: CommandEvents, now: () => Date, everyMs = 24 * 3600000): () => void {
    const run = (cityId?: number) => this.track(this.fill(now(), cityId));
    run();
    this.timer = setInterval(() => run(), everyMs);
    this.timer.unref();
    const offs = [
      commands.on('cities', 'create', (e) => run(Number(e.record.id))),
      commands.on('cities', 'update', (e) => run(Number(e.record.id))),
      commands.on('countries', 'update', (e) =>
        this.track(
          (async () => {
            for (const city of await cityPlaces(this.db))
              if (city.countryId === Number(e.record.id)) await this.fill(now(), city.cityId);
          })(),
        ),
      ),
    ];
    return () => {
      clearInterval(this.timer);
      for (const off of offs) off();
    };
  }

  /** Resolves once no fill is running (a stop, a test). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch(this.onError).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
