import Holidays from 'date-holidays';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { type SunDay, sunDay } from '../sun-times/sun-day.ts';
import { FALLBACK_TIME_ZONE } from '../sun-times/sun-table.ts';
import { zonedInstant } from '../sun-times/zoned-time.ts';
import type { PlanDevice, PlanGroup } from './members.ts';
import type { PlanInputs, PlanOverride, PlanPairing, PlanPeriod, PlanProfile, PlanTiming } from './plan.ts';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const camelRow = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [camel(k), v]));
const dateText = (v: unknown) => (v === null || v === undefined ? null : String(v).slice(0, 10));
const timeText = (v: unknown) => (v === null || v === undefined ? null : String(v).slice(0, 5));

/** A device as schedules see it: where it is, its clock, its model's way of executing. */
export interface ScheduleDevice extends PlanDevice {
  accountId: number;
  name: string;
  street: string | null;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** ISO code of the country whose public holidays it keeps. */
  countryCode: string | null;
  /** Controllers that keep their own schedule (deployed); the rest are server-timed. */
  supportTask: boolean;
  ratedPower: number | null;
  isActive: boolean;
}

/** An account's schedule entities, read once and planned against many devices. */
export interface AccountSchedules {
  groups: PlanGroup[];
  pairings: PlanPairing[];
  profiles: PlanProfile[];
  timings: PlanTiming[];
  periods: PlanPeriod[];
  names: {
    groups: Map<number, string>;
    profiles: Map<number, { name: string; color: string | null }>;
  };
}

export type DeviceTarget = { taskGroupId: number } | { deviceId: number } | { street: string; regionId?: number };

const holidayCache = new Map<string, Set<string>>();

/** Public holidays (date-holidays, type `public`) of a country and year, as local dates. */
export function publicHolidays(countryCode: string, year: number, timeZone: string): Set<string> {
  const key = `${countryCode}:${year}:${timeZone}`;
  let days = holidayCache.get(key);
  if (days) return days;
  days = new Set();
  const code = countryCode.toUpperCase();
  const known = /^[A-Z]{2}$/.test(code) && Boolean(new Holidays().getCountries()[code]);
  if (known) {
    for (const h of new Holidays(code).getHolidays(year) || []) {
      if (h.type !== 'public') continue;
      // A holiday over several days names its first; every day whose noon it covers counts.
      const first = h.date.slice(0, 10);
      for (let i = 0; i < 10; i++) {
        const day = new Date(Date.parse(`${first}T00:00:00Z`) + i * 86400000).toISOString().slice(0, 10);
        if (i > 0 && zonedInstant(day, 12 * 60, timeZone) >= h.end) break;
        days.add(day);
      }
    }
  }
  holidayCache.set(key, days);
  return days;
}

const DEVICE_COLUMNS = sql`
  d.id, d.account_id, d.name, d.street, d.device_type_model_id, d.region_id, d.is_active,
  coalesce(d.latitude, c.latitude, 0) AS latitude, coalesce(d.longitude, c.longitude, 0) AS longitude,
  coalesce(nullif(c.time_zone, ''), nullif(k.time_zone, ''), ${FALLBACK_TIME_ZONE}) AS time_zone,
  k.iso_code, coalesce(m.support_task, false) AS support_task, m.rated_power`;

const DEVICE_FROM = sql`
  devices d
  LEFT JOIN device_models m ON m.id = d.device_type_model_id
  LEFT JOIN regions r ON r.id = d.region_id
  LEFT JOIN cities c ON c.id = r.city_id
  LEFT JOIN countries k ON k.id = c.country_id`;

function deviceOf(r: Record<string, unknown>): ScheduleDevice {
  return {
    id: Number(r.id),
    accountId: Number(r.account_id),
    name: String(r.name),
    street: (r.street as string | null) ?? null,
    deviceTypeModelId: num(r.device_type_model_id),
    regionId: num(r.region_id),
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    timeZone: String(r.time_zone),
    countryCode: (r.iso_code as string | null) ?? null,
    supportTask: Boolean(r.support_task),
    ratedPower: num(r.rated_power),
    isActive: Boolean(r.is_active),
  };
}

/** Reads what the plan function needs from the database; the plan itself stays pure. */
export class ScheduleSource {
  constructor(private readonly db: Db) {}

  async schedulesOf(accountId: number): Promise<AccountSchedules> {
    const [groups, members, pairings, profiles, timings, periods] = await Promise.all(
      [
        sql`SELECT * FROM task_groups WHERE account_id = ${accountId} ORDER BY id`,
        sql`SELECT task_group_id, device_id FROM task_group_members WHERE account_id = ${accountId}`,
        sql`SELECT * FROM task_group_profiles WHERE account_id = ${accountId} ORDER BY id`,
        sql`SELECT * FROM task_profiles WHERE account_id = ${accountId} ORDER BY id`,
        sql`SELECT * FROM task_profile_timings WHERE account_id = ${accountId} ORDER BY id`,
        sql`SELECT * FROM task_profile_execution_periods WHERE account_id = ${accountId} ORDER BY id`,
      ].map(async (q) => rowsOf(await this.db.execute(q)).map(camelRow)),
    );
    const listed = new Map<number, number[]>();
    for (const m of members ?? []) {
      const id = Number(m.taskGroupId);
      listed.set(id, [...(listed.get(id) ?? []), Number(m.deviceId)]);
    }
    return {
      groups: (groups ?? []).map((g) => ({
        id: Number(g.id),
        deviceTypeModelId: num(g.deviceTypeModelId),
        regionId: num(g.regionId),
        status: (g.status as string | null) ?? null,
        memberIds: listed.get(Number(g.id)) ?? [],
      })),
      pairings: (pairings ?? []).map((p) => ({
        id: Number(p.id),
        taskGroupId: Number(p.taskGroupId),
        taskProfileId: Number(p.taskProfileId),
        mode: String(p.mode),
        method: String(p.method),
        operation: String(p.operation),
        hour: Number(p.hour),
        minute: Number(p.minute),
        startDay: Number(p.startDay),
        endDay: Number(p.endDay),
        priority: Number(p.priority),
        unlimited: Boolean(p.unlimited),
        holidaysOnly: Boolean(p.holidaysOnly),
        weekendsOnly: Boolean(p.weekendsOnly),
        excludeWeekends: Boolean(p.excludeWeekends),
        enforceExecution: Boolean(p.enforceExecution),
      })),
      profiles: (profiles ?? []).map((p) => ({
        id: Number(p.id),
        operation: String(p.operation),
        dimLevel: num(p.dimLevel),
        priority: Number(p.priority),
        cyclicType: (p.cyclicType as string | null) ?? null,
        offDays: Array.isArray(p.offDays) ? (p.offDays as string[]) : null,
        customDates: Array.isArray(p.customDates) ? (p.customDates as string[]) : null,
        startDate: dateText(p.startDate),
        endDate: dateText(p.endDate),
        startDay: num(p.startDay),
        endDay: num(p.endDay),
        cycleDay: num(p.cycleDay),
      })),
      timings: (timings ?? []).map((t) => {
        const row: PlanTiming = {
          ...t,
          id: Number(t.id),
          taskProfileId: Number(t.taskProfileId),
          deviceTypeModelId: num(t.deviceTypeModelId),
          deviceId: num(t.deviceId),
          channelTemplateId: num(t.channelTemplateId),
        };
        for (const key of Object.keys(row)) if (/^(on|off)\dTime$/.test(key)) row[key] = timeText(row[key]);
        return row;
      }),
      periods: (periods ?? []).map((p) => ({
        id: Number(p.id),
        taskProfileId: Number(p.taskProfileId),
        isSunset: Boolean(p.isSunset),
        isSunrise: Boolean(p.isSunrise),
        startTime: String(timeText(p.startTime)),
        endTime: String(timeText(p.endTime)),
        value: num(p.value),
      })),
      names: {
        groups: new Map((groups ?? []).map((g) => [Number(g.id), String(g.name)])),
        profiles: new Map(
          (profiles ?? []).map((p) => [Number(p.id), { name: String(p.name), color: (p.color as string) ?? null }]),
        ),
      },
    };
  }

  /**
   * The devices a target names within an account: a task group's members (listed, else by model and
   * region), one device, or the devices of a street (optionally in one region).
   */
  async devicesOf(accountId: number, target: DeviceTarget, schedules?: AccountSchedules): Promise<ScheduleDevice[]> {
    if ('deviceId' in target) {
      const rows = rowsOf(
        await this.db.execute(
          sql`SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM} WHERE d.account_id = ${accountId} AND d.id = ${target.deviceId}`,
        ),
      );
      return rows.map(deviceOf);
    }
    if ('street' in target) {
      const region = target.regionId ?? null;
      const rows = rowsOf(
        await this.db.execute(sql`SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM}
          WHERE d.account_id = ${accountId} AND lower(d.street) = lower(${target.street})
            AND (${region}::bigint IS NULL OR d.region_id = ${region}::bigint)
          ORDER BY d.id LIMIT 5000`),
      );
      return rows.map(deviceOf);
    }
    const group = (schedules ?? (await this.schedulesOf(accountId))).groups.find((g) => g.id === target.taskGroupId);
    if (!group) return [];
    const listed = group.memberIds.length ? group.memberIds : null;
    if (!listed && group.deviceTypeModelId === null && group.regionId === null) return [];
    const rows = rowsOf(
      await this.db.execute(sql`SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM}
        WHERE d.account_id = ${accountId} AND ${
          listed
            ? sql`d.id IN (${sql.join(
                listed.map((id) => sql`${id}`),
                sql`, `,
              )})`
            : sql`(${group.deviceTypeModelId}::bigint IS NULL OR d.device_type_model_id = ${group.deviceTypeModelId}::bigint)
                AND (${group.regionId}::bigint IS NULL OR d.region_id = ${group.regionId}::bigint)`
        }
        ORDER BY d.id LIMIT 5000`),
    );
    return rows.map(deviceOf);
  }

  /** Devices by id, of any account (the fault engine plans the ones it hears from). */
  async devicesByIds(deviceIds: readonly number[]): Promise<ScheduleDevice[]> {
    if (!deviceIds.length) return [];
    const rows = rowsOf(
      await this.db.execute(sql`SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM}
        WHERE d.id = ANY(${`{${deviceIds.join(',')}}`}::bigint[]) ORDER BY d.id`),
    );
    return rows.map(deviceOf);
  }

  /** Every device of every account, for the scheduler. */
  async serverTimedDevices(): Promise<ScheduleDevice[]> {
    const rows = rowsOf(
      await this.db.execute(sql`SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM}
        WHERE d.is_active AND NOT coalesce(m.support_task, false) ORDER BY d.account_id, d.id`),
    );
    return rows.map(deviceOf);
  }
}

/** The plan function's inputs for one device, with its sun times computed once per date. */
export function inputsFor(
  device: ScheduleDevice,
  schedules: AccountSchedules,
  overrides: PlanOverride[] = [],
): PlanInputs {
  const suns = new Map<string, SunDay>();
  const place = { latitude: device.latitude, longitude: device.longitude, timeZone: device.timeZone };
  return {
    timeZone: device.timeZone,
    sun(date) {
      let day = suns.get(date);
      if (!day) {
        day = sunDay(place, date);
        suns.set(date, day);
      }
      return day;
    },
    isHoliday: (date) =>
      device.countryCode
        ? publicHolidays(device.countryCode, Number(date.slice(0, 4)), device.timeZone).has(date)
        : false,
    groups: schedules.groups,
    pairings: schedules.pairings,
    profiles: schedules.profiles,
    timings: schedules.timings,
    periods: schedules.periods,
    overrides,
  };
}
