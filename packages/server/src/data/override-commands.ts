import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { transactionLogs } from '../db/schema/index.ts';
import type { CommandEvents } from '../events/command-events.ts';
import {
  CONFIG_TARGET_COLUMNS,
  type ConfigTarget,
  type QueuedCommand,
  queueConfigCommands,
} from './config-commands.ts';

const rowsOf = <T = Record<string, unknown>>(result: unknown) => (result as { rows: T[] }).rows;

export interface HoldInput {
  accountId: number;
  /** Who asked (the transaction log's user); null for an engine (autonomous profiles). */
  userId: number | null;
  level: number;
  until: Date;
  reason: string;
  street?: string | null;
  regionId?: number | null;
  /** The autonomous profile whose sensor condition made it. */
  autonomousProfileId?: number | null;
  /** The lights held, already checked against the caller's scope. */
  covered: ConfigTarget[];
}

export interface HeldLights {
  id: number;
  writes: { deviceId: number; writeId: number }[];
  controllers: QueuedCommand[];
}

/**
 * Holds lights at a level until a time: one override row (the scheduler's plan keeps server-timed
 * lights there while it is active), a channel write now for each server-timed light, and the
 * override command for each controller that keeps a schedule (it drops the override at `until` by
 * itself). The override, the writes and the transaction log entry are one transaction.
 */
export async function holdLights(db: Db, commands: CommandEvents, input: HoldInput): Promise<HeldLights> {
  const { covered, level } = input;
  const controllers = covered.filter((d) => d.supportTask && (d.devEui || d.uid));
  const serverTimed = covered.filter((d) => !controllers.includes(d));
  // Each server-timed light's write channel for a level: off through `lamp`, a level through `dim`.
  const channels = serverTimed.length
    ? rowsOf<{ device_id: number; template_id: number; code: string }>(
        await db.execute(sql`
          SELECT d.id::int AS device_id, t.id::int AS template_id, t.channel_code AS code
          FROM devices d JOIN device_channel_templates t ON t.device_type_model_id = d.device_type_model_id
          WHERE d.id = ANY(${`{${serverTimed.map((d) => d.id).join(',')}}`}::bigint[])
            AND t.channel_type IN ('write', 'readwrite')
          ORDER BY t.mqtt_package_order`),
      )
    : [];
  const writeOf = (deviceId: number) => {
    const own = channels.filter((c) => c.device_id === deviceId);
    const preferred = level === 0 ? ['lamp', 'dim'] : ['dim', 'lamp'];
    const pick = preferred.map((code) => own.find((c) => c.code === code)).find(Boolean) ?? own[0];
    if (!pick) return undefined;
    return { templateId: pick.template_id, value: pick.code === 'lamp' ? (level > 0 ? 1 : 0) : level };
  };

  const record = await db.transaction(async (tx) => {
    const [row] = rowsOf<{ id: number }>(
      await tx.execute(sql`
        INSERT INTO overrides (account_id, level, until, reason, status, street, region_id, device_ids, device_count,
          autonomous_profile_id)
        VALUES (${input.accountId}, ${level}, ${input.until.toISOString()}::timestamptz, ${input.reason}, 'active',
          ${input.street ?? null}, ${input.regionId ?? null},
          ${JSON.stringify(covered.map((d) => d.id))}::jsonb, ${covered.length}, ${input.autonomousProfileId ?? null})
        RETURNING id::int AS id`),
    );
    const writes: { deviceId: number; writeId: number }[] = [];
    for (const device of serverTimed) {
      const write = writeOf(device.id);
      if (!write) continue;
      const [w] = rowsOf<{ id: number }>(
        await tx.execute(sql`
          INSERT INTO channel_write_values (account_id, device_id, device_channel_template_id, value, status, operation_source)
          VALUES (${device.accountId}, ${device.id}, ${write.templateId}, ${write.value}, 'pending', 'override')
          RETURNING id::int AS id`),
      );
      writes.push({ deviceId: device.id, writeId: (w as { id: number }).id });
    }
    await tx.insert(transactionLogs).values({
      accountId: input.accountId,
      userId: input.userId,
      resource: 'overrides',
      action: 'create',
      recordId: row?.id,
      before: null,
      after: { level, until: input.until.toISOString(), reason: input.reason, devices: covered.length },
    });
    return { id: (row as { id: number }).id, writes };
  });
  const queued = controllers.length
    ? await queueConfigCommands(db, {
        operation: 'override',
        targets: controllers,
        argsFor: () => ({ level, until: input.until.toISOString() }),
        actor: { userId: input.userId, accountId: input.accountId },
      })
    : undefined;
  if (queued)
    commands.emit({
      resource: 'deploy-response-logs',
      action: 'create',
      record: { ids: queued.queued.map((q) => q.logId) },
    });
  for (const w of record.writes)
    commands.emit({ resource: 'channel-write-values', action: 'create', record: { id: w.writeId } });
  commands.emit({ resource: 'overrides', action: 'create', record: { id: record.id }, accountId: input.accountId });
  return { id: record.id, writes: record.writes, controllers: queued?.queued ?? [] };
}

/**
 * Cancels the active overrides `where` picks (over `overrides`): the plan resumes for server-timed
 * lights at once (the scheduler sends the level in force), controllers get `cancel-override`.
 * Returns the cancelled overrides' ids and the commands queued; none when nothing was active.
 */
export async function cancelOverrides(
  db: Db,
  commands: CommandEvents,
  input: { where: SQL; accountId: number; userId: number | null },
): Promise<{ ids: number[]; controllers: QueuedCommand[] }> {
  const cancelled = rowsOf<{ id: number; device_ids: number[] }>(
    await db.execute(sql`
      UPDATE overrides SET status = 'cancelled', cancelled_at = now(), updated_at = now()
      WHERE ${input.where} AND overrides.status = 'active'
      RETURNING overrides.id::int AS id, overrides.device_ids`),
  );
  if (!cancelled.length) return { ids: [], controllers: [] };
  const ids = [...new Set(cancelled.flatMap((c) => (c.device_ids ?? []).map(Number)))];
  const targets = ids.length
    ? rowsOf<ConfigTarget>(
        await db.execute(sql`
          SELECT ${CONFIG_TARGET_COLUMNS}
          FROM devices JOIN device_models m ON m.id = devices.device_type_model_id
          WHERE devices.id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND m.support_task
            AND (devices.dev_eui IS NOT NULL OR devices.uid IS NOT NULL)`),
      )
    : [];
  const queued = targets.length
    ? await queueConfigCommands(db, {
        operation: 'cancel-override',
        targets,
        actor: { userId: input.userId, accountId: input.accountId },
      })
    : undefined;
  if (queued)
    commands.emit({
      resource: 'deploy-response-logs',
      action: 'create',
      record: { ids: queued.queued.map((q) => q.logId) },
    });
  for (const c of cancelled)
    commands.emit({ resource: 'overrides', action: 'update', record: { id: c.id }, accountId: input.accountId });
  return { ids: cancelled.map((c) => c.id), controllers: queued?.queued ?? [] };
}
