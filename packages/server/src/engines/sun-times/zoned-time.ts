/**
 * Local calendar days and clock times in an IANA zone, from the runtime's Intl data. Instants are
 * UTC `Date`s; a local date is `YYYY-MM-DD`; a local time is minutes after local midnight.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function partsOf(instant: Date, timeZone: string): Parts {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out as unknown as Parts;
}

/** The zone's offset from UTC at an instant, in minutes (Istanbul: 180). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const p = partsOf(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Per zone, the local day last asked for, from its first instant to the next day's: the engines ask
 * for the local date of every reading (a night's plan, a day's sun), nearly always the same day's.
 */
const lastDays = new Map<string, { from: number; until: number; date: string }>();

/** The local calendar date of an instant. */
export function localDate(instant: Date, timeZone: string): string {
  const t = instant.getTime();
  const known = lastDays.get(timeZone);
  if (known && t >= known.from && t < known.until) return known.date;
  const p = partsOf(instant, timeZone);
  const date = `${p.year}-${pad(p.month)}-${pad(p.day)}`;
  if (Number.isNaN(t)) return date;
  // The first instant the clock shows the date's midnight (or, when it skips midnight, the time after
  // the gap) to the next date's: every instant between shows this date.
  const from = zonedInstant(date, 0, timeZone).getTime();
  const until = zonedInstant(addDays(date, 1), 0, timeZone).getTime();
  if (t >= from && t < until) lastDays.set(timeZone, { from, until, date });
  return date;
}

/** The local clock time of an instant, `HH:MM` (or `HH:MM:SS` with seconds). */
export function localTime(instant: Date, timeZone: string, seconds = false): string {
  const p = partsOf(instant, timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}${seconds ? `:${pad(p.second)}` : ''}`;
}

/**
 * The instant a local clock shows `minutes` after midnight of `date`. A time the clock skips (spring
 * forward) is the same length of time after the gap (02:30 → 03:30 summer time); a time it shows
 * twice (fall back) is its first showing. `minutes` may pass 1440 (next day) or go below 0.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  // Plans ask for the same few local times of the same dates for every device of a zone.
  const key = `${timeZone}|${date}|${minutes}`;
  const known = instants.get(key);
  if (known !== undefined) return new Date(known);
  if (instants.size > 100_000) instants.clear();
  const at = computeZonedInstant(date, minutes, timeZone);
  instants.set(key, at.getTime());
  return at;
}

const instants = new Map<string, number>();

function computeZonedInstant(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d) + minutes * 60000;
  // Offsets lie within ±14 h, and zones change offset months apart: the offsets 18 h either side
  // of the wall time are the two it can have.
  const early = offsetMinutes(new Date(wall - 18 * 3600000), timeZone);
  const late = offsetMinutes(new Date(wall + 18 * 3600000), timeZone);
  const valid = [early, late]
    .map((o) => wall - o * 60000)
    .filter((t) => wall - offsetMinutes(new Date(t), timeZone) * 60000 === t);
  // Shown twice: the first showing. Skipped: the old offset carries it past the gap.
  return new Date(valid.length ? Math.min(...valid) : wall - early * 60000);
}

/** A date `n` days after `date` (calendar arithmetic, no zone). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Whole days from `a` to `b`. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86400000);
}

/** ISO weekday of a date: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}
