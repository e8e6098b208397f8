import { type SQL, sql } from 'drizzle-orm';
import { accountTimeZone, accountTimeZones } from '../../data/time-zones.ts';
import type { Db } from '../../db/connect.ts';
import type { Leadership } from '../scheduler/leadership.ts';
import { nightOf, nightStart } from '../schedules/plan.ts';
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
 * Readings are rolled up in pairs: each power or energy reading with the one before it on the same
 * device channel. A pair gives power × time to the older reading's day (it stands for the time
 * until the next one, at most MAX_READING_SPAN_SECONDS), burn time when that power exceeds
 * BURNING_WATTS, and a meter's increase to the newer reading's day (a drop, a meter reset, is left
 * out). A pair belongs to the window of its newer reading's time, so readings taken window after
 * window count every pair once, and a day recomputed whole up to an instant agrees with the windows
 * after that instant.
 */
interface Pairs {
  accountId: number;
  zone: string;
  /** Newer readings from `from` (included) … */
  from: Date;
  /** … to `to` (excluded). */
  to: Date;
  /** Whole days: only their contributions, and a pair's newer reading looked for up to here. */
  days?: { from: Day; to: Day; until: Date };
}

/** A reading's predecessor is looked for this far back (a device silent longer starts afresh). */
const PREDECESSOR_LOOKBACK = '2 days';

const nightDay = (at: SQL) => sql`((${at} AT TIME ZONE b.tz) - interval '12 hours')::date`;

/**
 * One statement: the pairs whose newer reading falls in the window, summed per device and lighting
 * day, upserted into `energy_daily` — replacing the day's figures (`days`, a day recomputed whole)
 * or adding to them (a window after the last). Returns the days written.
 */
async function upsertPairs(db: Db, p: Pairs): Promise<Day[]> {
  const { accountId, zone, days } = p;
  const iso = (d: Date) => d.toISOString();
  // A day recomputed whole also needs each channel's first reading after the window (the last
  // power reading's span), as far as the instant the figures are taken up to.
  const next = days
    ? sql`UNION ALL
      SELECT e.device_id, e.template_id, q.date_time, q.value FROM ends e CROSS JOIN bounds b CROSS JOIN LATERAL (
        SELECT n.date_time, n.value FROM channel_read_values n
        WHERE n.device_id = e.device_id AND n.device_channel_template_id = e.template_id AND n.sub_channel = 0
          AND n.date_time >= b.b AND n.date_time < ${iso(days.until)}::timestamptz
        ORDER BY n.date_time LIMIT 1) q`
    : sql``;
  const onlyDays = days ? sql`WHERE day BETWEEN ${days.from}::date AND ${days.to}::date` : sql``;
  const power = days
    ? sql`excluded.power_kwh`
    : sql`CASE WHEN excluded.power_kwh IS NULL THEN d.power_kwh ELSE coalesce(d.power_kwh, 0) + excluded.power_kwh END`;
  const metered = days
    ? sql`excluded.metered_kwh`
    : sql`CASE WHEN excluded.metered_kwh IS NULL THEN d.metered_kwh ELSE coalesce(d.metered_kwh, 0) + excluded.metered_kwh END`;
  const burn = days ? sql`excluded.burn_hours` : sql`d.burn_hours + excluded.burn_hours`;
  const result = await db.execute(sql`
    WITH bounds AS (SELECT ${zone}::text AS tz, ${iso(p.from)}::timestamptz AS a, ${iso(p.to)}::timestamptz AS b),
    kinds AS (
      SELECT id, channel_code AS code, lower(coalesce(unit, '')) AS unit
      FROM device_channel_templates WHERE channel_code IN ('power', 'energy')
    ),
    window_readings AS (
      SELECT r.device_id, r.device_channel_template_id AS template_id, r.date_time, r.value
      FROM channel_read_values r CROSS JOIN bounds b
      WHERE r.account_id = ${accountId} AND r.sub_channel = 0 AND r.device_channel_template_id IN (SELECT id FROM kinds)
        AND r.date_time >= b.a AND r.date_time < b.b
    ),
    ends AS (SELECT device_id, template_id, min(date_time) AS first FROM window_readings GROUP BY 1, 2),
    points AS (
      SELECT e.device_id, e.template_id, q.date_time, q.value FROM ends e CROSS JOIN LATERAL (
        SELECT o.date_time, o.value FROM channel_read_values o
        WHERE o.device_id = e.device_id AND o.device_channel_template_id = e.template_id AND o.sub_channel = 0
          AND o.date_time < e.first AND o.date_time >= e.first - interval ${sql.raw(`'${PREDECESSOR_LOOKBACK}'`)}
        ORDER BY o.date_time DESC LIMIT 1) q
      UNION ALL SELECT * FROM window_readings
      ${next}
    ),
    pairs AS (
      SELECT device_id, template_id, date_time AS r_time, value AS r_value,
             lag(date_time) OVER w AS p_time, lag(value) OVER w AS p_value
      FROM points WINDOW w AS (PARTITION BY device_id, template_id ORDER BY date_time)
    ),
    parts AS (
      SELECT s.device_id, k.code, s.p_value AS watts,
        CASE WHEN k.code = 'power' THEN ${nightDay(sql`s.p_time`)} ELSE ${nightDay(sql`s.r_time`)} END AS day,
        least(extract(epoch FROM (s.r_time - s.p_time)), ${MAX_READING_SPAN_SECONDS}) AS seconds,
        CASE WHEN k.unit = 'wh' THEN (s.r_value - s.p_value) / 1000.0 ELSE s.r_value - s.p_value END AS increase
      FROM pairs s JOIN kinds k ON k.id = s.template_id CROSS JOIN bounds b
      WHERE s.p_time IS NOT NULL
    ),
    per_day AS (
      SELECT device_id, day,
        sum(watts * seconds) FILTER (WHERE code = 'power') / 3600000.0 AS power_kwh,
        coalesce(sum(seconds) FILTER (WHERE code = 'power' AND watts > ${BURNING_WATTS}), 0) / 3600.0 AS burn_hours,
        sum(increase) FILTER (WHERE code = 'energy' AND increase >= 0) AS metered_kwh
      FROM parts ${onlyDays}
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
    INSERT INTO energy_daily AS d (account_id, device_id, day, energy_kwh, metered, power_kwh, metered_kwh, burn_hours,
                                   baseline_kwh, night_hours, computed_at)
    SELECT ${accountId}, p.device_id, p.day, coalesce(p.metered_kwh, p.power_kwh, 0), p.metered_kwh IS NOT NULL,
           p.power_kwh, p.metered_kwh, p.burn_hours, n.watts * n.hours / 1000.0, n.hours, now()
    FROM per_day p JOIN night n ON n.device_id = p.device_id AND n.day = p.day
    ON CONFLICT (device_id, day) DO UPDATE SET
      power_kwh = ${power}, metered_kwh = ${metered}, energy_kwh = coalesce(${metered}, ${power}, 0),
      metered = ${metered} IS NOT NULL, burn_hours = ${burn},
      baseline_kwh = excluded.baseline_kwh, night_hours = excluded.night_hours, computed_at = excluded.computed_at
    RETURNING day::text AS day`);
  return rowsOf<{ day: Day }>(result).map((r) => r.day);
}

/** The first and last of some days (ISO dates sort as text). */
function spanOf(days: readonly Day[]): { from: Day; to: Day } | undefined {
  if (!days.length) return undefined;
  let from = days[0] as Day;
  let to = from;
  for (const day of days) {
    if (day < from) from = day;
    if (day > to) to = day;
  }
  return { from, to };
}

/**
 * Rolls readings up into `energy_daily`, one row per device and lighting day of the account's
 * calendar (its time zone: `knownZone`, else accountTimeZone): day D runs from noon on D to noon on D + 1, so a night
 * is one row, like its baseline. Recomputes the days `from … to` whole from their readings (pairs
 * whose newer reading came before `until`), in the database: energy from the device's energy meter
 * channel when it reported one that day (the sum of its increases, so a meter reset loses nothing
 * but the reset), else from power × time; burn hours where power exceeded 6 W; and the baseline, the
 * rated power (the device's, else its model's) over that night's dark hours from the
 * Sunset/Sunrise table of the device's region's city. Idempotent. Returns the rows written.
 */
export async function rollUpEnergy(
  db: Db,
  accountId: number,
  from: Day,
  to: Day,
  until: Date = new Date(),
  knownZone?: string,
): Promise<number> {
  const zone = knownZone ?? (await accountTimeZone(db, accountId));
  const start = nightStart(from, zone);
  const end = nightStart(addDays(to, 1), zone);
  const written = await upsertPairs(db, {
    accountId,
    zone,
    from: start,
    to: end < until ? end : until,
    days: { from, to, until },
  });
  await rollUpMonths(db, accountId, from, to);
  return written.length;
}

/**
 * Adds the readings of one window (newer readings from `from` to `to`) to the account's days:
 * the next step after a rollup up to `from`. Not idempotent — the caller advances its mark in the
 * same transaction (EnergyEngine). Returns the days it touched, whose months the caller rolls up
 * (once for all its windows: rollUpMonths reads the whole month).
 */
export async function rollUpWindow(
  db: Db,
  accountId: number,
  zone: string,
  from: Date,
  to: Date,
): Promise<{ from: Day; to: Day } | undefined> {
  return spanOf(await upsertPairs(db, { accountId, zone, from, to }));
}

/** The span covering both (either may be missing). */
function joinSpans(a: { from: Day; to: Day } | undefined, b: { from: Day; to: Day } | undefined) {
  if (!a || !b) return a ?? b;
  return spanOf([a.from, a.to, b.from, b.to]);
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

/** Readings younger than this are left to the next tick: a batch being stored is not half counted. */
export const SETTLE_MS = 60_000;
/**
 * The longest window one statement rolls up, so a statement's work stays small whatever the rate
 * (at 7,500 uplinks/s a 5-minute window took PostgreSQL 15–23 s beside the ingest, near the
 * statement timeout) and a tick that fell behind catches up in steps.
 */
export const WINDOW_MS = 60_000;
/** A closed lighting day is recomputed whole this long after it closed (readings that came late). */
export const REPAIR_AFTER_MS = 60 * 60_000;
/** A day recomputed whole may read a whole day of readings: it may take this long. */
const WHOLE_DAY_TIMEOUT = '10min';

interface Mark {
  rolledUntil: Date;
  repairedThrough: Day | null;
}

/**
 * Keeps `energy_daily` current from each account's mark (`energy_rollup_marks`): every few minutes
 * the readings from the mark up to a minute ago are added, window by window, each window in one
 * transaction with the mark's advance, so a reading is counted once however ticks, failures and
 * replicas fall. An account without a mark, or one more than a day behind, has yesterday and today
 * recomputed whole. An hour after a lighting day closes it is recomputed whole once, which counts
 * readings that arrived after their window (a backlog after an outage).
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
    const cutoff = new Date(now.getTime() - SETTLE_MS);
    // One account's failure (a day too large to recompute in time, say) holds up no other account.
    for (const a of accounts) await this.rollAccount(a.id, zones.get(a.id) as string, now, cutoff).catch(this.onError);
  }

  private async rollAccount(accountId: number, zone: string, now: Date, cutoff: Date): Promise<void> {
    const today = nightOf(now, zone);
    const yesterday = addDays(today, -1);
    // Yesterday counts as repaired once it has been closed long enough.
    const settled =
      now.getTime() >= nightStart(today, zone).getTime() + REPAIR_AFTER_MS ? yesterday : addDays(yesterday, -1);
    const mark = await this.markOf(this.db, accountId);
    if (!mark || mark.rolledUntil < nightStart(yesterday, zone)) {
      await this.locked(accountId, async (tx) => {
        await wholeDays(tx, accountId, zone, yesterday, today, cutoff);
        await this.setMark(tx, accountId, { rolledUntil: cutoff, repairedThrough: settled });
      });
      return;
    }
    let touched: { from: Day; to: Day } | undefined;
    try {
      for (let from = mark.rolledUntil; from < cutoff; ) {
        const to = new Date(Math.min(from.getTime() + WINDOW_MS, cutoff.getTime()));
        const advanced = await this.locked(accountId, async (tx, held) => {
          // Another replica moved the mark since it was read: it rolled this window.
          if (held?.rolledUntil.getTime() !== from.getTime()) return false;
          touched = joinSpans(touched, await rollUpWindow(tx, accountId, zone, from, to));
          await this.setMark(tx, accountId, { rolledUntil: to, repairedThrough: held.repairedThrough });
          return true;
        });
        if (!advanced) return;
        from = to;
      }
    } finally {
      // The months of the days this tick's windows added to, once; also after a failed window, so
      // the months hold what the committed windows added.
      if (touched) await rollUpMonths(this.db, accountId, touched.from, touched.to);
    }
    if ((mark.repairedThrough ?? '') < settled) {
      await this.locked(accountId, async (tx, held) => {
        if (!held || (held.repairedThrough ?? '') >= settled) return;
        // Up to the mark: pairs after it are the next windows'.
        await wholeDays(tx, accountId, zone, settled, settled, held.rolledUntil);
        await this.setMark(tx, accountId, { rolledUntil: held.rolledUntil, repairedThrough: settled });
      });
    }
  }

  private async markOf(db: Db, accountId: number, lock = false): Promise<Mark | undefined> {
    const [row] = rowsOf<{ rolled_until: string | Date; repaired_through: string | null }>(
      await db.execute(sql`SELECT rolled_until, repaired_through::text AS repaired_through FROM energy_rollup_marks
        WHERE account_id = ${accountId} ${lock ? sql`FOR UPDATE` : sql``}`),
    );
    return row && { rolledUntil: new Date(row.rolled_until), repairedThrough: row.repaired_through };
  }

  private async setMark(db: Db, accountId: number, mark: Mark): Promise<void> {
    await db.execute(sql`
      INSERT INTO energy_rollup_marks (account_id, rolled_until, repaired_through)
      VALUES (${accountId}, ${mark.rolledUntil.toISOString()}::timestamptz, ${mark.repairedThrough}::date)
      ON CONFLICT (account_id) DO UPDATE SET rolled_until = excluded.rolled_until, repaired_through = excluded.repaired_through`);
  }

  /** `work` in a transaction holding the account's mark row (when it has one). */
  private locked<T>(accountId: number, work: (tx: Db, held: Mark | undefined) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) =>
      work(tx as unknown as Db, await this.markOf(tx as unknown as Db, accountId, true)),
    );
  }
}

/** rollUpEnergy inside a transaction, allowed the time a whole day's readings take. */
async function wholeDays(tx: Db, accountId: number, zone: string, from: Day, to: Day, until: Date): Promise<void> {
  await tx.execute(sql`SET LOCAL statement_timeout = ${sql.raw(`'${WHOLE_DAY_TIMEOUT}'`)}`);
  await rollUpEnergy(tx, accountId, from, to, until, zone);
}
