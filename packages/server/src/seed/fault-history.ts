import { sql } from 'drizzle-orm';
import { AccessResolver, type Actor } from '../access/access.ts';
import { type TransitionInput, takeTransition } from '../data/work-orders.ts';
import type { Db } from '../db/connect.ts';
import { eventMatch } from '../engines/alarms/alarm-rows.ts';
import { RULE_FAULT_TYPES } from '../engines/faults/fault-rules.ts';
import { translator } from '../i18n/translate.ts';
import { column, rowsOf } from '../ingest/array-codec.ts';
import { type AlarmEpisode, alarmEpisodes, type FaultyLight } from './history-alarms.ts';

/**
 * The alarms, fault reports and work orders of the lights with scripted faults: the alarms their
 * readings raise by the engines' rules (history-alarms.ts), written as the engines write them with
 * the times they would have had, the fault reports the fault engine files for them, then the crew's
 * steps taken through the work-order state machine at their own times.
 */
export async function writeFaultHistory(
  db: Db,
  history: { lights: FaultyLight[]; adminEmail?: string; end: Date },
): Promise<{ alarms: number; faultReports: number }> {
  const t = translator('en');
  const episodes = await alarmEpisodes(db, history.lights);
  if (!episodes.length) return { alarms: 0, faultReports: 0 };
  const alarms = await insertAlarms(db, episodes);
  const reports = await insertReports(db, alarms, t);
  await crewSteps(db, history, alarms, reports);
  return { alarms: alarms.length, faultReports: reports.size };
}

interface StoredAlarm {
  id: number;
  accountId: number;
  deviceId: number;
  kind: string;
  at: number;
  clearedAt: number | null;
  details: Record<string, unknown> | null;
}

/**
 * The alarms as the engines write them (level, time, device, region, type, event name, figures),
 * cleared at their time, each with its raise and clear in the transaction log at those times.
 */
async function insertAlarms(db: Db, episodes: AlarmEpisode[]): Promise<StoredAlarm[]> {
  const e = sql.raw('e');
  const match = eventMatch(e, sql.raw('d.account_id'), sql.raw('d.id'), sql.raw('i.channel_template_id'));
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const list = [...episodes].sort((a, b) => a.at - b.at);
  const rows = rowsOf(
    await db.execute(sql`
      WITH input AS (
        SELECT * FROM unnest(
          ${column(list, (x) => x.deviceId)}::bigint[], ${column(list, (x) => x.kind)}::text[],
          ${column(list, (x) => x.level)}::text[], ${column(list, (x) => iso(x.at))}::timestamptz[],
          ${column(list, (x) => iso(x.clearedAt))}::timestamptz[], ${column(list, (x) => x.clearReason)}::text[],
          ${column(list, (x) => x.value)}::float8[], ${column(list, (x) => x.unit)}::text[],
          ${column(list, (x) => (x.details ? JSON.stringify(x.details) : null))}::text[],
          ${column(list, (x) => x.name || null)}::text[], ${column(list, (x) => x.templateId)}::bigint[],
          ${column(list, (x) => x.channelTemplateId)}::bigint[], ${column(list, (x) => x.channelType)}::text[],
          ${column(list, (x) => x.channelValue)}::text[])
        AS i(device_id, kind, alert_level, date_time, cleared_at, clear_reason, value, unit, details, name, template_id,
             channel_template_id, channel_type, channel_value)
      ), raised AS (
        INSERT INTO alert_logs
          (account_id, alert_level, date_time, device_id, template_id, value, unit, channel_type, channel_value, region_id,
           device_type_id, event_name, channel_template_id, sub_channel, kind, details, state, is_active, cleared_at,
           clear_reason, created_at, updated_at)
        SELECT d.account_id, i.alert_level, i.date_time, d.id, i.template_id, i.value, i.unit, i.channel_type,
          i.channel_value, d.region_id, m.device_type_id,
          coalesce((SELECT e.event_name FROM alert_events e WHERE ${match} ORDER BY e.priority NULLS LAST, e.id LIMIT 1), i.name),
          i.channel_template_id, 0, i.kind, i.details::jsonb,
          CASE WHEN i.cleared_at IS NULL THEN 'active' ELSE 'cleared' END, i.cleared_at IS NULL, i.cleared_at,
          CASE WHEN i.cleared_at IS NULL THEN NULL ELSE i.clear_reason END, i.date_time,
          coalesce(i.cleared_at, i.date_time)
        FROM input i JOIN devices d ON d.id = i.device_id JOIN device_models m ON m.id = d.device_type_model_id
        ON CONFLICT DO NOTHING
        RETURNING *
      ), logged AS (
        INSERT INTO transaction_logs (account_id, user_id, resource, action, record_id, before, after, created_at, updated_at)
        SELECT r.account_id, NULL::bigint, 'alert-logs', 'raise', r.id, NULL::jsonb,
          to_jsonb(r) - 'state' - 'is_active' - 'cleared_at' - 'clear_reason' || '{"state": "active"}'::jsonb,
          r.date_time, r.date_time
        FROM raised r
        UNION ALL
        SELECT r.account_id, NULL::bigint, 'alert-logs', 'clear', r.id, NULL::jsonb,
          jsonb_build_object('state', r.state, 'clearReason', r.clear_reason), r.cleared_at, r.cleared_at
        FROM raised r WHERE r.cleared_at IS NOT NULL
      )
      SELECT id, account_id, device_id, kind, date_time, cleared_at, details FROM raised`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    accountId: Number(r.account_id),
    deviceId: Number(r.device_id),
    kind: String(r.kind),
    at: new Date(r.date_time as string | Date).getTime(),
    clearedAt: r.cleared_at === null ? null : new Date(r.cleared_at as string | Date).getTime(),
    details: (r.details as Record<string, unknown> | null) ?? null,
  }));
}

/**
 * The fault reports the fault engine files (engines/faults): one per device and rule while it is
 * open, for a lamp fault rule's alarm or a node-loss alarm (communication loss). Answers each
 * report's id by device and rule.
 */
async function insertReports(
  db: Db,
  alarms: StoredAlarm[],
  t: ReturnType<typeof translator>,
): Promise<Map<string, number>> {
  const reports = new Map<string, number>();
  for (const alarm of alarms) {
    const rule =
      alarm.kind === 'nodeLoss' ? 'communicationLoss' : alarm.kind in RULE_FAULT_TYPES ? alarm.kind : undefined;
    if (!rule || alarm.kind === 'threshold') continue;
    const key = `${alarm.deviceId}:${rule}`;
    if (reports.has(key)) continue;
    const [row] = rowsOf(
      await db.execute(sql`
        INSERT INTO fault_reports
          (account_id, device_id, fault_type, description, reporter, reported_at, status, source, alert_log_id, rule_code,
           latitude, longitude, created_at, updated_at)
        SELECT ${alarm.accountId}, d.id, ${RULE_FAULT_TYPES[rule as keyof typeof RULE_FAULT_TYPES]},
          ${t(`faults.messages.${rule}`, figuresOf(alarm))}, 'Lampyr', a.date_time, 'open', 'detected', a.id, ${rule},
          d.latitude, d.longitude, a.date_time, a.date_time
        FROM devices d JOIN alert_logs a ON a.id = ${alarm.id} WHERE d.id = ${alarm.deviceId}
        RETURNING id`),
    );
    if (row) reports.set(key, Number(row.id));
  }
  return reports;
}

/** A fault rule's figures (its alarm's details) as the message's values, as the fault engine words them. */
const figuresOf = (alarm: StoredAlarm): Record<string, string> =>
  Object.fromEntries(
    Object.entries(alarm.details ?? {})
      .filter(([key]) => key !== 'rule')
      .map(([key, value]) => [key, String(value)]),
  );

/**
 * The crew's steps, at their times: alarms acknowledged (the alarm still active then), and the
 * work-order transitions through the state machine of data/work-orders.ts as the administrator.
 */
async function crewSteps(
  db: Db,
  history: { lights: FaultyLight[]; adminEmail?: string; end: Date },
  alarms: StoredAlarm[],
  reports: Map<string, number>,
): Promise<void> {
  if (!history.adminEmail) return;
  const [admin] = rowsOf(await db.execute(sql`SELECT id FROM users WHERE email = ${history.adminEmail.toLowerCase()}`));
  if (!admin) return;
  const userId = Number(admin.id);
  const access = await new AccessResolver(db).accountsOf(userId);
  const t = translator('en');
  for (const light of history.lights) {
    const account = access.get(light.accountId);
    const reportId = reports.get(`${light.deviceId}:${light.fault.report}`);
    if (!account || reportId === undefined) continue;
    const actor: Actor = { userId, account, accessibleAccountIds: [...access.keys()], accounts: access };
    for (const step of light.fault.crew) {
      const when = step.at.getTime();
      if (when > history.end.getTime()) continue;
      if (step.do === 'acknowledge') {
        // The operator acknowledges what the alarm screen shows of the light then.
        const ids = alarms
          .filter((a) => a.deviceId === light.deviceId && a.at <= when && (a.clearedAt ?? Infinity) > when)
          .map((a) => a.id);
        if (ids.length)
          await db.execute(sql`UPDATE alert_logs SET acknowledged_at = ${step.at.toISOString()}::timestamptz,
            acknowledged_by = ${userId}, state = CASE WHEN is_active THEN 'acknowledged' ELSE state END
            WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
        continue;
      }
      const input = { ...step.input, id: reportId } as TransitionInput;
      if (input.transition === 'assign') input.assigneeId = userId;
      await takeTransition(db, actor, input, t, step.at);
      // The transaction log keeps the step's own time, like the history row.
      await db.execute(sql`UPDATE transaction_logs SET created_at = ${step.at.toISOString()}::timestamptz,
        updated_at = ${step.at.toISOString()}::timestamptz
        WHERE id = (SELECT max(id) FROM transaction_logs WHERE resource = 'report-a-fault' AND record_id = ${reportId})`);
    }
  }
}
