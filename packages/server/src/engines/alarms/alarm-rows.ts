import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveAlarm } from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { LiveEvent } from '../../events/live-events.ts';

/**
 * Resolves on a later turn of the event loop (a timer), after this turn's I/O callbacks and
 * immediates. The ingest acknowledges a commit's messages in an immediate; the engines judge what it
 * committed after that, so their work never holds up the acknowledgements (and with them the
 * broker's next messages): measured on bench:ingest, the rate with alarm rules went from 0.92 of
 * the rate without them to 0.99.
 */
export const afterThisTurn = (): Promise<void> => sleep(0);

export const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

const isoOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string | Date).toISOString();
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** An alert-logs row (snake_case, from SQL) and its transition as the live stream's `alarm` event. */
export function alarmEvent(row: Record<string, unknown>, transition: LiveAlarm['transition']): LiveEvent {
  return {
    type: 'alarm',
    id: Number(row.id),
    deviceId: Number(row.device_id),
    state: String(row.state) as LiveAlarm['state'],
    kind: String(row.kind) as LiveAlarm['kind'],
    alertLevel: String(row.alert_level) as LiveAlarm['alertLevel'],
    templateId: numOrNull(row.template_id),
    eventName: (row.event_name as string | null) ?? null,
    value: numOrNull(row.value),
    unit: (row.unit as string | null) ?? null,
    dateTime: isoOrNull(row.date_time) as string,
    transition,
    shelvedUntil: isoOrNull(row.shelved_until),
  };
}

/** `id IN (…)` of a list of ids (never empty: callers check). */
export const idList = (ids: readonly number[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}::bigint`),
    sql`, `,
  );

/**
 * The alert events that notify about an alarm of this account, device and channel: an event naming
 * no device (or no channel) covers them all; an `inactive` one none.
 */
export const eventMatch = (e: SQL, accountId: SQL, deviceId: SQL, channelTemplateId: SQL): SQL => sql`
  ${e}.account_id = ${accountId}
  AND (${e}.device_id IS NULL OR ${e}.device_id = ${deviceId})
  AND (${e}.device_channel_template_id IS NULL OR ${e}.device_channel_template_id = ${channelTemplateId})
  AND coalesce(${e}.status, 'active') <> 'inactive'`;
