import type { PreviewNight, SchedulePreview, SchedulePreviewRequest } from '@lampyr/contract';
import type { Db } from '../../db/connect.ts';
import { addDays, localDate, localTime } from '../sun-times/zoned-time.ts';
import { burnOf, type PlanOverride, planNight } from './plan.ts';
import { inputsFor, ScheduleSource } from './schedule-source.ts';

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Where the overrides in force come from (the device-configuration side keeps them). */
export type OverrideSource = (deviceIds: number[], from: Date, until: Date) => Promise<Map<number, PlanOverride[]>>;

/**
 * Schedule previews: the plan of a target's devices for the next nights, with the rule behind
 * each switch point, the burn hours of the first device and the energy of all of them.
 *
 * Energy assumption: a lamp draws its model's rated power × its level (a linear driver), for as long
 * as the plan keeps it at that level; devices whose model has no rated power are left out of it.
 */
export class SchedulePreviews {
  private readonly source: ScheduleSource;

  constructor(
    db: Db,
    private readonly overrides: OverrideSource = async () => new Map(),
  ) {
    this.source = new ScheduleSource(db);
  }

  /** `undefined` when the target names nothing in the account (a 404 for the caller). */
  async preview(accountId: number, request: SchedulePreviewRequest, now: Date): Promise<SchedulePreview | undefined> {
    const schedules = await this.source.schedulesOf(accountId);
    // A group is previewed as it would run, even while it is a draft or paused.
    if ('taskGroupId' in request.target) {
      const id = request.target.taskGroupId;
      const group = schedules.groups.find((g) => g.id === id);
      if (!group) return undefined;
      schedules.groups = schedules.groups.map((g) => (g.id === id ? { ...g, status: 'active' } : g));
    }
    const devices = await this.source.devicesOf(accountId, request.target, schedules);
    if ('deviceId' in request.target && !devices.length) return undefined;
    const first = devices[0];
    const zone = first?.timeZone ?? 'UTC';
    const from = request.from ?? localDate(now, zone);
    const windowStart = new Date(Date.parse(`${from}T00:00:00Z`) - 86400000);
    const windowEnd = new Date(Date.parse(`${addDays(from, request.nights + 1)}T00:00:00Z`) + 86400000);
    const overrides = await this.overrides(
      devices.map((d) => d.id),
      windowStart,
      windowEnd,
    );
    const energy = new Array<number>(request.nights).fill(0);
    let withPower = 0;
    for (const device of devices) {
      if (device.ratedPower === null) continue;
      withPower++;
      const inputs = inputsFor(device, schedules, overrides.get(device.id) ?? []);
      for (let i = 0; i < request.nights; i++) {
        const plan = planNight(device, addDays(from, i), inputs);
        energy[i] = (energy[i] ?? 0) + (burnOf(plan).fullPowerHours * device.ratedPower) / 1000;
      }
    }
    const nights: PreviewNight[] = [];
    if (first) {
      const inputs = inputsFor(first, schedules, overrides.get(first.id) ?? []);
      for (let i = 0; i < request.nights; i++) {
        const night = addDays(from, i);
        const plan = planNight(first, night, inputs);
        nights.push({
          night,
          start: plan.start.toISOString(),
          end: plan.end.toISOString(),
          sunset: plan.sunset?.toISOString() ?? null,
          sunrise: plan.sunrise?.toISOString() ?? null,
          polarDay: plan.polarDay,
          polarNight: plan.polarNight,
          holiday: inputs.isHoliday(night),
          levelAtStart: plan.levelAtStart,
          switchPoints: plan.switchPoints.map((p) => {
            const profile = p.rule.profileId === null ? undefined : schedules.names.profiles.get(p.rule.profileId);
            const groupName = p.rule.groupId === null ? undefined : schedules.names.groups.get(p.rule.groupId);
            return {
              at: p.at.toISOString(),
              time: localTime(p.at, zone),
              level: p.level,
              rule: {
                kind: p.rule.kind,
                pairingId: p.rule.pairingId,
                profileId: p.rule.profileId,
                timingId: p.rule.timingId,
                periodId: p.rule.periodId,
                groupId: p.rule.groupId,
                ...(p.rule.slot ? { slot: p.rule.slot } : {}),
                ...(profile ? { profileName: profile.name, color: profile.color } : {}),
                ...(groupName ? { groupName } : {}),
              },
            };
          }),
          burnHours: round(burnOf(plan).burnHours),
          energyKwh: withPower ? round(energy[i] ?? 0) : null,
          winner: plan.winner,
        });
      }
    }
    return {
      devices: devices.length,
      device: first
        ? {
            id: first.id,
            name: first.name,
            timeZone: first.timeZone,
            supportTask: first.supportTask,
            ratedPower: first.ratedPower,
          }
        : null,
      devicesWithPower: withPower,
      nights,
      totals: {
        burnHours: round(nights.reduce((sum, n) => sum + n.burnHours, 0)),
        energyKwh: withPower ? round(energy.reduce((sum, e) => sum + e, 0)) : null,
      },
    };
  }
}
