import type { LiveWrite } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { LiveEvent } from '../events/live-events.ts';

/** What a statement changing a channel write returns for its live event. */
export const WRITE_EVENT_COLUMNS = sql.raw(
  'id, account_id, device_id, device_channel_template_id, value, status, message, sent_at, answered_at, updated_at',
);

/** The same columns of `channel_write_values w` in a statement that joins another table. */
export const WRITE_EVENT_COLUMNS_OF_W = sql.raw(
  'w.id, w.account_id, w.device_id, w.device_channel_template_id, w.value, w.status, w.message, w.sent_at, w.answered_at, w.updated_at',
);

const isoOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string | Date).toISOString();

/** A channel-write-values row (snake_case, from SQL) as a live event. */
export function writeEvent(row: Record<string, unknown>): LiveEvent {
  return {
    type: 'write',
    id: Number(row.id),
    deviceId: Number(row.device_id),
    deviceChannelTemplateId: Number(row.device_channel_template_id),
    value: Number(row.value),
    status: String(row.status) as LiveWrite['status'],
    message: (row.message as string | null) ?? null,
    sentAt: isoOrNull(row.sent_at),
    answeredAt: isoOrNull(row.answered_at),
    updatedAt: isoOrNull(row.updated_at) as string,
  };
}
