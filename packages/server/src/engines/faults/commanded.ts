import { sql } from 'drizzle-orm';
import { overridesForPlan } from '../../data/overrides.ts';
import type { Db } from '../../db/connect.ts';
import { type NightPlan, nightOf, planNight } from '../schedules/plan.ts';
import { type AccountSchedules, inputsFor, type ScheduleDevice, ScheduleSource } from '../schedules/schedule-source.ts';
import { type SunDay, sunDay } from '../sun-times/sun-day.ts';
import { addDays, localDate } from '../sun-times/zoned-time.ts';
import type { Commanded } from './fault-rules.ts';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** How far from sunrise and sunset "by day" keeps: photocells and sun-anchored programs switch around them. */
const DAY_MARGIN_MS = 30 * 60_000;

/** A device's last operator command on its lamp or dim channel. */
interface LastWrite {
  level: number;
  at: number;
}

interface DeviceCommands {
  loadedAt: number;
  write?: LastWrite;
  device?: ScheduleDevice;
  /** The plan of the night last asked for (a night is planned once). */
  plan?: NightPlan;
  /** The account's schedules `plan` was made from (a plan outlives a refresh only while they stand). */
  plannedWith?: Promise<AccountSchedules>;
  /** The sun of the local day last asked for (a day's sun is computed once). */
  sun?: SunDay;
  /** The device's overrides over `OVERRIDE_SPAN_MS` either side of when they were read. */
  overrides: { from: number; until: number; list: Override[] };
}

type Override = { from: Date; until: Date; level: number };

/** The same row read again (every field a plan or the sun reads is a plain value). */
function sameDevice(a: ScheduleDevice | undefined, b: ScheduleDevice): boolean {
  if (!a) return false;
  const keys = Object.keys(b) as (keyof ScheduleDevice)[];
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

function sameOverrides(a: readonly Override[], b: readonly Override[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (o, i) =>
        o.level === b[i]?.level &&
        o.from.getTime() === b[i]?.from.getTime() &&
        o.until.getTime() === b[i]?.until.getTime(),
    )
  );
}

/**
 * How far either side of now `prepare` reads overrides: a night's plan reads a day either side of
 * its night, so samples of the last day and the next are planned without another query.
 */
const OVERRIDE_SPAN_MS = 4 * 86_400_000;

/**
 * What a lamp is commanded to be at a moment (issue 13): the newest of the operator's last write on
 * its lamp or dim channel (Live Control; the scheduler's writes for server-timed devices too) and the
 * switch point of its schedule plan in force (engines/schedules/plan.ts: the deployed program, with
 * the operator's overrides inside their windows). Neither known: undefined (the caller falls back on
 * what the device reports it does). Cached per device; refreshed after `refreshMs` or when told that
 * writes, overrides or schedules changed — one query per batch of stale devices, never per reading.
 */
export class CommandedSource {
  private byDevice = new Map<number, DeviceCommands>();
  private schedules = new Map<number, { at: number; value: Promise<AccountSchedules> }>();
  private readonly source: ScheduleSource;

  constructor(
    private readonly db: Db,
    private readonly refreshMs = 60_000,
    private readonly clock: () => number = Date.now,
  ) {
    this.source = new ScheduleSource(db);
  }

  /** Writes or overrides changed: every device reads its commands again. */
  invalidate(): void {
    this.byDevice.clear();
  }

  /** Schedules changed: plans are made again. */
  invalidateSchedules(): void {
    this.schedules.clear();
    this.byDevice.clear();
  }

  /** Reads what the stale devices among these were last commanded (writes, place, plan inputs). */
  async prepare(deviceIds: readonly number[]): Promise<void> {
    const now = this.clock();
    const stale = deviceIds.filter((id) => {
      const known = this.byDevice.get(id);
      return !known || now - known.loadedAt > this.refreshMs;
    });
    if (!stale.length) return;
    const ids = `{${stale.join(',')}}`;
    const span = { from: now - OVERRIDE_SPAN_MS, until: now + OVERRIDE_SPAN_MS };
    const [writes, devices, overrides] = await Promise.all([
      this.db.execute(sql`
        SELECT DISTINCT ON (w.device_id, c.channel_code) w.device_id, c.channel_code, w.value,
          coalesce(w.answered_at, w.sent_at, w.created_at) AS at
        FROM channel_write_values w JOIN device_channel_templates c ON c.id = w.device_channel_template_id
        WHERE w.device_id = ANY(${ids}::bigint[]) AND c.channel_code IN ('lamp', 'dim')
          AND w.status IN ('sent', 'acknowledged')
        ORDER BY w.device_id, c.channel_code, w.created_at DESC, w.id DESC`),
      this.source.devicesByIds(stale),
      overridesForPlan(this.db, stale, new Date(span.from), new Date(span.until)),
    ]);
    const lastOf = new Map<number, { lamp?: LastWrite; dim?: LastWrite }>();
    for (const row of rowsOf(writes)) {
      const id = Number(row.device_id);
      const entry = lastOf.get(id) ?? {};
      entry[row.channel_code as 'lamp' | 'dim'] = {
        level: Number(row.value),
        at: new Date(row.at as string | Date).getTime(),
      };
      lastOf.set(id, entry);
    }
    const deviceById = new Map(devices.map((d) => [d.id, d]));
    for (const id of stale) {
      const { lamp, dim } = lastOf.get(id) ?? {};
      // A switch-on returns to the last dim level; a dim level above 0 switches on.
      let write: LastWrite | undefined;
      if (lamp && (!dim || lamp.at >= dim.at))
        write = { level: lamp.level > 0 ? (dim && dim.level > 0 ? dim.level : 100) : 0, at: lamp.at };
      else if (dim) write = { level: Math.max(0, Math.min(100, dim.level)), at: dim.at };
      const device = deviceById.get(id);
      const list = overrides.get(id) ?? [];
      const entry: DeviceCommands = { loadedAt: now, write, device, overrides: { ...span, list } };
      // The refresh found what the night was planned from unchanged: its plan and sun still hold
      // (before, every device's night was planned again every minute).
      const before = this.byDevice.get(id);
      if (before && device && sameDevice(before.device, device)) {
        entry.sun = before.sun;
        const schedulesStand = before.plannedWith && before.plannedWith === this.freshSchedules(device.accountId, now);
        if (schedulesStand && sameOverrides(before.overrides.list, list)) {
          entry.plan = before.plan;
          entry.plannedWith = before.plannedWith;
        }
      }
      this.byDevice.set(id, entry);
    }
  }

  /** Whether the sun is up at a device's place (with a margin); undefined when it has no place. */
  isDay(deviceId: number, at: number): boolean | undefined {
    const known = this.byDevice.get(deviceId);
    const device = known?.device;
    if (!known || !device || (device.latitude === 0 && device.longitude === 0)) return undefined;
    const date = localDate(new Date(at), device.timeZone);
    if (known.sun?.date !== date) known.sun = sunDay(device, date);
    const sun = known.sun;
    if (sun.polarDay) return true;
    if (sun.polarNight || !sun.sunrise || !sun.sunset) return false;
    return at > sun.sunrise.getTime() + DAY_MARGIN_MS && at < sun.sunset.getTime() - DAY_MARGIN_MS;
  }

  /** The level a device is commanded to at a moment (after `prepare`), or undefined when nothing commands it. */
  async commandedAt(deviceId: number, at: number): Promise<Commanded | undefined> {
    const known = this.byDevice.get(deviceId);
    if (!known) return undefined;
    const planned = await this.plannedAt(known, at);
    const write = known.write && known.write.at <= at ? known.write : undefined;
    if (write && (!planned || write.at >= planned.since))
      return { level: write.level, since: write.at, source: 'write' };
    return planned;
  }

  private async plannedAt(known: DeviceCommands, at: number): Promise<Commanded | undefined> {
    const device = known.device;
    if (!device) return undefined;
    // Nearly every sample falls in the night already planned: no need to work out its night.
    const current = known.plan && at >= known.plan.start.getTime() && at < known.plan.end.getTime();
    const night = current ? (known.plan as NightPlan).night : nightOf(new Date(at), device.timeZone);
    if (known.plan?.night !== night) {
      const plannedWith = this.schedulesOf(device.accountId);
      const schedules = await plannedWith;
      const start = new Date(Date.parse(`${night}T00:00:00Z`) - 86_400_000);
      const end = new Date(Date.parse(`${addDays(night, 2)}T00:00:00Z`));
      known.plan = planNight(device, night, inputsFor(device, schedules, await this.overridesOf(known, start, end)));
      known.plannedWith = plannedWith;
    }
    const plan = known.plan;
    const overridden = plan.switchPoints.some((p) => p.rule.kind === 'override');
    if (!plan.winner && !overridden) return undefined;
    let level = plan.levelAtStart;
    let since = plan.start.getTime();
    let source: Commanded['source'] = 'plan';
    for (const p of plan.switchPoints) {
      if (p.at.getTime() > at) break;
      level = p.level;
      since = p.at.getTime();
      source = p.rule.kind === 'override' ? 'override' : 'plan';
    }
    return { level, since, source };
  }

  /**
   * The device's overrides that overlap `from … until` (as overridesForPlan selects them): from those
   * `prepare` read when they cover the span, else read now (a sample from long ago).
   */
  private async overridesOf(known: DeviceCommands, from: Date, until: Date): Promise<Override[]> {
    const read = known.overrides;
    if (read.from <= from.getTime() && until.getTime() <= read.until)
      return read.list.filter((o) => o.from < until && o.until > from);
    const id = known.device?.id as number;
    return (await overridesForPlan(this.db, [id], from, until)).get(id) ?? [];
  }

  /** The account's cached schedules while they are fresh, else undefined. */
  private freshSchedules(accountId: number, now: number): Promise<AccountSchedules> | undefined {
    const cached = this.schedules.get(accountId);
    return cached && now - cached.at < this.refreshMs * 5 ? cached.value : undefined;
  }

  private schedulesOf(accountId: number): Promise<AccountSchedules> {
    const now = this.clock();
    const fresh = this.freshSchedules(accountId, now);
    if (fresh) return fresh;
    const value = this.source.schedulesOf(accountId);
    value.catch(() => this.schedules.delete(accountId));
    this.schedules.set(accountId, { at: now, value });
    return value;
  }
}
