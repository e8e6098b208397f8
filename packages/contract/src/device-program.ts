import { WEEKDAYS } from './catalogue/tasks.ts';
import { ConfigEncodingError, checkProgram, type DeviceProgram, type ProgramStep } from './device-config.ts';

/**
 * A deployed program's compact rules from a task profile and its timings, and how a controller runs
 * them: the switch points of one night (noon to noon, local) and the level at any instant. The
 * server's plan function computes concrete nights for previews and server-timed devices; a controller
 * that keeps a schedule gets these rules and computes its nights itself.
 */

export interface ProfileForProgram {
  operation?: string | null;
  dimLevel?: number | null;
  /** Weekday names (`monday` … `sunday`) on which the profile does not run. */
  offDays?: unknown;
}

/** A task-profile-timing row: on/off pairs 1–4 (`on1Type`, `on1Time`, `on1Value`, optional `on1Offset`…). */
export type TimingForProgram = Record<string, unknown>;

export interface ProgramOptions {
  version: number;
  location?: { lat: number; lon: number };
  utcOffsetMinutes: number;
}

const minutesOfTime = (value: unknown): number | undefined => {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(value);
  if (!match) return undefined;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes < 1440 ? minutes : undefined;
};

/**
 * The program of a profile: each on/off of its timings becomes a switch point (`custom` at its
 * time; `sunset`/`sunrise` at the event plus the timing's `…Offset` minutes, 0 without one), an
 * on's level its value (else the profile's dim level for dimming, 100 otherwise), an off's its value
 * or 0; the weekday mask leaves out the profile's off days. Throws ConfigEncodingError when a timing
 * is incomplete or the result does not fit one payload.
 */
export function programFromProfile(
  profile: ProfileForProgram,
  timings: readonly TimingForProgram[],
  options: ProgramOptions,
): DeviceProgram {
  const onLevel = profile.operation === 'off' ? 0 : profile.operation === 'dimming' ? (profile.dimLevel ?? 100) : 100;
  const steps: ProgramStep[] = [];
  timings.forEach((timing, t) => {
    for (let n = 1; n <= 4; n++) {
      for (const side of ['on', 'off'] as const) {
        const type = timing[`${side}${n}Type`];
        if (type === null || type === undefined) continue;
        const field = `timings.${t}.${side}${n}`;
        let step: Omit<ProgramStep, 'level'>;
        if (type === 'custom') {
          const minutes = minutesOfTime(timing[`${side}${n}Time`]);
          if (minutes === undefined) throw new ConfigEncodingError(`${field}Time`, 'a custom time needs its time');
          step = { anchor: 'fixed', minutes };
        } else if (type === 'sunset' || type === 'sunrise') {
          const offset = timing[`${side}${n}Offset`];
          step = { anchor: type, minutes: typeof offset === 'number' ? offset : 0 };
        } else throw new ConfigEncodingError(`${field}Type`, 'sunrise, sunset or custom');
        const value = timing[`${side}${n}Value`];
        const level = typeof value === 'number' ? value : side === 'on' ? onLevel : 0;
        steps.push({ ...step, level });
      }
    }
  });
  if (!steps.length) throw new ConfigEncodingError('timings', 'the profile has no on/off timings to deploy');
  const offDays = Array.isArray(profile.offDays) ? profile.offDays : [];
  let weekdays = 0;
  WEEKDAYS.forEach((day, bit) => {
    if (!offDays.includes(day)) weekdays |= 1 << bit;
  });
  const program: DeviceProgram = {
    version: options.version,
    utcOffsetMinutes: options.utcOffsetMinutes,
    weekdays,
    steps,
    ...(options.location ? { location: options.location } : {}),
  };
  checkProgram(program);
  return program;
}

/** Sunset and sunrise of a calendar date at the controller's place (null: polar day or night). */
export type SunTimesOf = (date: { year: number; month: number; day: number }) => {
  sunset: Date | null;
  sunrise: Date | null;
};

export interface SwitchPoint {
  at: Date;
  level: number;
}

const DAY_MS = 86_400_000;

/** The local calendar date `days` after the one of `at`'s local time. */
function localDate(atMs: number, offsetMinutes: number, days = 0) {
  const d = new Date(atMs + offsetMinutes * 60_000 + days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * The switch points of the night that begins at local noon of `date`, in time order. A night whose
 * evening falls on a weekday outside the mask is one point: off at its noon. A sun step without its
 * event (polar day or night) is left out.
 */
export function nightSwitchPoints(
  program: DeviceProgram,
  date: { year: number; month: number; day: number },
  sun: SunTimesOf,
): SwitchPoint[] {
  const offsetMs = program.utcOffsetMinutes * 60_000;
  const midnight = Date.UTC(date.year, date.month - 1, date.day) - offsetMs;
  const weekdayBit = (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
  if (!(program.weekdays & (1 << weekdayBit))) return [{ at: new Date(midnight + DAY_MS / 2), level: 0 }];
  const evening = sun(date).sunset;
  const morning = sun(localDate(midnight + DAY_MS + DAY_MS / 2, program.utcOffsetMinutes)).sunrise;
  const points: SwitchPoint[] = [];
  for (const step of program.steps) {
    let at: number | undefined;
    if (step.anchor === 'fixed') at = midnight + step.minutes * 60_000 + (step.minutes < 720 ? DAY_MS : 0);
    else {
      const event = step.anchor === 'sunset' ? evening : morning;
      if (event) at = event.getTime() + step.minutes * 60_000;
    }
    if (at !== undefined) points.push({ at: new Date(at), level: step.level });
  }
  return points.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The level a program sets at `at`: the last switch point at or before it (this night or the last). */
export function programLevelAt(program: DeviceProgram, at: Date, sun: SunTimesOf): number {
  const t = at.getTime();
  // The night `at` belongs to began at the latest local noon.
  const local = localDate(t - DAY_MS / 2, program.utcOffsetMinutes);
  const midnight = Date.UTC(local.year, local.month - 1, local.day);
  const previous = localDate(midnight - DAY_MS, 0);
  const points = [...nightSwitchPoints(program, previous, sun), ...nightSwitchPoints(program, local, sun)];
  let level = 0;
  let latest = Number.NEGATIVE_INFINITY;
  for (const point of points) {
    const time = point.at.getTime();
    if (time <= t && time >= latest) {
      latest = time;
      level = point.level;
    }
  }
  return level;
}

/** The factory program of a controller never deployed to (version 0): on at sunset, off at sunrise. */
export const FACTORY_PROGRAM: DeviceProgram = {
  version: 0,
  utcOffsetMinutes: 0,
  weekdays: 0x7f,
  steps: [
    { anchor: 'sunset', minutes: 0, level: 100 },
    { anchor: 'sunrise', minutes: 0, level: 0 },
  ],
};
