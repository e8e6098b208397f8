import type { FaultRule } from '@lampyr/contract';
import type { Fault } from '@lampyr/simulator';
import { devEuiOf } from '@lampyr/simulator/demo-fleet';
import { sql } from 'drizzle-orm';
import { AccessResolver, type Actor } from '../access/access.ts';
import { type TransitionInput, takeTransition } from '../data/work-orders.ts';
import type { Db } from '../db/connect.ts';
import { eventMatch } from '../engines/alarms/alarm-rows.ts';
import { clears, holds } from '../engines/alarms/conditions.ts';
import { loadRuleBook, type WatchedDevice } from '../engines/alarms/rule-book.ts';
import { CommandedSource } from '../engines/faults/commanded.ts';
import {
  FAULT_CHANNEL_CODES,
  judgeSample,
  type LampSample,
  newDeviceState,
  reportedCommand,
  scaledTimings,
} from '../engines/faults/fault-judge.ts';
import { RULE_FAULT_TYPES, RULE_LEVELS, THRESHOLDS } from '../engines/faults/fault-rules.ts';
import { addDays, localDate, zonedInstant } from '../engines/sun-times/zoned-time.ts';
import { translator } from '../i18n/translate.ts';
import { column, rowsOf } from '../ingest/array-codec.ts';

const MINUTE = 60_000;

/** One report of one light: its values by channel code, as the simulated controller states them. */
export interface HistorySample {
  accountId: number;
  deviceId: number;
  at: number;
  values: Record<string, number>;
}

/** A while in which a light misbehaves: a simulator fault, or silence (it sends nothing). */
export interface Episode {
  fault: Fault | 'silent';
  from: Date;
  until: Date;
  /** It reports this often meanwhile (a controller reporting each change of its lamp). */
  reportEveryMs?: number;
}

/** What a person does about the fault, and when: a work-order transition, or acknowledging its alarm. */
export type CrewStep =
  | { at: Date; do: 'acknowledge' }
  | { at: Date; do: 'transition'; input: DistributiveOmit<TransitionInput, 'id'> };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface DemoFault {
  /** The light, as the simulator knows it (devEui or uid). */
  simulatorId: string;
  episodes: Episode[];
  /** The fault report the crew works on: the rule that raised it (or `communicationLoss`). */
  report: FaultRule | 'communicationLoss';
  crew: CrewStep[];
}

/**
 * The demo's faults over the last two weeks, by light and local time before `end` (the first start):
 * a lamp that failed one night and was repaired two days later, a controller relay stuck closed (a
 * day-burner), an end-of-life lamp cycling one evening (its replacement planned), and a light silent
 * for a night after a power cut in its street. Their alarms are not scripted: they follow from the
 * readings these make, judged by the engines' own rules.
 */
export function demoFaults(end: Date, timeZone: string): DemoFault[] {
  const today = localDate(end, timeZone);
  const day = (daysAgo: number) => addDays(today, -daysAgo);
  const at = (daysAgo: number, clock: string) => {
    const [h, m] = clock.split(':').map(Number) as [number, number];
    return zonedInstant(day(daysAgo), h * 60 + m, timeZone);
  };
  const transition = (when: Date, input: DistributiveOmit<TransitionInput, 'id'>): CrewStep => ({
    at: when,
    do: 'transition',
    input,
  });
  return [
    {
      simulatorId: devEuiOf(42),
      report: 'lampFailure',
      episodes: [{ fault: 'no_power', from: at(9, '21:40'), until: at(7, '11:20') }],
      crew: [
        { at: at(8, '07:50'), do: 'acknowledge' },
        transition(at(8, '08:40'), {
          transition: 'assign',
          assigneeId: 0,
          crew: 'Crew 2 (Caferağa)',
          note: 'Dark since last night',
        }),
        transition(at(8, '08:45'), { transition: 'plan', plannedDate: day(7), work: 'Check the driver and the lamp' }),
        transition(at(7, '10:35'), { transition: 'start' }),
        transition(at(7, '11:20'), {
          transition: 'resolve',
          resolution: 'LED driver failed; replaced, lamp tested at 100 % and 50 %',
          partsUsed: 'LED driver 120 W × 1',
        }),
        transition(at(6, '09:15'), { transition: 'close', note: 'Lit all night since the repair' }),
      ],
    },
    {
      simulatorId: devEuiOf(131),
      report: 'dayBurning',
      episodes: [{ fault: 'day_burning', from: at(12, '04:00'), until: at(11, '14:05') }],
      crew: [
        { at: at(12, '09:30'), do: 'acknowledge' },
        transition(at(12, '09:40'), { transition: 'assign', assigneeId: 0, crew: 'Crew 1 (Moda)' }),
        transition(at(12, '09:45'), { transition: 'plan', plannedDate: day(11), work: 'Replace the controller relay' }),
        transition(at(11, '13:30'), { transition: 'start' }),
        transition(at(11, '14:05'), {
          transition: 'resolve',
          resolution: 'Relay stuck closed; replaced',
          partsUsed: 'Relay 16 A × 1',
        }),
        transition(at(10, '09:00'), { transition: 'close' }),
      ],
    },
    {
      simulatorId: devEuiOf(163),
      report: 'cycling',
      episodes: [{ fault: 'cycling', from: at(3, '20:30'), until: at(3, '23:30'), reportEveryMs: 10 * MINUTE }],
      crew: [
        transition(at(2, '09:05'), {
          transition: 'assign',
          assigneeId: 0,
          crew: 'Crew 1 (Moda)',
          note: 'Went on and off for three hours last night',
        }),
        transition(at(2, '09:10'), {
          transition: 'plan',
          plannedDate: addDays(today, 1),
          work: 'Replace the lamp (end of life)',
        }),
      ],
    },
    {
      simulatorId: devEuiOf(15),
      report: 'communicationLoss',
      episodes: [{ fault: 'silent', from: at(4, '19:20'), until: at(3, '07:45') }],
      crew: [
        { at: at(4, '20:05'), do: 'acknowledge' },
        transition(at(3, '08:20'), { transition: 'assign', assigneeId: 0, crew: 'Crew 2 (Caferağa)' }),
        transition(at(3, '08:25'), { transition: 'start' }),
        transition(at(3, '08:40'), {
          transition: 'resolve',
          resolution: 'Back on its own at 07:45 after a power cut in the street; no visit needed',
        }),
        transition(at(3, '08:45'), { transition: 'close' }),
      ],
    },
  ];
}

/** One alarm of the history: raised at one reading, cleared at a later one (or still active at the end). */
interface AlarmEpisode {
  deviceId: number;
  kind: FaultRule | 'threshold' | 'nodeLoss';
  level: string;
  at: number;
  clearedAt: number | null;
  clearReason: 'value' | 'recovery';
  value: number | null;
  unit: string | null;
  details: Record<string, unknown> | null;
  name: string;
  templateId: number | null;
  channelTemplateId: number | null;
  channelType: string | null;
  channelValue: string | null;
}

export interface FaultyLight {
  deviceId: number;
  accountId: number;
  fault: DemoFault;
  samples: HistorySample[];
  /** The light's channel templates: code → id. */
  channels: Map<string, number>;
}

/**
 * The alarms, fault reports and work orders of the lights with scripted faults: their readings
 * judged by the same rules as live ones — the alarm templates that watch them (threshold alarms),
 * the lamp fault rules (against what their schedule commanded then) and their node-loss settings —
 * written with the times they would have had, then the crew's steps taken through the work-order
 * state machine at their own times.
 */
export async function writeFaultHistory(
  db: Db,
  history: { lights: FaultyLight[]; adminEmail?: string; end: Date },
): Promise<{ alarms: number; faultReports: number }> {
  const t = translator('en');
  const episodes: AlarmEpisode[] = [];
  const book = await loadRuleBook(db);
  const commanded = new CommandedSource(db);
  await commanded.prepare(history.lights.map((l) => l.deviceId));
  const models = await lampModels(
    db,
    history.lights.map((l) => l.deviceId),
  );
  const nodeLoss = await nodeLossSettings(
    db,
    history.lights.map((l) => l.deviceId),
  );
  for (const light of history.lights) {
    episodes.push(...thresholdAlarms(light, book.get(light.deviceId)));
    episodes.push(...(await faultAlarms(light, commanded, models.get(light.deviceId), t)));
    const setting = nodeLoss.get(light.deviceId);
    if (setting) episodes.push(...nodeLossAlarms(light, setting));
  }
  if (!episodes.length) return { alarms: 0, faultReports: 0 };
  const alarms = await insertAlarms(db, episodes);
  const reports = await insertReports(db, alarms, t);
  await crewSteps(db, history, alarms, reports);
  return { alarms: alarms.length, faultReports: reports.size };
}

/** The alarm templates' verdicts (DEVICES.md "Alarms"): raise when the condition holds, clear past its hysteresis. */
function thresholdAlarms(light: FaultyLight, watched: WatchedDevice | undefined): AlarmEpisode[] {
  if (!watched) return [];
  const codeOf = new Map([...light.channels].map(([code, id]) => [id, code]));
  const lampCode = watched.lampChannelId === null ? undefined : codeOf.get(watched.lampChannelId);
  const open = new Map<number, AlarmEpisode>();
  const out: AlarmEpisode[] = [];
  for (const s of light.samples) {
    const lampOn = lampCode === undefined ? undefined : (s.values[lampCode] ?? 0) > 0;
    for (const [channelId, rules] of watched.byChannel) {
      const value = s.values[codeOf.get(channelId) ?? ''];
      if (value === undefined) continue;
      for (const rule of rules) {
        if (rule.whileLampOn && lampOn !== true) continue;
        const active = open.get(rule.templateId);
        if (active) {
          if (clears(rule, value)) {
            active.clearedAt = s.at;
            open.delete(rule.templateId);
          }
        } else if (holds(rule, value)) {
          const episode: AlarmEpisode = {
            deviceId: light.deviceId,
            kind: 'threshold',
            level: rule.alertLevel,
            at: s.at,
            clearedAt: null,
            clearReason: 'value',
            value,
            unit: rule.unit,
            details: null,
            name: rule.templateName,
            templateId: rule.templateId,
            channelTemplateId: rule.channelTemplateId,
            channelType: rule.channelCode,
            channelValue: rule.channelName,
          };
          open.set(rule.templateId, episode);
          out.push(episode);
        }
      }
    }
  }
  return out;
}

/** The lamp fault rules (engines/faults), sample by sample, against what the light was commanded to then. */
async function faultAlarms(
  light: FaultyLight,
  commanded: CommandedSource,
  model: { ratedPower: number | null; nominalVoltage: number } | undefined,
  t: ReturnType<typeof translator>,
): Promise<AlarmEpisode[]> {
  if (!model) return [];
  const state = newDeviceState();
  const timings = scaledTimings();
  const open = new Map<FaultRule, AlarmEpisode>();
  const out: AlarmEpisode[] = [];
  for (const s of light.samples) {
    const sample: LampSample = { at: s.at };
    for (const [code, value] of Object.entries(s.values)) {
      const field = FAULT_CHANNEL_CODES[code];
      if (field) sample[field] = value;
    }
    const reported = reportedCommand(state, sample);
    const command = (await commanded.commandedAt(light.deviceId, s.at)) ?? reported;
    const isDay = commanded.isDay(light.deviceId, s.at);
    for (const { rule, result, verdict } of judgeSample(state, model, sample, command, isDay, timings)) {
      if (result === 'latch' && verdict) {
        const episode: AlarmEpisode = {
          deviceId: light.deviceId,
          kind: rule,
          level: RULE_LEVELS[rule],
          at: s.at,
          clearedAt: null,
          clearReason: 'value',
          value: verdict.value,
          unit: verdict.unit || null,
          details: { rule, ...verdict.figures },
          name: t(`faults.rules.${rule}`),
          templateId: null,
          channelTemplateId: null,
          channelType: null,
          channelValue: null,
        };
        open.set(rule, episode);
        out.push(episode);
      } else if (result === 'clear') {
        const episode = open.get(rule);
        if (episode) episode.clearedAt = s.at;
        open.delete(rule);
      }
    }
  }
  return out;
}

/** Node loss: a silence longer than the heartbeat threshold raises at its end and clears with the next report. */
function nodeLossAlarms(light: FaultyLight, setting: { level: string; thresholdMs: number }): AlarmEpisode[] {
  const out: AlarmEpisode[] = [];
  for (let i = 1; i < light.samples.length; i++) {
    const before = (light.samples[i - 1] as HistorySample).at;
    const after = (light.samples[i] as HistorySample).at;
    if (after - before <= setting.thresholdMs) continue;
    out.push({
      deviceId: light.deviceId,
      kind: 'nodeLoss',
      level: setting.level,
      at: before + setting.thresholdMs,
      clearedAt: after,
      clearReason: 'recovery',
      value: null,
      unit: null,
      details: null,
      name: '',
      templateId: null,
      channelTemplateId: null,
      channelType: null,
      channelValue: null,
    });
  }
  return out;
}

async function lampModels(db: Db, ids: number[]) {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT d.id, coalesce(d.rated_power, m.rated_power) AS rated_power, m.nominal_voltage
      FROM devices d JOIN device_models m ON m.id = d.device_type_model_id
      WHERE d.id = ANY(${`{${ids.join(',')}}`}::bigint[])`),
  );
  return new Map(
    rows.map((r) => {
      const rated = r.rated_power === null ? null : Number(r.rated_power);
      const nominal = r.nominal_voltage === null ? null : Number(r.nominal_voltage);
      return [
        Number(r.id),
        {
          ratedPower: rated && rated > 0 ? rated : null,
          nominalVoltage: nominal && nominal > 0 ? nominal : THRESHOLDS.nominalVoltage,
        },
      ];
    }),
  );
}

async function nodeLossSettings(db: Db, ids: number[]) {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT DISTINCT ON (device_id) device_id, alert_level, heartbeat_threshold FROM device_node_loss_settings
      WHERE is_active AND device_id = ANY(${`{${ids.join(',')}}`}::bigint[]) ORDER BY device_id, id`),
  );
  return new Map(
    rows.map((r) => [
      Number(r.device_id),
      { level: String(r.alert_level), thresholdMs: Number(r.heartbeat_threshold) * MINUTE },
    ]),
  );
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
