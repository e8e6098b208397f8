import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rowsOf } from './alarm-rows.ts';

/** Why an alarm was cleared: its value came back, an operator cleared it, its device or gateway was heard again. */
export type ClearReason = 'value' | 'operator' | 'recovery';

/**
 * Clears the active alarms `where` selects (on `alert_logs a`, joined to `from` when given), in one
 * statement: each is marked cleared with its reason (and who and why, for an operator's clear), its
 * notification timers are dropped, and the transaction log gets a `clear` row with the state it
 * was cleared from. The rows are locked first, so two workers clearing the same alarm log it once.
 * Resolves with the cleared rows (`previous_state` added).
 */
export async function clearAlarms(
  db: Db,
  match: { from?: SQL; where: SQL },
  how: { reason: ClearReason; userId?: number | null; comment?: string | null },
): Promise<Record<string, unknown>[]> {
  const userId = how.userId ?? null;
  const comment = how.comment ?? null;
  return rowsOf(
    await db.execute(sql`
      WITH previous AS (
        SELECT a.id, a.state FROM alert_logs a${match.from ? sql`, ${match.from}` : sql``}
        WHERE a.is_active AND ${match.where}
        FOR UPDATE OF a
      ), cleared AS (
        UPDATE alert_logs a SET is_active = false, state = 'cleared', cleared_at = now(), cleared_by = ${userId},
          clear_reason = ${how.reason}, comment = coalesce(${comment}, a.comment), updated_at = now()
        FROM previous p WHERE a.id = p.id
        RETURNING a.*, p.state AS previous_state
      ), dropped AS (
        DELETE FROM alarm_timers WHERE alert_log_id IN (SELECT id FROM cleared)
      ), logged AS (
        INSERT INTO transaction_logs (account_id, user_id, resource, action, record_id, before, after)
        SELECT c.account_id, ${userId}, 'alert-logs', 'clear', c.id, jsonb_build_object('state', c.previous_state),
          jsonb_build_object('state', c.state, 'clearReason', c.clear_reason, 'comment', c.comment)
        FROM cleared c
      )
      SELECT * FROM cleared`),
  );
}

/**
 * Clears the silence alarms (`nodeLoss`, `gatewayLoss`) of what was heard again since they were
 * raised, reason `recovery`: `heard` is where that is known (`from`, joined to the alarm `a` by
 * `where`) and its time of last hearing (`at`). Resolves with the cleared rows.
 */
export function clearRecovered(
  db: Db,
  kind: 'nodeLoss' | 'gatewayLoss',
  heard: { from: SQL; where: SQL; at: SQL },
): Promise<Record<string, unknown>[]> {
  return clearAlarms(
    db,
    { from: heard.from, where: sql`a.kind = ${kind} AND ${heard.where} AND ${heard.at} > a.date_time` },
    { reason: 'recovery' },
  );
}

/**
 * The statement part that writes the transaction log's `raise` row (the whole new row) of every
 * alarm in `raised`, a `WITH` query of inserted `alert_logs` rows: as `logged AS (${logRaised(…)})`.
 */
export const logRaised = (raised: SQL): SQL => sql`
  INSERT INTO transaction_logs (account_id, user_id, resource, action, record_id, before, after)
  SELECT r.account_id, NULL, 'alert-logs', 'raise', r.id, NULL, to_jsonb(r) FROM ${raised} r`;

/**
 * The statement part that starts the notification timers of the alarms in `raised`: one per alert
 * event that `match` pairs with an alarm `r` (the event is `e`), due at once, or after the event's
 * duration when it turns to an alarm only after one (`minuteSeconds` seconds to its minute).
 */
export const startTimers = (raised: SQL, match: SQL, minuteSeconds?: number): SQL => sql`
  INSERT INTO alarm_timers (account_id, alert_log_id, alert_event_id, due_at)
  SELECT r.account_id, r.id, e.id, ${
    minuteSeconds === undefined
      ? sql`now()`
      : sql`now() + make_interval(secs => CASE WHEN e.turn_to_alarm THEN coalesce(e.duration_of_alarm, 0) ELSE 0 END
      * ${minuteSeconds}::float8)`
  }
  FROM ${raised} r JOIN alert_events e ON ${match}
  ON CONFLICT DO NOTHING`;
