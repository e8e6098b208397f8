import { sql } from 'drizzle-orm';
import { accountTimeZone, accountTimeZones } from '../../data/time-zones.ts';
import type { Db } from '../../db/connect.ts';
import type { Leadership } from '../scheduler/leadership.ts';
import { nightOf } from '../schedules/plan.ts';
import { addDays } from '../sun-times/zoned-time.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Power above this many watts counts as burning (a controller's own draw stays below it). */
export const BURNING_WATTS = 6;
/**
 * A power reading stands for the time until the next one, up to this long: a device silent for
 * longer is not assumed to have burned at its last power through the silence.
 */
export const MAX_READING_SPAN_SECONDS = 3600;

/** A day of the account's calendar, `YYYY-MM-DD`. */
export type Day = string;

/**
 * Rolls readings up into `energy_daily`, one row per device and lighting day of the account's
 * calendar (its time zone: accountTimeZone): day D runs from noon on D to noon on D + 1, so a night
 * is one row, like its baseline. One statement per account and range, computed in the
 * database: energy from the device's energy meter channel when it reported one that day (the sum
 * of its increases, so a meter reset loses nothing but the reset), else from power × time (each
 * power reading up to the next, at most an hour); burn hours where power exceeded 6 W; and the
 * baseline, the rated power (the device's, else its model's) over that night's dark hours from
 * the Sunset/Sunrise table of the device's region's city. Idempotent: a day is recomputed whole.
 */
export async function rollUpEnergy(db: Db, accountId: number, from: Day, to: Day): Promise<number> {
  const zone = await accountTimeZone(db, accountId);
  const result = await db.execute(sql`
    WITH bounds AS (
      SELECT ${zone}::text AS tz, ((${from}::date)::timestamp + interval '12 hours') AT TIME ZONE ${zone} AS t0,
             ((${to}::date + 1)::timestamp + interval '12 hours') AT TIME ZONE ${zone} AS t1
    ),
    channel AS (
      SELECT r.device_id, r.date_time, r.value, c.channel_code, lower(coalesce(c.unit, '')) AS unit
      FROM channel_read_values r
      JOIN device_channel_templates c ON c.id = r.device_channel_template_id
      CROSS JOIN bounds b
      WHERE r.account_id = ${accountId} AND r.sub_channel = 0 AND c.channel_code IN ('power', 'energy')
        AND r.date_time >= b.t0 - interval '1 hour' AND r.date_time < b.t1
    ),
    spans AS (
      SELECT device_id, date_time, channel_code, unit, value,
             value - lag(value) OVER w AS increase,
             least(extract(epoch FROM (lead(date_time) OVER w - date_time)), ${MAX_READING_SPAN_SECONDS}) AS seconds
      FROM channel
      WINDOW w AS (PARTITION BY device_id, channel_code ORDER BY date_time)
    ),
    per_day AS (
      SELECT s.device_id, ((s.date_time AT TIME ZONE b.tz) - interval '12 hours')::date AS day,
        sum(s.value * coalesce(s.seconds, 0)) FILTER (WHERE s.channel_code = 'power') / 3600000.0 AS power_kwh,
        sum(coalesce(s.seconds, 0)) FILTER (WHERE s.channel_code = 'power' AND s.value > ${BURNING_WATTS}) / 3600.0 AS burn_hours,
        sum(CASE WHEN s.unit = 'wh' THEN s.increase / 1000.0 ELSE s.increase END)
          FILTER (WHERE s.channel_code = 'energy' AND s.increase >= 0) AS metered_kwh
      FROM spans s CROSS JOIN bounds b
      WHERE s.date_time >= b.t0
      GROUP BY 1, 2
    ),
    night AS (
      SELECT p.device_id, p.day,
        coalesce(d.rated_power, m.rated_power) AS watts,
        (86400 - extract(epoch FROM dusk.sunset) + extract(epoch FROM coalesce(dawn.sunrise, dusk.sunrise))) / 3600.0 AS hours
      FROM per_day p
      JOIN devices d ON d.id = p.device_id
      JOIN device_models m ON m.id = d.device_type_model_id
      LEFT JOIN regions g ON g.id = d.region_id
      LEFT JOIN sunset_sunrises dusk ON dusk.city_id = g.city_id AND dusk.date = p.day
      LEFT JOIN sunset_sunrises dawn ON dawn.city_id = g.city_id AND dawn.date = p.day + 1
    )
    INSERT INTO energy_daily (account_id, device_id, day, energy_kwh, metered, burn_hours, baseline_kwh, night_hours, computed_at)
    SELECT ${accountId}, p.device_id, p.day,
           coalesce(p.metered_kwh, p.power_kwh, 0), p.metered_kwh IS NOT NULL, coalesce(p.burn_hours, 0),
           n.watts * n.hours / 1000.0, n.hours, now()
    FROM per_day p JOIN night n ON n.device_id = p.device_id AND n.day = p.day
    ON CONFLICT (device_id, day) DO UPDATE SET
      energy_kwh = excluded.energy_kwh, metered = excluded.metered, burn_hours = excluded.burn_hours,
      baseline_kwh = excluded.baseline_kwh, night_hours = excluded.night_hours, computed_at = excluded.computed_at
    RETURNING 1`);
  await rollUpMonths(db, accountId, from, to);
  return rowsOf(result).length;
}

/** Recomputes `energy_monthly` of the account for every month `from … to` touches, from its daily rows. */
export async function rollUpMonths(db: Db, accountId: number, from: Day, to: Day): Promise<void> {
  await db.execute(sql`
    INSERT INTO energy_monthly
      (account_id, device_id, month, energy_kwh, baseline_kwh, energy_with_baseline_kwh, burn_hours, days, metered_days)
    SELECT ${accountId}, device_id, date_trunc('month', day)::date, sum(energy_kwh), sum(baseline_kwh),
           sum(energy_kwh) FILTER (WHERE baseline_kwh IS NOT NULL), sum(burn_hours), count(*), count(*) FILTER (WHERE metered)
    FROM energy_daily
    WHERE account_id = ${accountId}
      AND day >= date_trunc('month', ${from}::date) AND day < date_trunc('month', ${to}::date) + interval '1 month'
    GROUP BY device_id, date_trunc('month', day)
    ON CONFLICT (device_id, month) DO UPDATE SET
      energy_kwh = excluded.energy_kwh, baseline_kwh = excluded.baseline_kwh,
      energy_with_baseline_kwh = excluded.energy_with_baseline_kwh, burn_hours = excluded.burn_hours,
      days = excluded.days, metered_days = excluded.metered_days`);
}

/**
 * Keeps `energy_daily` current: every few minutes, today and yesterday of every account with
 * devices are rolled up again (yesterday for readings that arrived late). Idempotent, so a second
 * replica running it changes nothing but the work done.
 */
export class EnergyEngine {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Rolls up now and every `everyMs`; with a leadership, only while this replica leads. */
  start(everyMs = 5 * 60_000, leadership?: Leadership): () => void {
    const run = async () => {
      if (leadership && !(await leadership.isLeader())) return;
      await this.tick();
    };
    run().catch(this.onError);
    this.timer = setInterval(() => run().catch(this.onError), everyMs);
    this.timer.unref();
    return () => clearInterval(this.timer);
  }

  tick(): Promise<void> {
    this.running ??= this.rollRecent().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async rollRecent(): Promise<void> {
    const accounts = rowsOf<{ id: number }>(
      await this.db.execute(
        sql`SELECT a.id::int AS id FROM accounts a WHERE EXISTS (SELECT 1 FROM devices d WHERE d.account_id = a.id)`,
      ),
    );
    const zones = await accountTimeZones(
      this.db,
      accounts.map((a) => a.id),
    );
    const now = this.now();
    for (const a of accounts) {
      // Today's lighting day (noon to noon) in the account's calendar, and the one before.
      const today = nightOf(now, zones.get(a.id) as string);
      await rollUpEnergy(this.db, a.id, addDays(today, -1), today);
    }
  }
}
