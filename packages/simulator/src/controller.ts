import {
  type ConfigCommand,
  type ConfigOpName,
  type ConfigReport,
  type DeviceProgram,
  FACTORY_PROGRAM,
  programLevelAt,
  type SunTimesOf,
} from '@lampyr/contract';
import { getTimes } from 'suncalc';

/** Where a controller was provisioned (Kadıköy), for a program that names no place. */
export const PROVISIONED_PLACE = { lat: 40.9876, lon: 29.0253 };

/** What a controller keeps across a power cycle (the simulator's state file). */
export interface ControllerState {
  program: DeviceProgram;
  override: { level: number; until: string } | null;
  /** The level the program last set, so a restart does not undo a manual write until the next switch. */
  programLevel: number | null;
}

/** Sunset and sunrise by suncalc (upper limb at −0.833°); null on polar days and nights. */
export function sunTimesAt(place: { lat: number; lon: number }, utcOffsetMinutes: number): SunTimesOf {
  return ({ year, month, day }) => {
    // Local noon of that date: suncalc gives the events of the solar day around it.
    const noon = new Date(Date.UTC(year, month - 1, day, 12) - utcOffsetMinutes * 60_000);
    // suncalc 2 answers null for an event that does not happen (polar day or night).
    const times = getTimes(noon, place.lat, place.lon);
    const valid = (d: Date | null | undefined) => (d && !Number.isNaN(d.getTime()) ? d : null);
    return { sunset: valid(times.sunset), sunrise: valid(times.sunrise) };
  };
}

/**
 * The schedule-keeping side of a street-light controller: it runs its deployed program from its own
 * clock and sun calculation, obeys overrides until their time, and answers every configuration
 * command with a config report. `tick` is called by its owner (the fleet's timer); the level it
 * returns is what the lamp should be at now.
 */
export class Controller {
  program: DeviceProgram = FACTORY_PROGRAM;
  override: { level: number; until: Date } | null = null;
  /** The level the program set last (edge-triggered: a manual write holds until the next switch). */
  private programLevel: number | null = null;

  constructor(state?: ControllerState) {
    if (state) {
      this.program = state.program;
      this.override = state.override ? { level: state.override.level, until: new Date(state.override.until) } : null;
      this.programLevel = state.programLevel;
    }
  }

  state(): ControllerState {
    return {
      program: this.program,
      override: this.override ? { level: this.override.level, until: this.override.until.toISOString() } : null,
      programLevel: this.programLevel,
    };
  }

  /** The program's level now (the override's while it lasts). */
  scheduledLevel(now: Date): number {
    if (this.override && this.override.until > now) return this.override.level;
    const place = this.program.location ?? PROVISIONED_PLACE;
    return programLevelAt(this.program, now, sunTimesAt(place, this.program.utcOffsetMinutes));
  }

  /**
   * The level the lamp must change to now, or undefined when nothing changed since the last tick:
   * an override that ended is dropped here, and the program resumes.
   */
  tick(now: Date): number | undefined {
    if (this.override && this.override.until <= now) {
      this.override = null;
      this.programLevel = null;
    }
    const level = this.scheduledLevel(now);
    if (level === this.programLevel) return undefined;
    this.programLevel = level;
    return level;
  }

  /** Carries a command out; `lampLevel` is read after it (the report states the lamp as it is). */
  apply(command: ConfigCommand | undefined, now: Date): { answers?: ConfigOpName; ok: boolean; changed: boolean } {
    if (!command) return { ok: false, changed: false };
    switch (command.op) {
      case 'deploy':
        this.program = command.program;
        this.programLevel = null;
        return { answers: 'deploy', ok: true, changed: true };
      case 'override':
        if (command.until <= now) return { answers: 'override', ok: false, changed: false };
        this.override = { level: command.level, until: command.until };
        this.programLevel = null;
        return { answers: 'override', ok: true, changed: true };
      case 'cancel-override':
        this.override = null;
        this.programLevel = null;
        return { answers: 'cancel-override', ok: true, changed: true };
      case 'reset-device-config':
        this.program = FACTORY_PROGRAM;
        this.override = null;
        this.programLevel = null;
        return { answers: 'reset-device-config', ok: true, changed: true };
      default:
        // A config request changes nothing; clearing device data is the owner's (counters).
        return { answers: command.op, ok: true, changed: false };
    }
  }

  report(now: Date, lampLevel: number, answered?: { answers?: ConfigOpName; ok: boolean }): ConfigReport {
    return {
      ...(answered?.answers ? { answers: answered.answers } : {}),
      ok: answered?.ok ?? true,
      version: this.program.version,
      level: lampLevel,
      override: this.override && this.override.until > now ? { ...this.override } : null,
      clock: now,
    };
  }
}
