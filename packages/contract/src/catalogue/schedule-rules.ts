import { type FieldError, isCalendarDate } from '../validation.ts';

/**
 * Rules across the fields of the schedule entities (task profiles, their timings and execution
 * periods, group–profile pairings): what one record may say without contradicting itself. The plan
 * (server engines/schedules) relies on them: a stored timing never holds two levels for one moment.
 */

type Errors = Record<string, FieldError> | undefined;
type Row = Record<string, unknown>;

/** A sun-anchored switch point lies at most this many minutes from its sunset or sunrise. */
export const MAX_SUN_OFFSET_MINUTES = 360;

const set = (v: unknown) => v !== undefined && v !== null && v !== '';

export const TIMING_SLOTS = ['on1', 'off1', 'on2', 'off2', 'on3', 'off3', 'on4', 'off4'] as const;
export type TimingSlot = (typeof TIMING_SLOTS)[number];

/** A slot's default level: an "on" without a value is full, an "off" is 0. */
export const slotLevel = (slot: TimingSlot, value: unknown): number =>
  typeof value === 'number' ? value : slot.startsWith('on') ? 100 : 0;

/** The moment a timing slot names, as a key: same key = same moment on every night. */
function momentKey(row: Row, slot: TimingSlot): string | undefined {
  const type = row[`${slot}Type`];
  if (type === 'custom') return set(row[`${slot}Time`]) ? `c:${String(row[`${slot}Time`]).slice(0, 5)}` : undefined;
  if (type === 'sunset' || type === 'sunrise') return `${type}:${Number(row[`${slot}Offset`] ?? 0)}`;
  return undefined;
}

/** Minutes after noon of a clock time: a night runs noon to noon. */
const nightMinutes = (time: string) => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return (h * 60 + m - 720 + 1440) % 1440;
};

/** Position of a moment within the night when it can be ordered against another of the same anchor. */
function position(key: string): { anchor: string; at: number } {
  const [anchor, rest] = key.split(/:(.*)/s) as [string, string];
  return anchor === 'c' ? { anchor, at: nightMinutes(rest) } : { anchor, at: Number(rest) };
}

/**
 * A timing's eight slots: each set slot needs its type (and a custom one its time); no two slots may
 * name the same moment with different levels; an on/off pair may not end where it starts, and two
 * pairs anchored alike (both clock times, or both the same sun event) may not overlap.
 */
export function timingConsistent(row: Row): Errors {
  const errors: Record<string, FieldError> = {};
  const seen = new Map<string, { slot: TimingSlot; level: number }>();
  for (const slot of TIMING_SLOTS) {
    const type = row[`${slot}Type`];
    if (!set(type)) {
      for (const part of ['Time', 'Value', 'Offset'])
        if (set(row[`${slot}${part}`])) errors[`${slot}Type`] = { key: 'validation.required' };
      continue;
    }
    if (type === 'custom' && !set(row[`${slot}Time`])) {
      errors[`${slot}Time`] = { key: 'validation.required' };
      continue;
    }
    const key = momentKey(row, slot);
    if (!key) continue;
    const level = slotLevel(slot, row[`${slot}Value`]);
    const earlier = seen.get(key);
    if (earlier && earlier.level !== level)
      errors[`${slot}Type`] = { key: 'validation.timingConflict', vars: { other: `${earlier.slot}Type` } };
    else if (!earlier) seen.set(key, { slot, level });
  }
  const windows: { n: number; from: { anchor: string; at: number }; to: { anchor: string; at: number } }[] = [];
  for (const n of [1, 2, 3, 4]) {
    const on = momentKey(row, `on${n}` as TimingSlot);
    const off = momentKey(row, `off${n}` as TimingSlot);
    if (!on || !off) continue;
    if (on === off) {
      errors[`off${n}Type`] ??= { key: 'validation.timingEmpty', vars: { other: `on${n}Type` } };
      continue;
    }
    windows.push({ n, from: position(on), to: position(off) });
  }
  for (const [i, a] of windows.entries()) {
    for (const b of windows.slice(i + 1)) {
      const anchors = new Set([a.from.anchor, a.to.anchor, b.from.anchor, b.to.anchor]);
      if (anchors.size !== 1) continue;
      if (a.from.at >= a.to.at || b.from.at >= b.to.at) continue;
      if (a.from.at < b.to.at && b.from.at < a.to.at)
        errors[`on${b.n}Type`] ??= { key: 'validation.timingOverlap', vars: { other: `on${a.n}Type` } };
    }
  }
  return Object.keys(errors).length ? errors : undefined;
}

/**
 * A pairing's own switch point: by the clock (mode time, method fixed, 00:00–23:59) or at sunset or
 * sunrise (mode sun) shifted by hour and minute, at most six hours either way.
 */
export function pairingConsistent(row: Row): Errors {
  const errors: Record<string, FieldError> = {};
  const { mode, method } = row;
  if (mode === 'time' && set(method) && method !== 'fixed')
    errors.method = { key: 'validation.methodForMode', vars: { other: 'mode' } };
  if (mode === 'sun' && method === 'fixed')
    errors.method = { key: 'validation.methodForMode', vars: { other: 'mode' } };
  const hour = Number(row.hour ?? 0);
  const minute = Number(row.minute ?? 0);
  if (method === 'sunset' || method === 'sunrise') {
    if (Math.sign(hour) * Math.sign(minute) < 0)
      errors.minute = { key: 'validation.sameSign', vars: { other: 'hour' } };
    else if (Math.abs(hour * 60 + minute) > MAX_SUN_OFFSET_MINUTES)
      errors.hour = { key: 'validation.sunOffset', vars: { max: MAX_SUN_OFFSET_MINUTES } };
  } else if (method === 'fixed') {
    if (hour < 0) errors.hour = { key: 'validation.min', vars: { min: 0 } };
    if (minute < 0) errors.minute = { key: 'validation.min', vars: { min: 0 } };
  }
  return Object.keys(errors).length ? errors : undefined;
}

const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Off days are weekday names; custom dates are real dates (2026-02-30 is not), needed for a custom cycle. */
export function profileDaysConsistent(row: Row): Errors {
  const errors: Record<string, FieldError> = {};
  const offDays = row.offDays;
  if (set(offDays) && (!Array.isArray(offDays) || offDays.some((d) => !WEEKDAY_NAMES.includes(String(d)))))
    errors.offDays = { key: 'validation.weekdays' };
  const dates = row.customDates;
  if (set(dates)) {
    const bad = Array.isArray(dates)
      ? dates.find((d) => typeof d !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(d) || !isCalendarDate(d))
      : dates;
    if (bad !== undefined)
      errors.customDates = { key: 'validation.dateList', vars: { item: String(bad).slice(0, 40) } };
    else if ((dates as unknown[]).length > 366) errors.customDates = { key: 'validation.max', vars: { max: 366 } };
  } else if (row.cyclicType === 'custom') errors.customDates = { key: 'validation.required' };
  return Object.keys(errors).length ? errors : undefined;
}

/** A period by the clock must not end where it starts (a sunset/sunrise end moves every day). */
export function periodConsistent(row: Row): Errors {
  if (row.isSunset || row.isSunrise) return undefined;
  if (set(row.startTime) && String(row.startTime).slice(0, 5) === String(row.endTime ?? '').slice(0, 5))
    return { endTime: { key: 'validation.timingEmpty', vars: { other: 'startTime' } } };
  return undefined;
}
