import type { ConfigCommand, ConfigOpName, DeviceProgram, LiveDeploy } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { LiveEvent } from '../../events/live-events.ts';

export const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** The columns a statement changing a deploy response log row returns, for its live event and its group. */
export const DEPLOY_COLUMNS = sql.raw(
  'r.id, r.account_id, r.device_id, r.operation, r.status, r.version, r.reported_version, r.resend_count, r.task_group_id, r.batch_id, r.response_time, r.command, r.next_attempt_at',
);

/** How many times a configuration command is sent to a device without a ConnectionAttemptNumber. */
export const DEFAULT_CONFIG_ATTEMPTS = 3;
export const MAX_ATTEMPTS = sql.raw(`greatest(coalesce(d.connection_attempt_number, ${DEFAULT_CONFIG_ATTEMPTS}), 1)`);

const isoOrNull = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string | Date).toISOString();
const numOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function deployEvent(row: Record<string, unknown>): LiveEvent {
  return {
    type: 'deploy',
    id: Number(row.id),
    deviceId: Number(row.device_id),
    operation: String(row.operation),
    status: row.status as LiveDeploy['status'],
    version: numOrNull(row.version),
    reportedVersion: numOrNull(row.reported_version),
    resendCount: Number(row.resend_count ?? 0),
    taskGroupId: numOrNull(row.task_group_id),
    batchId: (row.batch_id as string | null) ?? null,
    responseTime: isoOrNull(row.response_time),
  };
}

/** The command a row stands for, from its operation and stored arguments. */
export function commandOfRow(row: Record<string, unknown>): ConfigCommand | undefined {
  const op = row.operation as ConfigOpName;
  const args = (row.command ?? {}) as { program?: DeviceProgram; level?: number; until?: string };
  switch (op) {
    case 'deploy':
      return args.program ? { op, program: args.program } : undefined;
    case 'override':
      return typeof args.level === 'number' && args.until
        ? { op, level: args.level, until: new Date(args.until) }
        : undefined;
    case 'config-request':
    case 'clear-device-data':
    case 'reset-device-config':
    case 'cancel-override':
      return { op };
    default:
      return undefined;
  }
}
