import { type Fault, mulberry32, StreetLight } from '@lampyr/simulator';
import { LAYOUTS, lostLightEuis } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { rollUpEnergy } from '../engines/energy/energy-rollup.ts';
import { type NightPlan, nightOf, type PlanInputs, planNight } from '../engines/schedules/plan.ts';
import { inputsFor, type ScheduleDevice, ScheduleSource } from '../engines/schedules/schedule-source.ts';
import { SunTable } from '../engines/sun-times/sun-table.ts';
import { rowsOf } from '../ingest/array-codec.ts';
import { type DemoFault, demoFaults, type Episode } from './demo-faults.ts';
import { writeFaultHistory } from './fault-history.ts';
import {
  channelsByModel,
  ensurePartitions,
  type HistorySample,
  keepLatest,
  type ModelChannel,
  markSeen,
  ReadingRows,
} from './history-readings.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface DemoHistoryOptions {
  /** The accounts whose street lights get history (the demo's municipalities). */
  accountIds: readonly number[];
  /** The end of the history: the moment the simulated fleet takes over. */
  now: Date;
  days?: number;
  /** Minutes between two reports of one light (a LoRaWAN controller's usual period). */
  intervalMinutes?: number;
  /** Whose work the demo's work orders record (the administrator); none: the faults stay unassigned. */
  adminEmail?: string;
  /** The scripted faults (a failed lamp, a day-burner, a cycling lamp, a light gone silent); on by default. */
  faults?: boolean;
}

export interface DemoHistoryResult {
  devices: number;
  samples: number;
  readings: number;
  /** Alarms and fault reports the history's faults raised. */
  alarms: number;
  faultReports: number;
  ms: number;
}

interface HistoryDevice extends ScheduleDevice {
  modelId: number;
  /** devEui or uid: how the simulator knows it. */
  simulatorId: string;
  /** The newest reading stored, if any: its history goes on from there. */
  lastAt: number | null;
  /** Its energy meter then. */
  meter: number | null;
  /** When a light lost in the field was last heard (its history ends there). */
  lostSince: number | null;
}

/**
 * The demo fleet's past (issue 15): every street light of the demo accounts reports every
 * `intervalMinutes` for the last `days` days, as the simulated controllers would have — the same
 * StreetLight model (power, voltage, current, cumulative meter, lux from the sun's height,
 * temperature) driven by the level its schedule gave it then (the plan function over the city's sun
 * times; dusk to dawn for a controller nothing was deployed to), with a few scripted faults
 * (demo-faults.ts) whose alarms, fault reports and work orders follow from the readings
 * (fault-history.ts). The latest values and sightings first, the readings (history-readings.ts), then
 * the sun times of those days and the energy rollup, so charts, reports and savings have data at once.
 *
 * Idempotent and gap-filling: each light's history goes from its newest stored reading (or `days`
 * back, when it has none) to `now` — a second start writes nothing, a start after days away fills
 * the days in between (up to `days`), and a start stopped half way is finished by the next one. The
 * faults are written only on a light's first history.
 */
export async function backfillDemoHistory(db: Db, options: DemoHistoryOptions): Promise<DemoHistoryResult> {
  const started = performance.now();
  const end = options.now.getTime();
  const days = options.days ?? 14;
  const step = (options.intervalMinutes ?? 15) * MINUTE;
  const windowStart = end - days * DAY;
  const result: DemoHistoryResult = { devices: 0, samples: 0, readings: 0, alarms: 0, faultReports: 0, ms: 0 };
  const devices = await historyDevices(db, options.accountIds);
  if (!devices.length) return result;
  const channels = await channelsByModel(db);
  const source = new ScheduleSource(db);
  const schedules = new Map(
    await Promise.all(
      [...new Set(devices.map((d) => d.accountId))].map(async (id) => [id, await source.schedulesOf(id)] as const),
    ),
  );
  const zone = devices[0]?.timeZone ?? 'UTC';
  const scripted = new Map(
    (options.faults === false ? [] : demoFaults(new Date(end), zone)).map((f) => [f.simulatorId, f]),
  );

  // Every light's reports, computed first (a second or two): their last ones are the latest values at once.
  const lights: { device: HistoryDevice; samples: HistorySample[]; fault?: DemoFault }[] = [];
  let from = end;
  for (const device of devices) {
    const start = Math.max(device.lastAt ?? windowStart, windowStart);
    const stop = Math.min(end, device.lostSince ?? end);
    if (stop <= start) continue;
    // The faults belong to a light's first history, not to the days a later start fills in.
    const script = device.lastAt === null ? scripted.get(device.simulatorId) : undefined;
    const episodes = (script?.episodes ?? []).filter((e) => e.from.getTime() >= start && e.until.getTime() <= stop);
    const samples = deviceSamples(device, schedules.get(device.accountId), start, stop, step, episodes);
    if (!samples.length) continue;
    from = Math.min(from, start);
    lights.push({ device, samples, ...(script && episodes.length ? { fault: { ...script, episodes } } : {}) });
  }
  if (!lights.length) return { ...result, ms: Math.round(performance.now() - started) };
  result.devices = lights.length;
  result.samples = lights.reduce((n, l) => n + l.samples.length, 0);
  const last = lights.map((l) => l.samples.at(-1) as HistorySample);
  const modelOf = new Map(devices.map((d) => [d.id, d.modelId]));
  await keepLatest(db, last, channels, modelOf);
  await markSeen(
    db,
    last.filter((s) => !devices.find((d) => d.id === s.deviceId)?.lostSince),
  );
  await ensurePartitions(db, from, end);
  // The lights with faults first, and each light's days oldest first: a start that stops half way
  // leaves each light's history whole up to some moment, and the next start goes on from there.
  lights.sort((a, b) => Number(Boolean(b.fault)) - Number(Boolean(a.fault)));
  const writer = new ReadingRows(db, channels, modelOf);
  let faultsWritten = false;
  for (const light of lights) {
    if (!light.fault && !faultsWritten) {
      await writer.flush();
      Object.assign(result, await faultHistory(db, lights, channels, options.adminEmail, end));
      faultsWritten = true;
    }
    for (const sample of light.samples) await writer.add(sample);
  }
  await writer.flush();
  if (!faultsWritten) Object.assign(result, await faultHistory(db, lights, channels, options.adminEmail, end));
  result.readings = writer.written;
  // Savings need the sun times of those days (the table is kept from today on), then the rollup.
  const sunTable = new SunTable(db);
  for (const cityId of await citiesOf(
    db,
    lights.map((l) => l.device.id),
  ))
    await sunTable.fill(new Date(from - DAY), cityId);
  for (const accountId of new Set(lights.map((l) => l.device.accountId))) {
    const tz = devices.find((d) => d.accountId === accountId)?.timeZone ?? 'UTC';
    await rollUpEnergy(db, accountId, nightOf(new Date(from), tz), nightOf(new Date(end), tz));
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}

/** The alarms, fault reports and work orders of the lights with scripted faults (demo-faults.ts). */
async function faultHistory(
  db: Db,
  lights: { device: HistoryDevice; samples: HistorySample[]; fault?: DemoFault }[],
  channels: Map<number, ModelChannel[]>,
  adminEmail: string | undefined,
  end: number,
): Promise<{ alarms: number; faultReports: number }> {
  const faulty = lights.flatMap((l) =>
    l.fault
      ? [
          {
            deviceId: l.device.id,
            accountId: l.device.accountId,
            fault: l.fault,
            samples: l.samples,
            channels: new Map((channels.get(l.device.modelId) ?? []).map((c) => [c.code, c.id])),
          },
        ]
      : [],
  );
  if (!faulty.length) return { alarms: 0, faultReports: 0 };
  return writeFaultHistory(db, { lights: faulty, adminEmail, end: new Date(end) });
}

/** The demo accounts' street lights (devices whose model has a lamp channel), with where their history stands. */
async function historyDevices(db: Db, accountIds: readonly number[]): Promise<HistoryDevice[]> {
  if (!accountIds.length) return [];
  // Where each light's stored readings end, and its meter then: index scans of its lamp and energy channels.
  const rows = rowsOf(
    await db.execute(sql`
      SELECT d.id, d.device_type_model_id, coalesce(d.dev_eui, d.uid) AS simulator_id, s.date_time AS seen_at,
        (SELECT max(r.date_time) FROM channel_read_values r WHERE r.device_id = d.id
          AND r.device_channel_template_id = lamp.id AND r.sub_channel = 0) AS last_at,
        (SELECT r.value FROM channel_read_values r WHERE r.device_id = d.id
          AND r.device_channel_template_id = energy.id AND r.sub_channel = 0 ORDER BY r.date_time DESC LIMIT 1) AS meter
      FROM devices d
      JOIN device_channel_templates lamp ON lamp.device_type_model_id = d.device_type_model_id AND lamp.channel_code = 'lamp'
      LEFT JOIN device_channel_templates energy
        ON energy.device_type_model_id = d.device_type_model_id AND energy.channel_code = 'energy'
      LEFT JOIN device_connection_status s ON s.device_id = d.id
      WHERE d.account_id = ANY(${`{${accountIds.join(',')}}`}::bigint[]) AND d.is_active
        AND coalesce(d.dev_eui, d.uid) IS NOT NULL
      ORDER BY d.id`),
  );
  const lost = new Set(lostLightEuis());
  const byId = new Map(
    (await new ScheduleSource(db).devicesByIds(rows.map((r) => Number(r.id)))).map((d) => [d.id, d]),
  );
  const time = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date).getTime());
  return rows.flatMap((r) => {
    const schedule = byId.get(Number(r.id));
    if (!schedule) return [];
    const simulatorId = String(r.simulator_id).toLowerCase();
    return [
      {
        ...schedule,
        modelId: Number(r.device_type_model_id),
        simulatorId,
        lastAt: time(r.last_at),
        meter: r.meter === null || r.meter === undefined ? null : Number(r.meter),
        // A light lost in the field stops where the seed says it was last heard.
        lostSince: lost.has(simulatorId) ? (time(r.seen_at) ?? 0) : null,
      },
    ];
  });
}

async function citiesOf(db: Db, deviceIds: number[]): Promise<number[]> {
  const rows = rowsOf(
    await db.execute(sql`SELECT DISTINCT g.city_id FROM devices d JOIN regions g ON g.id = d.region_id
      WHERE d.id = ANY(${`{${deviceIds.join(',')}}`}::bigint[]) AND g.city_id IS NOT NULL`),
  );
  return rows.map((r) => Number(r.city_id));
}

/**
 * The level a light's schedule gives it at a moment: its plan's switch points (engines/schedules);
 * a light no task group covers runs its controller's factory program, on at sunset and off at sunrise.
 */
export function scheduleLevel(device: ScheduleDevice, inputs: PlanInputs) {
  const nights = new Map<string, NightPlan>();
  return (at: number): number => {
    const instant = new Date(at);
    const night = nightOf(instant, device.timeZone);
    let plan = nights.get(night);
    if (!plan) {
      plan = planNight(device, night, inputs);
      nights.set(night, plan);
    }
    if (plan.winner || plan.switchPoints.length) {
      let level = plan.levelAtStart;
      for (const p of plan.switchPoints) {
        if (p.at.getTime() > at) break;
        level = p.level;
      }
      return level;
    }
    if (plan.polarNight) return 100;
    if (plan.polarDay || !plan.sunset || !plan.sunrise) return 0;
    return at >= plan.sunset.getTime() && at < plan.sunrise.getTime() ? 100 : 0;
  };
}

/**
 * One light's reports from `start` (exclusive) to `stop`: on its own fixed moments (the period's
 * grid, shifted per light so the fleet does not report at once), more often while a scripted fault
 * says so, none while it is silent.
 */
function deviceSamples(
  device: HistoryDevice,
  schedules: Parameters<typeof inputsFor>[1] | undefined,
  start: number,
  stop: number,
  step: number,
  episodes: Episode[],
): HistorySample[] {
  if (!schedules) return [];
  const levelAt = scheduleLevel(device, inputsFor(device, schedules));
  const random = mulberry32(device.id * 7919 + 17);
  const light = new StreetLight(device.simulatorId, LAYOUTS.l2, random, start);
  light.energyKwh = device.meter ?? Math.round(100 + random() * 1900);
  const offset = (device.id * 53 * 1000) % step;
  const active = (at: number) => episodes.filter((e) => e.from.getTime() <= at && at < e.until.getTime());
  const samples: HistorySample[] = [];
  let at = Math.floor((start - offset) / step) * step + offset + step;
  while (at <= stop) {
    const now = active(at);
    const every = Math.min(step, ...now.map((e) => e.reportEveryMs ?? step));
    if (!now.some((e) => e.fault === 'silent')) {
      light.setLevel(levelAt(at));
      light.faults = new Set(now.map((e) => e.fault).filter((f): f is Fault => f !== 'silent'));
      samples.push({ accountId: device.accountId, deviceId: device.id, at, values: light.read(at) });
    }
    at += every;
  }
  return samples;
}
