import { WEEKDAYS } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import { CONFIG_TARGET_COLUMNS, type ConfigTarget } from '../../data/config-commands.ts';
import { cancelOverrides, holdLights } from '../../data/override-commands.ts';
import type { Db } from '../../db/connect.ts';
import type { CommandEvents } from '../../events/command-events.ts';
import { compileFormula, type Formula } from '../../ingest/formula.ts';
import type { CommittedReading } from '../alarms/alarm-engine.ts';
import { type Condition, holds } from '../alarms/conditions.ts';
import { addDays, isoWeekday, localDate, localTime, zonedInstant } from '../sun-times/zoned-time.ts';

const rowsOf = <T = Record<string, unknown>>(result: unknown) => (result as { rows: T[] }).rows;

/** The channel an autonomous profile watches: the light's ambient light sensor. */
export const SENSOR_CHANNEL_CODE = 'lux';
/** The level an autonomous profile switches its lights to while its condition holds. */
export const AUTONOMOUS_LEVEL = 100;
/** How long a switch holds before it is re-examined when the profile names no period (minutes). */
const DEFAULT_PERIOD_MINUTES = 60;

interface Profile {
  id: number;
  accountId: number;
  name: string;
  /** Minutes after local midnight; the window wraps past midnight when end ≤ start. */
  start: number;
  end: number;
  delayMs: number;
  bounds: { condition: Condition; value: number; value2: number; threshold: number };
  formula: Formula;
  deviceTypeId: number | null;
  /** ISO weekday 1–7 the window opens on, or every day. */
  weekday: number | null;
  periodMinutes: number;
}

interface Light extends ConfigTarget {
  deviceTypeId: number | null;
}

interface Hold {
  overrideId: number;
  until: number;
}

export interface AutonomousEngineOptions {
  db: Db;
  commands: CommandEvents;
  now(): Date;
  /** How often profiles and lights are re-read besides the command events (ms). */
  refreshMs?: number;
  onError?(error: unknown): void;
}

const minutesOf = (time: string) => {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return h * 60 + m;
};

/**
 * The instant the window holding `at` ends, or undefined when `at` is outside it. `start`/`end` are
 * minutes after local midnight in `timeZone`; end ≤ start wraps past midnight (00:00–00:00 is the
 * whole day); `weekday` (ISO 1–7) names the local date the window opens on.
 */
export function autonomousWindowEnd(
  window: { start: number; end: number; weekday: number | null },
  at: Date,
  timeZone: string,
): Date | undefined {
  const today = localDate(at, timeZone);
  const minute = minutesOf(localTime(at, timeZone));
  const wraps = window.end <= window.start;
  let opened: string | undefined;
  if (!wraps) opened = minute >= window.start && minute < window.end ? today : undefined;
  else if (minute >= window.start) opened = today;
  else if (minute < window.end) opened = addDays(today, -1);
  if (opened === undefined) return undefined;
  if (window.weekday !== null && isoWeekday(opened) !== window.weekday) return undefined;
  return zonedInstant(wraps ? addDays(opened, 1) : opened, window.end, timeZone);
}

/**
 * Autonomous profiles (SPEC "Autonomous profile", issue 12): within its window (StartTime…EndTime in
 * the light's local time, on its weekday when it names one), a light's ambient light sensor (the
 * `lux` channel, through the profile's formula of `x` when it has one) meeting the profile's
 * condition against its threshold for DelayTime seconds switches that light on — an override at
 * 100 % until the window ends or `period` minutes pass, whichever is first (re-made while the
 * condition still holds). The condition failing for DelayTime seconds cancels it, and the schedule
 * resumes. It acts on lights of the profile's device type (every light of the account when it names
 * none) when sensor control is on. Overrides carry the profile's id, so an active one is known again
 * after a restart; weather control has no weather source yet and is ignored.
 *
 * Readings reach it as the ingest commits them (the same hand-off as the alarm engine); what a
 * condition has held since is kept per worker, so with several ingest workers a light's readings
 * are judged by whichever worker its uplinks reach (one per device with MQTT shared subscriptions
 * keyed by client, not guaranteed: a split stream at worst delays a switch by DelayTime).
 */
export class AutonomousEngine {
  private profiles: Profile[] = [];
  private lights = new Map<number, Light>();
  private sensorTemplates = new Set<number>();
  /** Per `profile:device`: whether the condition held at the last reading and since when. */
  private readonly state = new Map<string, { met: boolean; since: number }>();
  private readonly holds = new Map<string, Hold>();
  private queue: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private readonly unsubscribe: (() => void)[] = [];
  private loaded?: Promise<void>;

  constructor(private readonly options: AutonomousEngineOptions) {}

  start(): void {
    this.loaded = this.refresh();
    this.timer = setInterval(() => {
      this.loaded = this.refresh();
    }, this.options.refreshMs ?? 60_000);
    this.timer.unref();
    for (const resource of ['autonomous', 'devices', 'device-channel-templates'])
      for (const action of ['create', 'update', 'delete'] as const)
        this.unsubscribe.push(
          this.options.commands.on(resource, action, () => {
            this.loaded = this.refresh();
          }),
        );
  }

  stop(): void {
    clearInterval(this.timer);
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** Waits for what has been handed over so far (tests). */
  async settled(): Promise<void> {
    await this.loaded;
    await this.queue;
  }

  onCommitted(readings: readonly CommittedReading[]): void {
    if (!this.profiles.length) return;
    const sensed = readings.filter((r) => this.sensorTemplates.has(r.templateId) && r.subChannel === 0);
    if (!sensed.length) return;
    this.queue = this.queue.then(() => this.evaluate(sensed)).catch((error) => this.options.onError?.(error));
  }

  private async refresh(): Promise<void> {
    try {
      const { db } = this.options;
      const profiles = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          SELECT id::int AS id, account_id::int AS account_id, name, start_time, end_time, delay_time, threshold,
                 condition, formula, device_type_id::int AS device_type_id, day, period
          FROM autonomous_profiles WHERE sensor_control AND condition IS NOT NULL AND threshold IS NOT NULL`),
      );
      this.profiles = profiles.flatMap((r) => {
        let formula: Formula;
        try {
          formula = compileFormula(r.formula as string | null);
        } catch {
          return []; // the catalogue refuses a bad formula; one stored before is skipped, not fatal
        }
        const day = WEEKDAYS.indexOf(r.day as (typeof WEEKDAYS)[number]);
        const threshold = Number(r.threshold);
        return [
          {
            id: Number(r.id),
            accountId: Number(r.account_id),
            name: String(r.name),
            start: minutesOf(String(r.start_time)),
            end: minutesOf(String(r.end_time)),
            delayMs: Number(r.delay_time ?? 0) * 1000,
            bounds: { condition: r.condition as Condition, value: threshold, value2: threshold, threshold: 0 },
            formula,
            deviceTypeId: r.device_type_id === null ? null : Number(r.device_type_id),
            weekday: day >= 0 ? day + 1 : null,
            periodMinutes: Number(r.period ?? DEFAULT_PERIOD_MINUTES),
          },
        ];
      });
      const accounts = [...new Set(this.profiles.map((p) => p.accountId))];
      if (!accounts.length) {
        this.lights.clear();
        this.sensorTemplates.clear();
        return;
      }
      const accountList = `{${accounts.join(',')}}`;
      const lights = rowsOf<Light>(
        await db.execute(sql`
          SELECT ${CONFIG_TARGET_COLUMNS}, m.device_type_id::int AS "deviceTypeId"
          FROM devices JOIN device_models m ON m.id = devices.device_type_model_id
          WHERE devices.is_active AND devices.account_id = ANY(${accountList}::bigint[])`),
      );
      this.lights = new Map(lights.map((l) => [l.id, l]));
      const templates = rowsOf<{ id: number }>(
        await db.execute(sql`
          SELECT id::int AS id FROM device_channel_templates WHERE channel_code = ${SENSOR_CHANNEL_CODE}`),
      );
      this.sensorTemplates = new Set(templates.map((t) => t.id));
      // The switches in force, also those made before a restart.
      const active = rowsOf<{ id: number; profile: number; device_ids: number[]; until: string | Date }>(
        await db.execute(sql`
          SELECT id::int AS id, autonomous_profile_id::int AS profile, device_ids, until FROM overrides
          WHERE status = 'active' AND autonomous_profile_id IS NOT NULL
            AND until > ${this.options.now().toISOString()}::timestamptz`),
      );
      this.holds.clear();
      for (const o of active)
        for (const device of o.device_ids ?? [])
          this.holds.set(`${o.profile}:${Number(device)}`, { overrideId: o.id, until: new Date(o.until).getTime() });
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  private async evaluate(readings: readonly CommittedReading[]): Promise<void> {
    await this.loaded;
    const now = this.options.now();
    // The newest reading of each light is what it senses now.
    const latest = new Map<number, CommittedReading>();
    for (const r of readings) {
      const seen = latest.get(r.deviceId);
      if (!seen || seen.dateTime <= r.dateTime) latest.set(r.deviceId, r);
    }
    for (const [deviceId, reading] of latest) {
      const light = this.lights.get(deviceId);
      if (!light) continue;
      for (const profile of this.profiles) {
        if (profile.accountId !== light.accountId) continue;
        if (profile.deviceTypeId !== null && profile.deviceTypeId !== light.deviceTypeId) continue;
        await this.judge(profile, light, reading, now);
      }
    }
  }

  private async judge(profile: Profile, light: Light, reading: CommittedReading, now: Date): Promise<void> {
    const key = `${profile.id}:${light.id}`;
    const hold = this.holds.get(key);
    if (hold && hold.until <= now.getTime()) this.holds.delete(key);
    const end = autonomousWindowEnd(profile, now, light.timeZone);
    if (!end) {
      this.state.delete(key); // outside the window nothing is judged; a switch ends at its until
      return;
    }
    const value = profile.formula(reading.value);
    const met = Number.isFinite(value) && holds(profile.bounds, value);
    const at = reading.dateTime.getTime();
    let state = this.state.get(key);
    if (!state || state.met !== met) {
      state = { met, since: at };
      this.state.set(key, state);
    }
    if (at - state.since < profile.delayMs) return;
    const held = this.holds.get(key);
    if (met && !held) {
      const until = new Date(Math.min(end.getTime(), now.getTime() + profile.periodMinutes * 60_000));
      const made = await holdLights(this.options.db, this.options.commands, {
        accountId: light.accountId,
        userId: null,
        level: AUTONOMOUS_LEVEL,
        until,
        reason: `autonomous: ${profile.name}`,
        autonomousProfileId: profile.id,
        covered: [light],
      });
      this.holds.set(key, { overrideId: made.id, until: until.getTime() });
    } else if (!met && held) {
      this.holds.delete(key);
      await cancelOverrides(this.options.db, this.options.commands, {
        where: sql`overrides.id = ${held.overrideId}`,
        accountId: light.accountId,
        userId: null,
      });
    }
  }
}
