import { slotLevel, TIMING_SLOTS, type TimingSlot } from '@lampyr/contract';
import type { SunDay } from '../sun-times/sun-day.ts';
import { addDays, daysBetween, isoWeekday, localDate, zonedInstant } from '../sun-times/zoned-time.ts';
import { groupHasDevice, type PlanDevice, type PlanGroup } from './members.ts';

/**
 * What one device does on one night, from its schedule entities — the one function preview,
 * scheduler, deployment and savings estimates all call. Pure: everything it reads is in its inputs.
 *
 * - A night runs from local noon of its date to local noon of the next date.
 * - Applicable pairings: of the device's groups (not draft or paused), within their start/end day of
 *   the month unless Unlimited, on holidays only / weekends only / not on weekends as flagged, with
 *   a profile that runs that date (start/end date, start/end day, off days, cycle). The highest
 *   priority wins the whole night (ties: the profile's priority, then the older pairing).
 * - The winner's program: the profile's timings (the device's own, else its model's, else the
 *   generic ones) and execution periods; a profile with neither runs the pairing's own switch point
 *   (mode, method, hour, minute, operation).
 * - Sun-anchored moments move with the sun; in polar night sunset is the night's start and sunrise
 *   its end (lamps on throughout); in polar day both are the solar midnight (lamps stay off).
 * - A program that switches a lamp on and never says what to do after sunrise is switched off at
 *   sunrise (the dawn rule), so no lamp burns through the day by omission.
 * - Overrides (operator levels until a time) replace the program inside their window, except on a
 *   night whose winning pairing has EnforceExecution.
 */

export interface PlanPairing {
  id: number;
  taskGroupId: number;
  taskProfileId: number;
  mode: string;
  method: string;
  operation: string;
  hour: number;
  minute: number;
  startDay: number;
  endDay: number;
  priority: number;
  unlimited: boolean;
  holidaysOnly: boolean;
  weekendsOnly: boolean;
  excludeWeekends: boolean;
  enforceExecution: boolean;
}

export interface PlanProfile {
  id: number;
  operation: string;
  dimLevel: number | null;
  priority: number;
  cyclicType: string | null;
  offDays: string[] | null;
  customDates: string[] | null;
  startDate: string | null;
  endDate: string | null;
  startDay: number | null;
  endDay: number | null;
  cycleDay: number | null;
}

/** A timing row as stored: `on1Type`, `on1Time`, `on1Offset`, `on1Value` … `off4Value`. */
export interface PlanTiming {
  id: number;
  taskProfileId: number;
  deviceTypeModelId: number | null;
  deviceId: number | null;
  channelTemplateId: number | null;
  [slotField: string]: unknown;
}

export interface PlanPeriod {
  id: number;
  taskProfileId: number;
  isSunset: boolean;
  isSunrise: boolean;
  startTime: string;
  endTime: string;
  value: number | null;
}

export interface PlanOverride {
  from: Date;
  until: Date;
  level: number;
}

export interface PlanInputs {
  /** The device's IANA zone: its local dates and clock times. */
  timeZone: string;
  /** Sun times over the device on a local date. */
  sun(date: string): SunDay;
  /** Public holidays of the device's country. */
  isHoliday(date: string): boolean;
  groups: PlanGroup[];
  pairings: PlanPairing[];
  profiles: PlanProfile[];
  timings: PlanTiming[];
  periods: PlanPeriod[];
  overrides: PlanOverride[];
}

export type RuleKind = 'timing' | 'period' | 'pairing' | 'dawn' | 'override';

export interface SwitchRule {
  kind: RuleKind;
  pairingId: number | null;
  profileId: number | null;
  timingId: number | null;
  periodId: number | null;
  groupId: number | null;
  /** The timing slot (`on1` … `off4`) a timing's point comes from. */
  slot?: TimingSlot;
  /** The channel template the timing names, when it names one. */
  channelTemplateId?: number | null;
}

export interface SwitchPoint {
  at: Date;
  /** 0 (off) … 100. */
  level: number;
  rule: SwitchRule;
}

export interface NightPlan {
  /** The local date whose noon starts the night. */
  night: string;
  start: Date;
  end: Date;
  /** The level the previous night left the lamp at. */
  levelAtStart: number;
  /** Only the changes: each point sets a level different from the one before. */
  switchPoints: SwitchPoint[];
  /** Every point the night's rules name, in time order, changes or not (one per moment). */
  program: SwitchPoint[];
  /** The pairing that won the night, if any applied. */
  winner: { pairingId: number; profileId: number; groupId: number; priority: number } | null;
  /** The sun events the night used (null in polar day/night). */
  sunset: Date | null;
  sunrise: Date | null;
  polarDay: boolean;
  polarNight: boolean;
}

const NOON = 12 * 60;
const minutesOf = (time: string) => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
};
const dayOfMonth = (date: string) => Number(date.slice(8, 10));
const isWeekend = (date: string) => isoWeekday(date) >= 6;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Day of month within [from, to]; a range like 25…5 wraps over the month's end. */
function inDayRange(day: number, from: number | null, to: number | null): boolean {
  if (from === null && to === null) return true;
  const a = from ?? 1;
  const b = to ?? 31;
  return a <= b ? day >= a && day <= b : day >= a || day <= b;
}

/** Whether a profile runs on a local date. */
export function profileRuns(profile: PlanProfile, date: string): boolean {
  if (profile.startDate && date < profile.startDate) return false;
  if (profile.endDate && date > profile.endDate) return false;
  if (!inDayRange(dayOfMonth(date), profile.startDay, profile.endDay)) return false;
  if (profile.offDays?.includes(WEEKDAYS[isoWeekday(date) - 1] as string)) return false;
  switch (profile.cyclicType) {
    case 'odd':
      return dayOfMonth(date) % 2 === 1;
    case 'even':
      return dayOfMonth(date) % 2 === 0;
    case 'cyclic': {
      const every = Math.max(1, profile.cycleDay ?? 1);
      const from = profile.startDate ?? '2000-01-01';
      return daysBetween(from, date) % every === 0;
    }
    case 'custom':
      return profile.customDates?.includes(date) ?? false;
    default:
      return true;
  }
}

/** Whether a pairing's own calendar lets it run on a local date. */
export function pairingRuns(pairing: PlanPairing, date: string, holiday: boolean): boolean {
  if (!pairing.unlimited && !inDayRange(dayOfMonth(date), pairing.startDay, pairing.endDay)) return false;
  if (pairing.holidaysOnly && !holiday) return false;
  if (pairing.weekendsOnly && !isWeekend(date)) return false;
  if (pairing.excludeWeekends && isWeekend(date)) return false;
  return true;
}

interface Anchors {
  start: Date;
  end: Date;
  sunset: Date;
  sunrise: Date;
  sunsetOf: SunDay;
  sunriseOf: SunDay;
}

function anchorsOf(night: string, inputs: PlanInputs): Anchors {
  const start = zonedInstant(night, NOON, inputs.timeZone);
  const end = zonedInstant(addDays(night, 1), NOON, inputs.timeZone);
  const evening = inputs.sun(night);
  const morning = inputs.sun(addDays(night, 1));
  // Polar night: dark from the night's start to its end. Polar day: no dark at all, so dusk and
  // dawn meet at the solar midnight.
  const sunset = evening.sunset ?? (evening.polarNight ? start : morning.nadir);
  const sunrise = morning.sunrise ?? (morning.polarNight ? end : morning.nadir);
  return { start, end, sunset, sunrise: later(sunrise, sunset), sunsetOf: evening, sunriseOf: morning };
}

/** A clock time within the night: from noon on the night's date, before noon on the next. */
function clockMoment(night: string, time: string, timeZone: string): Date {
  const minutes = minutesOf(time);
  return zonedInstant(minutes >= NOON ? night : addDays(night, 1), minutes, timeZone);
}

const shift = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60000);
const later = (a: Date, b: Date) => new Date(Math.max(a.getTime(), b.getTime()));
const earlier = (a: Date, b: Date) => new Date(Math.min(a.getTime(), b.getTime()));

type Draft = Omit<SwitchPoint, 'at'> & { at: Date | undefined };

/** The timings that apply to the device: its own, else its model's, else the profile's generic ones. */
function timingsFor(device: PlanDevice, profileId: number, timings: PlanTiming[]): PlanTiming[] {
  const mine = timings.filter((t) => t.taskProfileId === profileId);
  const own = mine.filter((t) => t.deviceId === device.id);
  if (own.length) return own;
  const model = mine.filter((t) => t.deviceId === null && t.deviceTypeModelId === device.deviceTypeModelId);
  if (model.length) return model;
  return mine.filter((t) => t.deviceId === null && t.deviceTypeModelId === null);
}

function programOf(
  device: PlanDevice,
  night: string,
  pairing: PlanPairing,
  profile: PlanProfile,
  inputs: PlanInputs,
  a: Anchors,
): Draft[] {
  const base = {
    pairingId: pairing.id,
    profileId: profile.id,
    groupId: pairing.taskGroupId,
    timingId: null,
    periodId: null,
  };
  const drafts: Draft[] = [];
  for (const timing of timingsFor(device, profile.id, inputs.timings)) {
    for (const slot of TIMING_SLOTS) {
      const type = timing[`${slot}Type`];
      const offset = Number(timing[`${slot}Offset`] ?? 0);
      const time = timing[`${slot}Time`];
      const at =
        type === 'sunset'
          ? shift(a.sunset, offset)
          : type === 'sunrise'
            ? shift(a.sunrise, offset)
            : type === 'custom' && typeof time === 'string'
              ? clockMoment(night, time, inputs.timeZone)
              : undefined;
      if (!at) continue;
      drafts.push({
        at,
        level: slotLevel(slot, timing[`${slot}Value`]),
        rule: {
          ...base,
          kind: 'timing',
          timingId: timing.id,
          slot,
          channelTemplateId: timing.channelTemplateId,
        },
      });
    }
  }
  for (const period of inputs.periods.filter((p) => p.taskProfileId === profile.id)) {
    const rule = { ...base, kind: 'period' as const, periodId: period.id };
    const from = period.isSunset ? a.sunset : clockMoment(night, period.startTime, inputs.timeZone);
    const until = period.isSunrise ? a.sunrise : clockMoment(night, period.endTime, inputs.timeZone);
    drafts.push({ at: from, level: period.value ?? 100, rule });
    drafts.push({ at: until, level: 0, rule });
  }
  if (drafts.length) return drafts;
  // A profile with neither timings nor periods runs its pairing's own switch point.
  const offset = pairing.hour * 60 + pairing.minute;
  const at =
    pairing.method === 'sunset'
      ? shift(a.sunset, offset)
      : pairing.method === 'sunrise'
        ? shift(a.sunrise, offset)
        : clockMoment(
            night,
            `${String(Math.max(0, pairing.hour)).padStart(2, '0')}:${String(Math.max(0, pairing.minute)).padStart(2, '0')}`,
            inputs.timeZone,
          );
  const level = pairing.operation === 'off' ? 0 : pairing.operation === 'dimming' ? (profile.dimLevel ?? 50) : 100;
  return [{ at, level, rule: { ...base, kind: 'pairing' } }];
}

/** The pairing that wins a night for a device, with its profile. */
export function winnerOf(
  device: PlanDevice,
  night: string,
  inputs: Pick<PlanInputs, 'groups' | 'pairings' | 'profiles' | 'isHoliday'>,
): { pairing: PlanPairing; profile: PlanProfile } | undefined {
  const holiday = inputs.isHoliday(night);
  const groups = new Set(inputs.groups.filter((g) => groupHasDevice(g, device)).map((g) => g.id));
  const profiles = new Map(inputs.profiles.map((p) => [p.id, p]));
  let best: { pairing: PlanPairing; profile: PlanProfile } | undefined;
  for (const pairing of inputs.pairings) {
    if (!groups.has(pairing.taskGroupId)) continue;
    const profile = profiles.get(pairing.taskProfileId);
    if (!profile || !pairingRuns(pairing, night, holiday) || !profileRuns(profile, night)) continue;
    const better =
      !best ||
      pairing.priority > best.pairing.priority ||
      (pairing.priority === best.pairing.priority &&
        (profile.priority > best.profile.priority ||
          (profile.priority === best.profile.priority && pairing.id < best.pairing.id)));
    if (better) best = { pairing, profile };
  }
  return best;
}

/** The night's program as points in time order, clamped to the night, with the dawn rule applied. */
function scheduledPoints(device: PlanDevice, night: string, inputs: PlanInputs, a: Anchors) {
  const won = winnerOf(device, night, inputs);
  if (!won) return { won, points: [] as SwitchPoint[] };
  const drafts = programOf(device, night, won.pairing, won.profile, inputs, a);
  const points: SwitchPoint[] = [];
  for (const [order, d] of drafts.entries()) {
    if (!d.at || Number.isNaN(d.at.getTime()) || d.at >= a.end) continue;
    points.push({ ...d, at: later(d.at, a.start), rule: { ...d.rule }, order } as SwitchPoint & {
      order: number;
    });
  }
  // Time order; at one moment the later slot wins (it is applied last).
  points.sort(
    (x, y) =>
      x.at.getTime() - y.at.getTime() ||
      (x as unknown as { order: number }).order - (y as unknown as { order: number }).order,
  );
  for (const p of points) delete (p as unknown as { order?: number }).order;
  const onLeft = points.length > 0 && (points.at(-1) as SwitchPoint).level > 0;
  const saysAfterSunrise = points.some((p) => p.at > a.sunrise);
  if (onLeft && !saysAfterSunrise && a.sunrise < a.end) {
    const last = points.at(-1) as SwitchPoint;
    points.push({
      at: a.sunrise,
      level: 0,
      rule: { ...last.rule, kind: 'dawn', timingId: null, periodId: null, slot: undefined },
    });
  }
  return { won, points };
}

/** Replaces the program inside each override's window with the override's level. */
function applyOverrides(points: SwitchPoint[], overrides: PlanOverride[], a: Anchors, levelAtStart: number) {
  let out = points;
  for (const o of [...overrides].sort((x, y) => x.from.getTime() - y.from.getTime())) {
    const from = later(o.from, a.start);
    const until = earlier(o.until, a.end);
    if (from >= until) continue;
    const resume = [...out.filter((p) => p.at <= until)].pop()?.level ?? levelAtStart;
    const rule: SwitchRule = {
      kind: 'override',
      pairingId: null,
      profileId: null,
      timingId: null,
      periodId: null,
      groupId: null,
    };
    const kept = out.filter((p) => p.at < from || p.at > until);
    const resumeRule = [...out.filter((p) => p.at <= until)].pop()?.rule ?? rule;
    out = [
      ...kept.filter((p) => p.at < from),
      { at: from, level: o.level, rule },
      ...(until < a.end ? [{ at: until, level: resume, rule: resumeRule }] : []),
      ...kept.filter((p) => p.at > until),
    ];
  }
  return out;
}

/** The plan of one device for the night starting at local noon of `night` (YYYY-MM-DD). */
export function planNight(device: PlanDevice, night: string, inputs: PlanInputs): NightPlan {
  const a = anchorsOf(night, inputs);
  const previous = anchorsOf(addDays(night, -1), inputs);
  const before = scheduledPoints(device, addDays(night, -1), inputs, previous).points;
  const levelAtStart = before.length ? (before.at(-1) as SwitchPoint).level : 0;
  const { won, points } = scheduledPoints(device, night, inputs, a);
  const overridden = won?.pairing.enforceExecution ? points : applyOverrides(points, inputs.overrides, a, levelAtStart);
  // At one moment the last point stands; then only changes: a point setting the level in force says nothing.
  const merged: SwitchPoint[] = [];
  for (const p of overridden) {
    if (merged.length && (merged.at(-1) as SwitchPoint).at.getTime() === p.at.getTime()) merged.pop();
    merged.push(p);
  }
  const switchPoints: SwitchPoint[] = [];
  let level = levelAtStart;
  for (const p of merged) {
    if (p.level === level) continue;
    switchPoints.push(p);
    level = p.level;
  }
  return {
    night,
    start: a.start,
    end: a.end,
    levelAtStart,
    switchPoints,
    program: merged,
    winner: won
      ? {
          pairingId: won.pairing.id,
          profileId: won.profile.id,
          groupId: won.pairing.taskGroupId,
          priority: won.pairing.priority,
        }
      : null,
    sunset: a.sunsetOf.sunset,
    sunrise: a.sunriseOf.sunrise,
    polarDay: a.sunsetOf.polarDay || a.sunriseOf.polarDay,
    polarNight: a.sunsetOf.polarNight || a.sunriseOf.polarNight,
  };
}

/** The night (its local date) an instant falls in: noon to noon. */
export function nightOf(instant: Date, timeZone: string): string {
  const date = localDate(instant, timeZone);
  return instant < nightStart(date, timeZone) ? addDays(date, -1) : date;
}

/** The instant a night (lighting day) begins: noon of its date in the zone. */
export function nightStart(night: string, timeZone: string): Date {
  return zonedInstant(night, NOON, timeZone);
}

/** Hours a lamp burns in a night, and its level-weighted hours (100 % for an hour = 1). */
export function burnOf(plan: NightPlan): { burnHours: number; fullPowerHours: number } {
  let burn = 0;
  let full = 0;
  let level = plan.levelAtStart;
  let from = plan.start.getTime();
  for (const p of [...plan.switchPoints, { at: plan.end, level: 0 }]) {
    const hours = (p.at.getTime() - from) / 3600000;
    if (level > 0) burn += hours;
    full += (hours * level) / 100;
    level = p.level;
    from = p.at.getTime();
  }
  return { burnHours: burn, fullPowerHours: full };
}
