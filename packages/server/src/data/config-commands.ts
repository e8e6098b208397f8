import { randomUUID } from 'node:crypto';
import {
  CONFIG_OPS,
  ConfigEncodingError,
  type ConfigOpName,
  type DeviceProgram,
  programFromProfile,
} from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { Db } from '../db/connect.ts';
import { transactionLogs } from '../db/schema/index.ts';
import { ApiException } from '../errors/api-exception.ts';
import { FALLBACK_TIME_ZONE } from './time-zones.ts';

const rowsOf = <T = Record<string, unknown>>(result: unknown) => (result as { rows: T[] }).rows;

/** A time zone's offset from UTC at an instant, in minutes (DST included). */
export function utcOffsetMinutes(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at);
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0));
}

export interface ConfigTarget {
  id: number;
  accountId: number;
  name: string;
  devEui: string | null;
  uid: string | null;
  latitude: number | null;
  longitude: number | null;
  supportTask: boolean;
  /** Where the device's fixed switch times are read: its region's city's zone, else its country's, else UTC. */
  timeZone: string;
}

/**
 * The columns of a `ConfigTarget`, over `devices` joined to its model as `m` — one definition for
 * every query that picks the devices a configuration command goes to.
 */
export const CONFIG_TARGET_COLUMNS = sql`
  devices.id::int AS id, devices.account_id::int AS "accountId", devices.name, devices.dev_eui AS "devEui",
  devices.uid, devices.latitude, devices.longitude, m.support_task AS "supportTask",
  coalesce((SELECT coalesce(nullif(c.time_zone, ''), nullif(k.time_zone, ''))
            FROM regions r LEFT JOIN cities c ON c.id = r.city_id LEFT JOIN countries k ON k.id = c.country_id
            WHERE r.id = devices.region_id), ${FALLBACK_TIME_ZONE}) AS "timeZone"`;

const list = (names: string[]) =>
  names.length > 10 ? `${names.slice(0, 10).join(', ')} … (+${names.length - 10})` : names.join(', ');

/**
 * The devices a configuration command goes to, all or none: every id must be a device the caller
 * sees (`scope`, the devices repository's), of a model that keeps a schedule, with an address.
 * Otherwise a 404/422 naming the devices, and nothing is queued.
 */
export async function configTargets(db: Db, scope: SQL, ids: number[], t: TFunction): Promise<ConfigTarget[]> {
  const unique = [...new Set(ids)];
  const rows = rowsOf<ConfigTarget>(
    await db.execute(sql`
      SELECT ${CONFIG_TARGET_COLUMNS}
      FROM devices JOIN device_models m ON m.id = devices.device_type_model_id
      WHERE ${scope} AND devices.id = ANY(${`{${unique.join(',')}}`}::bigint[])
      ORDER BY devices.id`),
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = unique.filter((id) => !found.has(id));
  const refuse = (key: string, vars: Record<string, string>) =>
    new ApiException('VALIDATION', key, vars, { deviceIds: t(key, vars) });
  if (missing.length) throw refuse('errors.devicesNotFound', { ids: list(missing.map(String)) });
  const unsupported = rows.filter((r) => !r.supportTask);
  if (unsupported.length) throw refuse('errors.noTaskSupport', { devices: list(unsupported.map((r) => r.name)) });
  const unreachable = rows.filter((r) => !r.devEui && !r.uid);
  if (unreachable.length) throw refuse('errors.noDeviceAddress', { devices: list(unreachable.map((r) => r.name)) });
  return rows;
}

/** A profile the caller sees and its timings, built into a program for one device. */
export async function programBuilder(
  db: Db,
  profileScope: SQL,
  profileId: number,
  t: TFunction,
): Promise<{ profileId: number; build(target: ConfigTarget, version: number, at: Date): DeviceProgram }> {
  const profile = rowsOf<{ id: number; operation: string; dim_level: number | null; off_days: unknown }>(
    await db.execute(sql`
      SELECT task_profiles.id::int AS id, operation, dim_level, off_days FROM task_profiles
      WHERE ${profileScope} AND task_profiles.id = ${profileId}`),
  )[0];
  if (!profile) throw new ApiException('NOT_FOUND');
  const timings = rowsOf(
    await db.execute(sql`SELECT * FROM task_profile_timings WHERE task_profile_id = ${profileId} ORDER BY id`),
  ).map(camelTiming);
  const refuse = (error: unknown): never => {
    if (!(error instanceof ConfigEncodingError)) throw error;
    const vars = { reason: error.message };
    throw new ApiException('VALIDATION', 'errors.programInvalid', vars, {
      profileId: t('errors.programInvalid', vars),
    });
  };
  const build = (target: ConfigTarget, version: number, at: Date) => {
    try {
      // A timing made for one device applies to that device only; the others to every device.
      const own = timings.filter((timing) => timing.deviceId === null || Number(timing.deviceId) === target.id);
      return programFromProfile(
        { operation: profile.operation, dimLevel: profile.dim_level, offDays: profile.off_days },
        own,
        {
          version,
          utcOffsetMinutes: utcOffsetMinutes(target.timeZone, at),
          ...(target.latitude !== null && target.longitude !== null
            ? { location: { lat: target.latitude, lon: target.longitude } }
            : {}),
        },
      );
    } catch (error) {
      return refuse(error);
    }
  };
  // A profile that cannot become a program is refused before anything is queued.
  // Refused before anything is queued; a device's own timing that fails is refused inside the
  // transaction that queues, which then rolls back whole.
  if (timings.every((timing) => timing.deviceId === null) || !timings.length)
    build(
      {
        id: 0,
        accountId: 0,
        name: '',
        devEui: null,
        uid: null,
        latitude: 0,
        longitude: 0,
        supportTask: true,
        timeZone: FALLBACK_TIME_ZONE,
      },
      1,
      new Date(),
    );
  return { profileId, build };
}

function camelTiming(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()), v]),
  );
}

export interface QueuedCommand {
  deviceId: number;
  name: string;
  logId: number;
  operation: ConfigOpName;
  status: 'pending';
  version: number | null;
}

/**
 * One deploy response log row per device, pending, for the deployment engine to send; an open row
 * of the same operation for the same device is superseded (failed, `superseded`) so only the newest
 * is awaited. One transaction with the transaction log entry; returns the rows for the answer.
 */
export async function queueConfigCommands(
  db: Db,
  input: {
    operation: ConfigOpName;
    targets: ConfigTarget[];
    /** The command's arguments for a device (a deploy's program gets the device's next version). */
    argsFor?: (target: ConfigTarget, version: number) => Record<string, unknown>;
    taskProfileId?: number;
    taskGroupId?: number;
    actor: { userId: number | null; accountId: number };
    at?: Date;
  },
): Promise<{ batchId: string; queued: QueuedCommand[] }> {
  const batchId = randomUUID();
  const at = input.at ?? new Date();
  const ids = input.targets.map((d) => d.id);
  const queued = await db.transaction(async (tx) => {
    const versions = new Map(
      rowsOf<{ device_id: number; v: number }>(
        await tx.execute(sql`
          SELECT device_id::int AS device_id, max(version)::int AS v FROM deploy_response_logs
          WHERE device_id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND operation = 'deploy' GROUP BY device_id`),
      ).map((r) => [r.device_id, r.v]),
    );
    await tx.execute(sql`
      UPDATE deploy_response_logs SET status = 'failed', response_result = 'superseded', next_attempt_at = NULL,
        updated_at = now()
      WHERE device_id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND operation = ${input.operation}
        AND (status IN ('pending', 'sent') OR (status = 'mismatch' AND next_attempt_at IS NOT NULL))`);
    const out: QueuedCommand[] = [];
    for (const target of input.targets) {
      const version = input.operation === 'deploy' ? ((versions.get(target.id) ?? 0) % 0xffff) + 1 : null;
      const args = input.argsFor?.(target, version ?? 0) ?? {};
      const row = rowsOf<{ id: number }>(
        await tx.execute(sql`
          INSERT INTO deploy_response_logs (account_id, task_profile_id, lora_wan_operation_type_id, dev_eui, device_id,
            resend_operation, resend_count, status, operation, version, task_group_id, batch_id, command)
          VALUES (${target.accountId}, ${input.taskProfileId ?? null}, ${CONFIG_OPS[input.operation]}, ${target.devEui},
            ${target.id}, false, 0, 'pending', ${input.operation}, ${version}, ${input.taskGroupId ?? null}, ${batchId},
            ${JSON.stringify(args)}::jsonb)
          RETURNING id::int AS id`),
      )[0] as { id: number };
      out.push({
        deviceId: target.id,
        name: target.name,
        logId: row.id,
        operation: input.operation,
        status: 'pending',
        version,
      });
    }
    await tx.insert(transactionLogs).values({
      accountId: input.actor.accountId,
      userId: input.actor.userId,
      resource: 'deploy-response-logs',
      action: input.operation,
      recordId: input.taskGroupId ?? null,
      before: null,
      after: { batchId, deviceIds: ids, taskProfileId: input.taskProfileId ?? null, at: at.toISOString() },
    });
    return out;
  });
  return { batchId, queued };
}

/** Still waiting for the device: not yet sent, sent, or a mismatch with attempts left. */
export const OPEN_ROW = sql.raw(
  "(r.status IN ('pending', 'sent') OR (r.status = 'mismatch' AND r.next_attempt_at IS NOT NULL))",
);

/**
 * A task group's publication status from its latest deployment's rows: publishing while any device
 * is still open, published when every one confirmed, failed when any ran out of attempts.
 *
 * The group's row is locked before the rows are counted, in a statement of its own: settles queue
 * on it and each counts what was committed before its turn. Counted in the statement that writes
 * (one snapshot taken before it waited for the row), a settle that started before the last
 * confirmation committed could write after the settle that saw it, leaving the group publishing for
 * good (seen in CI under load).
 */
export async function settleGroups(db: Db, batchIds: Iterable<string>): Promise<void> {
  for (const batchId of new Set(batchIds)) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        SELECT g.id FROM task_groups g
        WHERE g.id = (SELECT min(r.task_group_id) FROM deploy_response_logs r WHERE r.batch_id = ${batchId})
        FOR UPDATE`);
      await tx.execute(sql`
        WITH progress AS (
          SELECT min(r.task_group_id) AS group_id, count(*) AS total,
                 count(*) FILTER (WHERE ${OPEN_ROW}) AS open,
                 count(*) FILTER (WHERE r.status = 'confirmed') AS confirmed
          FROM deploy_response_logs r WHERE r.batch_id = ${batchId} AND r.task_group_id IS NOT NULL)
        UPDATE task_groups g SET
          publication_status = CASE WHEN p.open > 0 THEN 'publishing' WHEN p.confirmed = p.total THEN 'published' ELSE 'failed' END,
          message = p.confirmed || '/' || p.total,
          updated_at = now()
        FROM progress p WHERE g.id = p.group_id`);
    });
  }
}
