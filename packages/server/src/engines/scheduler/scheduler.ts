import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import type { CommandEvents } from '../../events/command-events.ts';
import type { PlanOverride, SwitchPoint } from '../schedules/plan.ts';
import { nightOf, planNight } from '../schedules/plan.ts';
import { type AccountSchedules, inputsFor, type ScheduleDevice, ScheduleSource } from '../schedules/schedule-source.ts';
import { addDays } from '../sun-times/zoned-time.ts';
import type { Leadership } from './leadership.ts';

export { nightOf };

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export interface SchedulerOptions {
  /** The clock: every decision is taken against it, never against Date.now(). */
  now(): Date;
  /** How often to look for due switch points (ms). */
  everyMs?: number;
  /**
   * A switch point missed by at most this much (a restart, a failover) is still executed; of those
   * missed longer, only the last (the level in force) is (minutes).
   */
  graceMinutes?: number;
  /** Overrides in force per device (the device-configuration side keeps them). */
  overrides?(deviceIds: number[]): Promise<Map<number, PlanOverride[]>>;
  onError?(error: unknown): void;
}

/**
 * Server-timed execution: for every active device whose model does not keep its own schedule
 * (`supportTask` false), each switch point of its plan is sent when it falls due, as a channel
 * write through the command path (the downlink sender publishes it), and recorded as a task
 * control log row. Only the leader (advisory lock) runs it; the control log's unique key on
 * (device, planned time) is the claim, taken in the same transaction as the write, so a switch
 * point is executed once even when a failover overlaps two leaders.
 */
export class Scheduler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private readonly source: ScheduleSource;

  constructor(
    private readonly db: Db,
    private readonly commands: CommandEvents,
    private readonly leadership: Leadership,
    private readonly options: SchedulerOptions,
  ) {
    this.source = new ScheduleSource(db);
  }

  start(): () => void {
    const run = () => {
      this.tick().catch((error) => this.options.onError?.(error));
    };
    run();
    this.timer = setInterval(run, this.options.everyMs ?? 5000);
    this.timer.unref();
    return () => clearInterval(this.timer);
  }

  /** One pass: resolves with how many switch points this process executed. */
  tick(): Promise<number> {
    this.running ??= this.executeDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async executeDue(): Promise<number> {
    if (!(await this.leadership.isLeader())) return 0;
    const now = this.options.now();
    const grace = (this.options.graceMinutes ?? 10) * 60000;
    const devices = await this.source.serverTimedDevices();
    if (!devices.length) return 0;
    const overrides = (await this.options.overrides?.(devices.map((d) => d.id))) ?? new Map();
    const schedules = new Map<number, AccountSchedules>();
    let executed = 0;
    for (const device of devices) {
      let account = schedules.get(device.accountId);
      if (!account) {
        account = await this.source.schedulesOf(device.accountId);
        schedules.set(device.accountId, account);
      }
      const inputs = inputsFor(device, account, overrides.get(device.id) ?? []);
      const night = nightOf(now, device.timeZone);
      const past = [addDays(night, -1), night]
        .flatMap((n) => planNight(device, n, inputs).switchPoints)
        .filter((p) => p.at <= now);
      const due = past.filter((p) => now.getTime() - p.at.getTime() <= grace);
      // Past the grace (a long outage, a first start) only the level in force is sent, once: the
      // points it superseded are history.
      const inForce = past.at(-1);
      const late = inForce && !due.includes(inForce) ? inForce : undefined;
      for (const point of due) if (await this.execute(device, point, now)) executed++;
      if (late && (await this.execute(device, late, now, 'late: the level in force'))) executed++;
    }
    return executed;
  }

  /** Claims and executes one switch point; false when another process (or an earlier pass) did. */
  private async execute(device: ScheduleDevice, point: SwitchPoint, now: Date, note?: string): Promise<boolean> {
    const channel = await this.channelFor(device, point);
    // A dimmer takes the level (0 is off); a plain switch takes on or off.
    const value = channel?.code === 'lamp' ? (point.level > 0 ? 1 : 0) : point.level;
    const rule = point.rule;
    const writeId = await this.db.transaction(async (tx) => {
      const claimed = rowsOf(
        await tx.execute(sql`
          INSERT INTO task_control_logs (account_id, profile_id, control_date, control_type, device_id, task_group_id,
            pairing_id, timing_id, planned_at, level, status, message)
          VALUES (${device.accountId}, ${rule.profileId}, ${now.toISOString()}, ${rule.kind}, ${device.id}, ${rule.groupId},
            ${rule.pairingId}, ${rule.timingId}, ${point.at.toISOString()}, ${point.level},
            ${channel ? 'sent' : 'failed'}, ${channel ? (note ?? null) : 'no_write_channel'})
          ON CONFLICT (device_id, planned_at) DO NOTHING
          RETURNING id`),
      )[0];
      if (!claimed) return undefined;
      if (!channel) return null;
      const write = rowsOf(
        await tx.execute(sql`
          INSERT INTO channel_write_values (account_id, device_id, device_channel_template_id, value, status, operation_source)
          VALUES (${device.accountId}, ${device.id}, ${channel.id}, ${value}, 'pending', 'scheduler')
          RETURNING id`),
      )[0];
      await tx.execute(
        sql`UPDATE task_control_logs SET channel_write_value_id = ${write?.id} WHERE id = ${claimed.id}`,
      );
      return Number(write?.id);
    });
    if (writeId === undefined) return false;
    // The downlink sender of this process publishes it; a write this process could not send (it
    // died) is sent by another replica's sweep, claimed once by its pending status.
    if (writeId !== null)
      this.commands.emit({
        resource: 'channel-write-values',
        action: 'create',
        record: { id: writeId, deviceId: device.id },
        accountId: device.accountId,
      });
    return true;
  }

  private readonly channels = new Map<number, { id: number; code: string }[]>();

  /** The write channel a switch point sets: the timing's, else the model's `dim`, else its `lamp`. */
  private async channelFor(device: ScheduleDevice, point: SwitchPoint) {
    if (device.deviceTypeModelId === null) return undefined;
    let templates = this.channels.get(device.deviceTypeModelId);
    if (!templates) {
      templates = rowsOf(
        await this.db.execute(sql`
          SELECT id, channel_code FROM device_channel_templates
          WHERE device_type_model_id = ${device.deviceTypeModelId} AND channel_type IN ('write', 'readwrite')
          ORDER BY id`),
      ).map((r) => ({ id: Number(r.id), code: String(r.channel_code) }));
      this.channels.set(device.deviceTypeModelId, templates);
    }
    const named = point.rule.channelTemplateId;
    return (
      (named ? templates.find((t) => t.id === named) : undefined) ??
      templates.find((t) => t.code === 'dim') ??
      templates.find((t) => t.code === 'lamp')
    );
  }
}
