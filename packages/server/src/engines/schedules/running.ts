import type { RunningSchedules } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { addDays } from '../sun-times/zoned-time.ts';
import { nightOf, planNight, type SwitchPoint } from './plan.ts';
import { inputsFor, ScheduleSource } from './schedule-source.ts';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

const ruleOf = (p: SwitchPoint) => ({
  kind: p.rule.kind,
  pairingId: p.rule.pairingId,
  profileId: p.rule.profileId,
  timingId: p.rule.timingId,
  groupId: p.rule.groupId,
});

/**
 * Running tasks and task history: per task group, what its (first) device is doing at `now` by the
 * plan and what comes next, and the latest task control log rows (what the scheduler executed).
 */
export class RunningTasks {
  private readonly source: ScheduleSource;

  constructor(private readonly db: Db) {
    this.source = new ScheduleSource(db);
  }

  async running(accountId: number, now: Date): Promise<RunningSchedules> {
    const schedules = await this.source.schedulesOf(accountId);
    const groups: RunningSchedules['groups'] = [];
    for (const group of schedules.groups) {
      const name = schedules.names.groups.get(group.id) ?? String(group.id);
      const devices = await this.source.devicesOf(accountId, { taskGroupId: group.id }, schedules);
      const first = devices[0];
      const entry: RunningSchedules['groups'][number] = {
        groupId: group.id,
        name,
        status: group.status,
        devices: devices.length,
        device: first ? { id: first.id, name: first.name, supportTask: first.supportTask } : null,
        current: null,
        next: null,
      };
      if (first) {
        const inputs = inputsFor(first, schedules);
        const night = nightOf(now, first.timeZone);
        const tonight = planNight(first, night, inputs);
        const points = [...tonight.switchPoints, ...planNight(first, addDays(night, 1), inputs).switchPoints];
        const past = tonight.switchPoints.filter((p) => p.at <= now).pop();
        entry.current = past
          ? { level: past.level, since: past.at.toISOString(), rule: ruleOf(past) }
          : { level: tonight.levelAtStart, since: null, rule: null };
        const next = points.find((p) => p.at > now);
        entry.next = next ? { at: next.at.toISOString(), level: next.level, rule: ruleOf(next) } : null;
      }
      groups.push(entry);
    }
    const recent = rowsOf(
      await this.db.execute(sql`
        SELECT l.id, l.device_id, d.name AS device_name, l.task_group_id, l.profile_id, l.planned_at, l.control_date,
               l.level, l.status, l.control_type, w.status AS write_status
        FROM task_control_logs l
        LEFT JOIN devices d ON d.id = l.device_id
        LEFT JOIN channel_write_values w ON w.id = l.channel_write_value_id
        WHERE l.account_id = ${accountId}
        ORDER BY l.control_date DESC, l.id DESC LIMIT 50`),
    ).map((r) => ({
      id: Number(r.id),
      deviceId: r.device_id === null ? null : Number(r.device_id),
      deviceName: (r.device_name as string | null) ?? null,
      taskGroupId: r.task_group_id === null ? null : Number(r.task_group_id),
      profileId: r.profile_id === null ? null : Number(r.profile_id),
      plannedAt: r.planned_at === null ? null : new Date(r.planned_at as string).toISOString(),
      controlDate: new Date(r.control_date as string).toISOString(),
      level: r.level === null ? null : Number(r.level),
      status: (r.status as string | null) ?? null,
      controlType: (r.control_type as string | null) ?? null,
      writeStatus: (r.write_status as string | null) ?? null,
    }));
    return { now: now.toISOString(), groups, recent };
  }
}
