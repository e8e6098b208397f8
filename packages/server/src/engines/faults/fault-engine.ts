import { FAULT_RULES, type FaultRule, OPEN_STATUSES } from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import type { LiveEvent, LiveEvents } from '../../events/live-events.ts';
import { translator } from '../../i18n/translate.ts';
import { column } from '../../ingest/array-codec.ts';
import { afterThisTurn, alarmEvent, eventMatch, rowsOf } from '../alarms/alarm-rows.ts';
import { clearAlarms, logRaised, startTimers } from '../alarms/alarm-transitions.ts';
import { CommandedSource } from './commanded.ts';
import {
  FAULT_CHANNEL_CODES as CODES,
  type FaultCode as Code,
  type DeviceState,
  type JudgeTimings,
  judgeSample,
  type LampSample,
  newDeviceState,
  reportedCommand,
  ruleOf,
  scaledTimings,
} from './fault-judge.ts';
import { type LampModel, RULE_FAULT_TYPES, RULE_LEVELS, THRESHOLDS, type Verdict } from './fault-rules.ts';
import type { RuleState } from './fault-tracker.ts';

/** A committed value, as the ingest hands it over (the alarm engine's CommittedReading). */
export interface FaultReading {
  deviceId: number;
  templateId: number;
  subChannel: number;
  value: number;
  dateTime: Date;
}

interface WatchedLamp {
  accountId: number;
  regionId: number | null;
  deviceTypeId: number | null;
  model: LampModel;
}

interface Latch {
  deviceId: number;
  rule: FaultRule;
  at: number;
  verdict: NonNullable<Verdict>;
}

export interface FaultEngineOptions {
  db: Db;
  live: LiveEvents;
  onError?: (error: unknown) => void;
  /** Every settling, persistence and clearing time and the cycling window are multiplied by it (tests). */
  timeScale?: number;
  /** How long a device's commanded state is trusted before it is read again (ms). */
  commandRefreshMs?: number;
  /** Seconds in a configured "minute" of the alarm engine (alert events' durations). */
  minuteSeconds?: number;
}

/**
 * The first row of a detected fault's history (as a person's report has one): reported by Lampyr
 * when the rule latched, with the finding. `reports` names rows of new fault reports.
 */
const firstHistoryRow = (reports: SQL) => sql`
  INSERT INTO maintenance_history (account_id, device_id, fault_report_id, action, work, performed_by, performed_at)
  SELECT n.account_id, n.device_id, n.id, 'reported', coalesce(n.description, '—'), 'Lampyr', n.reported_at
  FROM ${reports} n`;

const keyOf = (deviceId: number, rule: string) => `${deviceId}:${rule}`;

/**
 * Lamp fault detection (issue 13): every committed batch of readings is grouped into samples (one
 * device's values at one reading time), each judged by the rules of fault-rules.ts against the level
 * the lamp was commanded to then (commanded.ts). Per device the engine keeps only its last values,
 * state-change times, cycling flips and each rule's latch — O(batch) work, no reading is ever read
 * back. A latch raises an alarm of the rule's kind in `alert_logs` (the alarm lifecycle: acknowledge,
 * shelve, clear, notifications through alert events) and opens a fault report; the condition gone for
 * the clearing time clears the alarm, the report stays for the crew. Active fault alarms are read at
 * start and at every resync, so a restart or an operator's clear is known.
 */
export class FaultEngine {
  private lamps = new Map<number, WatchedLamp>();
  private channelCode = new Map<number, Code>();
  private state = new Map<number, DeviceState>();
  private pending: (readonly FaultReading[])[] = [];
  private evaluating = false;
  private chain: Promise<void> = Promise.resolve();
  private loaded?: Promise<void>;
  readonly commanded: CommandedSource;
  private readonly timings: JudgeTimings;
  private readonly onError: (error: unknown) => void;

  constructor(private readonly options: FaultEngineOptions) {
    this.timings = scaledTimings(options.timeScale ?? 1);
    this.onError = options.onError ?? (() => {});
    this.commanded = new CommandedSource(options.db, options.commandRefreshMs ?? 60_000);
  }

  ready(): Promise<void> {
    this.loaded ??= this.enqueue(() => this.reload());
    return this.loaded;
  }

  /** Devices, models or channels changed: read them again (the latches stay). */
  devicesChanged(): Promise<void> {
    return this.enqueue(() => this.reload());
  }

  async idle(): Promise<void> {
    await this.chain;
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.chain.then(work).catch(this.onError);
    this.chain = next;
    return next;
  }

  /** The lamps watched (active devices and their models) and the active fault alarms. */
  async reload(): Promise<void> {
    const { db } = this.options;
    const [devices, channels] = await Promise.all([
      db.execute(sql`
        SELECT d.id, d.account_id, d.region_id, m.device_type_id, coalesce(d.rated_power, m.rated_power) AS rated_power,
          m.nominal_voltage
        FROM devices d JOIN device_models m ON m.id = d.device_type_model_id WHERE d.is_active`),
      db.execute(sql`
        SELECT id, channel_code FROM device_channel_templates
        WHERE channel_code IN (${sql.join(
          Object.keys(CODES).map((c) => sql`${c}`),
          sql`, `,
        )})`),
    ]);
    this.lamps.clear();
    for (const row of rowsOf(devices)) {
      const rated = row.rated_power === null ? null : Number(row.rated_power);
      const nominal = row.nominal_voltage === null ? null : Number(row.nominal_voltage);
      this.lamps.set(Number(row.id), {
        accountId: Number(row.account_id),
        regionId: row.region_id === null ? null : Number(row.region_id),
        deviceTypeId: row.device_type_id === null ? null : Number(row.device_type_id),
        model: {
          ratedPower: rated && rated > 0 ? rated : null,
          nominalVoltage: nominal && nominal > 0 ? nominal : THRESHOLDS.nominalVoltage,
        },
      });
    }
    this.channelCode.clear();
    for (const row of rowsOf(channels)) this.channelCode.set(Number(row.id), CODES[String(row.channel_code)] as Code);
    await this.resyncLatches();
  }

  /** What is latched follows the active fault alarms (another worker's, an operator's clear). */
  async resyncLatches(): Promise<void> {
    const active = rowsOf(
      await this.options.db.execute(sql`
        SELECT id, device_id, kind FROM alert_logs
        WHERE is_active AND kind IN (${sql.join(
          FAULT_RULES.map((r) => sql`${r}`),
          sql`, `,
        )})`),
    );
    const ids = new Map(active.map((r) => [keyOf(Number(r.device_id), String(r.kind)), Number(r.id)]));
    for (const [deviceId, s] of this.state) {
      for (const [rule, r] of Object.entries(s.rules) as [FaultRule, RuleState][]) {
        const id = ids.get(keyOf(deviceId, rule));
        if (r.latched && id === undefined && r.alertId !== 0) {
          // Cleared by an operator (or another worker): a condition that still holds latches again.
          r.latched = false;
          r.alertId = undefined;
          r.holdingSince = undefined;
        }
      }
    }
    for (const [key, id] of ids) {
      const [deviceId, rule] = key.split(':') as [string, FaultRule];
      const s = this.stateOf(Number(deviceId));
      const r = ruleOf(s, rule);
      r.latched = true;
      r.alertId = id;
    }
  }

  private stateOf(deviceId: number): DeviceState {
    let s = this.state.get(deviceId);
    if (!s) {
      s = newDeviceState();
      this.state.set(deviceId, s);
    }
    return s;
  }

  /** The ingest committed these values: they join the ones waiting, and one evaluation takes them all. */
  onCommitted(readings: readonly FaultReading[]): void {
    if (!readings.length) return;
    this.pending.push(readings);
    if (this.evaluating) return;
    this.evaluating = true;
    this.ready();
    this.enqueue(() => afterThisTurn().then(() => this.evaluatePending()));
  }

  private async evaluatePending(): Promise<void> {
    try {
      while (this.pending.length) await this.evaluate(this.pending.splice(0).flat());
    } finally {
      this.evaluating = false;
    }
  }

  /** One batch: samples in time order per device, their latches and clears, then the database. */
  async evaluate(readings: readonly FaultReading[]): Promise<void> {
    // Samples: per device, per reading time, the values of the channels the rules read.
    const samples = new Map<number, Map<number, LampSample>>();
    for (const r of readings) {
      const code = this.channelCode.get(r.templateId);
      if (!code || r.subChannel !== 0 || !Number.isFinite(r.value) || !this.lamps.has(r.deviceId)) continue;
      const at = r.dateTime.getTime();
      let byTime = samples.get(r.deviceId);
      if (!byTime) {
        byTime = new Map();
        samples.set(r.deviceId, byTime);
      }
      let sample = byTime.get(at);
      if (!sample) {
        sample = { at };
        byTime.set(at, sample);
      }
      sample[code] = r.value;
    }
    if (!samples.size) return;
    await this.commanded.prepare([...samples.keys()]);
    const latches: Latch[] = [];
    const clears: { deviceId: number; rule: FaultRule; raisedNow: boolean }[] = [];
    for (const [deviceId, byTime] of samples) {
      const lamp = this.lamps.get(deviceId) as WatchedLamp;
      const s = this.stateOf(deviceId);
      for (const sample of [...byTime.values()].sort((a, b) => a.at - b.at)) {
        // A value delivered late changes nothing: the rules moved on.
        if (sample.at <= s.lastAt) continue;
        s.lastAt = sample.at;
        await this.judgeSample(deviceId, lamp, s, sample, latches, clears);
      }
    }
    const events = new Map<number, LiveEvent[]>();
    const push = (row: Record<string, unknown>, transition: 'raised' | 'cleared') => {
      const accountId = Number(row.account_id);
      const list = events.get(accountId) ?? [];
      list.push(alarmEvent(row, transition));
      events.set(accountId, list);
    };
    const before = clears.filter((c) => !c.raisedNow);
    const after = clears.filter((c) => c.raisedNow);
    for (const row of await this.clear(before)) push(row, 'cleared');
    if (latches.length) {
      for (const row of await this.raise(latches)) {
        push(row, 'raised');
        const r = this.state.get(Number(row.device_id))?.rules[row.kind as FaultRule];
        if (r?.latched) r.alertId = Number(row.id);
      }
    }
    for (const row of await this.clear(after)) push(row, 'cleared');
    for (const [accountId, list] of events) this.options.live.publish(accountId, list);
  }

  private async judgeSample(
    deviceId: number,
    lamp: WatchedLamp,
    s: DeviceState,
    sample: LampSample,
    latches: Latch[],
    clears: { deviceId: number; rule: FaultRule; raisedNow: boolean }[],
  ): Promise<void> {
    const at = sample.at;
    // What the device says it does stands in when nothing commands it.
    const reported = reportedCommand(s, sample);
    const commanded = (await this.commanded.commandedAt(deviceId, at)) ?? reported;
    const isDay = this.commanded.isDay(deviceId, at);
    for (const { rule, result, verdict } of judgeSample(s, lamp.model, sample, commanded, isDay, this.timings)) {
      if (result === 'latch' && verdict) latches.push({ deviceId, rule, at, verdict });
      else if (result === 'clear') {
        const raisedNow = latches.some((l) => l.deviceId === deviceId && l.rule === rule);
        clears.push({ deviceId, rule, raisedNow });
      }
    }
  }

  /** Raises the latched rules' alarms, their alert events' timers, the log and the fault reports, in one statement. */
  private async raise(latches: Latch[]): Promise<Record<string, unknown>[]> {
    const t = translator('en');
    const c = latches.map((l) => ({ ...l, lamp: this.lamps.get(l.deviceId) as WatchedLamp }));
    const e = sql.raw('e');
    const matchOf = (i: string) =>
      eventMatch(e, sql.raw(`${i}.account_id`), sql.raw(`${i}.device_id`), sql`NULL::bigint`);
    const minuteSeconds = this.options.minuteSeconds ?? 60;
    const figures = (l: Latch) => Object.fromEntries(Object.entries(l.verdict.figures).map(([k, v]) => [k, String(v)]));
    return rowsOf(
      await this.options.db.execute(sql`
        WITH input AS (
          SELECT * FROM unnest(
            ${column(c, (x) => x.lamp.accountId)}::bigint[], ${column(c, (x) => RULE_LEVELS[x.rule])}::text[],
            ${column(c, (x) => new Date(x.at).toISOString())}::timestamptz[], ${column(c, (x) => x.deviceId)}::bigint[],
            ${column(c, (x) => x.rule)}::text[], ${column(c, (x) => x.verdict.value)}::float8[],
            ${column(c, (x) => x.verdict.unit || null)}::text[], ${column(c, (x) => x.lamp.regionId)}::bigint[],
            ${column(c, (x) => x.lamp.deviceTypeId)}::bigint[], ${column(c, (x) => t(`faults.rules.${x.rule}`))}::text[],
            ${column(c, (x) => JSON.stringify({ rule: x.rule, ...x.verdict.figures }))}::text[],
            ${column(c, (x) => RULE_FAULT_TYPES[x.rule])}::text[],
            ${column(c, (x) => t(`faults.messages.${x.rule}`, figures(x)))}::text[])
          AS i(account_id, alert_level, date_time, device_id, kind, value, unit, region_id, device_type_id, rule_name,
               details, fault_type, description)
        ), raised AS (
          INSERT INTO alert_logs
            (account_id, alert_level, date_time, device_id, value, unit, region_id, device_type_id, event_name, kind,
             state, is_active, details)
          SELECT i.account_id, i.alert_level, i.date_time, i.device_id, i.value, i.unit, i.region_id, i.device_type_id,
            coalesce((SELECT e.event_name FROM alert_events e WHERE ${matchOf('i')} ORDER BY e.priority NULLS LAST, e.id LIMIT 1),
              i.rule_name),
            i.kind, 'active', true, i.details::jsonb
          FROM input i
          ON CONFLICT DO NOTHING
          RETURNING *
        ), timers AS (
          ${startTimers(sql.raw('raised'), matchOf('r'), minuteSeconds)}
        ), logged AS (
          ${logRaised(sql.raw('raised'))}
        ), reported AS (
          INSERT INTO fault_reports
            (account_id, device_id, fault_type, description, reporter, reported_at, status, source, alert_log_id, rule_code,
             latitude, longitude)
          SELECT r.account_id, r.device_id, i.fault_type, i.description, 'Lampyr', r.date_time, 'open', 'detected', r.id, r.kind,
            d.latitude, d.longitude
          FROM raised r JOIN input i ON i.device_id = r.device_id AND i.kind = r.kind
          JOIN devices d ON d.id = r.device_id
          -- One open report per device and rule: a fault that comes back before the crew closed it is the same one.
          WHERE NOT EXISTS (
            SELECT 1 FROM fault_reports f
            WHERE f.device_id = r.device_id AND f.rule_code = r.kind AND f.status = ANY(${`{${OPEN_STATUSES.join(',')}}`}::text[]))
          RETURNING id, account_id, device_id, description, reported_at
        ), history AS (
          ${firstHistoryRow(sql.raw('reported'))}
        )
        SELECT * FROM raised`),
    );
  }

  /** Clears the alarms of rules whose condition went away (reason `value`); the fault reports stay. */
  private async clear(list: { deviceId: number; rule: FaultRule }[]): Promise<Record<string, unknown>[]> {
    if (!list.length) return [];
    return clearAlarms(
      this.options.db,
      {
        from: sql`unnest(${column(list, (x) => x.deviceId)}::bigint[], ${column(list, (x) => x.rule)}::text[]) AS k(device_id, kind)`,
        where: sql`a.device_id = k.device_id AND a.kind = k.kind`,
      },
      { reason: 'value' },
    );
  }

  /**
   * Communication loss is node loss (engines/node-loss): each node-loss alarm raised opens a fault
   * report too, unless one is open for the device already.
   */
  async reportCommunicationLoss(rows: readonly Record<string, unknown>[]): Promise<void> {
    if (!rows.length) return;
    const description = translator('en')('faults.messages.communicationLoss');
    await this.options.db.execute(sql`
      WITH reported AS (
        INSERT INTO fault_reports
          (account_id, device_id, fault_type, description, reporter, reported_at, status, source, alert_log_id, rule_code,
           latitude, longitude)
        SELECT DISTINCT ON (l.device_id) l.account_id, l.device_id, ${RULE_FAULT_TYPES.communicationLoss}, ${description},
          'Lampyr', l.date_time, 'open', 'detected', l.id, 'communicationLoss', d.latitude, d.longitude
        FROM alert_logs l JOIN devices d ON d.id = l.device_id
        WHERE l.id = ANY(${`{${rows.map((r) => Number(r.id)).join(',')}}`}::bigint[]) AND l.device_id IS NOT NULL
          AND NOT EXISTS (
            SELECT 1 FROM fault_reports f
            WHERE f.device_id = l.device_id AND f.rule_code = 'communicationLoss' AND f.status = ANY(${`{${OPEN_STATUSES.join(',')}}`}::text[]))
        ORDER BY l.device_id, l.id
        RETURNING id, account_id, device_id, description, reported_at
      )
      ${firstHistoryRow(sql.raw('reported'))}`);
  }
}
