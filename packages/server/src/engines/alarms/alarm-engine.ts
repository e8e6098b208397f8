import type { AlarmCommandResult } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { Actor } from '../../access/access.ts';
import type { AlarmCommands, AlarmSkipReason } from '../../data/alarm-commands.ts';
import type { Db } from '../../db/connect.ts';
import type { CommandEvents } from '../../events/command-events.ts';
import type { LiveEvent, LiveEvents } from '../../events/live-events.ts';
import { column } from '../../ingest/array-codec.ts';
import { FaultEngine } from '../faults/fault-engine.ts';
import { GatewayHealth } from '../faults/gateway-health.ts';
import { NodeLossWatcher } from '../node-loss/node-loss-watcher.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { Leadership } from '../scheduler/leadership.ts';
import { afterThisTurn, alarmEvent, eventMatch, idList, rowsOf } from './alarm-rows.ts';
import { AlarmTimers } from './alarm-timers.ts';
import { type ClearReason, clearAlarms, logRaised, startTimers } from './alarm-transitions.ts';
import { clears, holds } from './conditions.ts';
import { loadRuleBook, type Rule, type RuleSlot, type WatchedDevice } from './rule-book.ts';

/** A committed value, as the ingest hands it over (a subset of its Reading). */
export interface CommittedReading {
  accountId: number;
  deviceId: number;
  templateId: number;
  subChannel: number;
  value: number;
  dateTime: Date;
}

/** A device heard from, as the ingest hands it over. */
export interface CommittedSighting {
  deviceId: number;
}

export interface AlarmEngineOptions {
  db: Db;
  live: LiveEvents;
  notifier: Notifier;
  onError?: (error: unknown) => void;
  /** How often due notifications and silent devices are looked for (ms; 0 = never, tests tick by hand). */
  tickMs?: number;
  /** How often the rules and the active alarms are read again, for what other workers changed (ms). */
  resyncMs?: number;
  /** Seconds in a configured "minute" (durations, repeats, heartbeats): 60, or less in tests. */
  minuteSeconds?: number;
  /** Lamp fault detection: its times scaled (tests), how long a commanded state is trusted (ms). */
  faults?: { timeScale?: number; commandRefreshMs?: number };
  /** With several replicas: timers and node loss tick only on the engines' leader (none: always). */
  leadership?: Leadership;
}

/** What changes what a lamp is commanded to (engines/faults/commanded.ts). */
const COMMAND_RESOURCES = ['channel-write-values', 'overrides'];
const SCHEDULE_RESOURCES = [
  'task-groups',
  'task-group-members',
  'task-group-profiles',
  'profiles',
  'task-profile-timings',
  'task-profile-execution-periods',
];

/** What every command resource change that can alter which templates watch what. */
const RULE_RESOURCES = [
  'alert-device-parameter-templates',
  'alert-device-parameter-groups',
  'alert-device-pairing',
  'devices',
  'device-channel-templates',
  'device-models',
];

interface Candidate {
  slot: RuleSlot;
  device: WatchedDevice;
  rule: Rule;
  reading: CommittedReading;
}

const keyOf = (deviceId: number, channelTemplateId: number, subChannel: number, templateId: number) =>
  `${deviceId}:${channelTemplateId}:${subChannel}:${templateId}`;

/**
 * The alarm engine (DEVICES.md "Alarms"). Every value the ingest commits is checked in memory
 * against the compiled rules of its device; the database is touched only when an alarm is raised
 * or cleared. The active alarms are known in memory (loaded at start, kept in step with what this
 * process does, and read again every `resyncMs` for what other workers did). A raise is an INSERT …
 * ON CONFLICT DO NOTHING on the partial unique index of active alarms, so two workers raise once.
 * It also owns the alarm lifecycle commands, the timers of alert events and node loss.
 */
export class AlarmEngine implements AlarmCommands {
  private book = new Map<number, WatchedDevice>();
  /**
   * Each rule's state on each device channel and sub-channel (the newest value time judged, an active
   * threshold alarm's id), by key; kept across reloads, so a late value stays ignored. The compiled
   * rules point at their slots, so judging a value builds no key.
   */
  private slots = new Map<string, RuleSlot>();
  /** Active threshold alarms: alert log id → its slot. */
  private slotById = new Map<number, RuleSlot>();
  /** Devices with an active node-loss alarm → its id. */
  private lost = new Map<number, number>();
  /** Each device's lamp, on or off, from its lamp channel's newest committed value. */
  private lampOn = new Map<number, boolean>();
  /** Evaluations, reloads and resyncs run one after another. */
  private chain: Promise<void> = Promise.resolve();
  private loaded?: Promise<void>;
  private reloadTimer?: NodeJS.Timeout;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void)[] = [];
  private ticking?: Promise<void>;
  /** Committed values and sightings waiting for the next evaluation. */
  private pendingReadings: (readonly CommittedReading[])[] = [];
  private pendingSeen: (readonly CommittedSighting[])[] = [];
  private evaluating = false;
  /** Node-loss alarms being cleared by their device's recovery. */
  private recovering = new Set<number>();
  readonly alarmTimers: AlarmTimers;
  readonly nodeLoss: NodeLossWatcher;
  /** Lamp faults from readings and commanded state, and silent gateways (issue 13). */
  readonly faults: FaultEngine;
  readonly gateways: GatewayHealth;
  private readonly minuteSeconds: number;
  private readonly onError: (error: unknown) => void;

  constructor(private readonly options: AlarmEngineOptions) {
    this.minuteSeconds = options.minuteSeconds ?? 60;
    this.onError = options.onError ?? (() => {});
    this.alarmTimers = new AlarmTimers(options.db, options.notifier, this.minuteSeconds, this.onError);
    this.nodeLoss = new NodeLossWatcher(options.db, this.minuteSeconds);
    this.faults = new FaultEngine({
      db: options.db,
      live: options.live,
      onError: this.onError,
      minuteSeconds: this.minuteSeconds,
      ...options.faults,
    });
    this.gateways = new GatewayHealth(options.db, this.minuteSeconds);
  }

  /** Loads the rules and active alarms, listens for changes and starts ticking. */
  start(commands?: CommandEvents): Promise<void> {
    for (const resource of [...RULE_RESOURCES, 'alert-events']) {
      for (const action of ['create', 'update', 'delete'] as const) {
        if (commands) this.unsubscribe.push(commands.on(resource, action, () => this.rulesChanged()));
      }
    }
    for (const action of ['create', 'update', 'delete'] as const) {
      if (!commands) break;
      for (const resource of ['devices', 'device-models', 'device-channel-templates'])
        this.unsubscribe.push(commands.on(resource, action, () => this.faults.devicesChanged()));
      for (const resource of COMMAND_RESOURCES)
        this.unsubscribe.push(commands.on(resource, action, () => this.faults.commanded.invalidate()));
      for (const resource of SCHEDULE_RESOURCES)
        this.unsubscribe.push(commands.on(resource, action, () => this.faults.commanded.invalidateSchedules()));
    }
    const tickMs = this.options.tickMs ?? 5_000;
    if (tickMs > 0) {
      const timer = setInterval(() => {
        this.tick().catch(this.onError);
      }, tickMs);
      timer.unref();
      this.timers.push(timer);
    }
    const resyncMs = this.options.resyncMs ?? 30_000;
    if (resyncMs > 0) {
      const timer = setInterval(() => {
        this.enqueue(() => this.reload());
        this.faults.devicesChanged();
      }, resyncMs);
      timer.unref();
      this.timers.push(timer);
    }
    return Promise.all([this.ready(), this.faults.ready()]).then(() => {});
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.reloadTimer);
    this.timers = [];
    await this.idle();
  }

  /** Resolves once every evaluation and tick begun so far is done. */
  async idle(): Promise<void> {
    await this.chain;
    await this.ticking;
    await this.faults.idle();
  }

  private ready(): Promise<void> {
    this.loaded ??= this.enqueue(() => this.reload());
    return this.loaded;
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.chain.then(work).catch(this.onError);
    this.chain = next;
    return next;
  }

  /** A template, group, pairing, event or device changed: the rules are compiled again, shortly. */
  rulesChanged(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => this.enqueue(() => this.reload()), 100);
    this.reloadTimer.unref();
  }

  /** Compiles the rules and reads the active alarms again. */
  private async reload(): Promise<void> {
    const [book, active] = await Promise.all([
      loadRuleBook(this.options.db),
      this.options.db.execute(sql`
        SELECT id, kind, device_id, channel_template_id, sub_channel, template_id FROM alert_logs WHERE is_active`),
    ]);
    this.book = book;
    this.slotById.clear();
    this.lost.clear();
    for (const [key, slot] of this.slots) {
      slot.alarmId = undefined;
      if (!book.has(slot.deviceId)) this.slots.delete(key);
    }
    for (const row of rowsOf(active)) {
      const id = Number(row.id);
      if (row.kind === 'nodeLoss') {
        this.lost.set(Number(row.device_id), id);
      } else if (row.template_id !== null && row.channel_template_id !== null) {
        const key = keyOf(
          Number(row.device_id),
          Number(row.channel_template_id),
          Number(row.sub_channel),
          Number(row.template_id),
        );
        this.remember(key, Number(row.device_id), id);
      }
    }
  }

  /** The slot of a key, made when first needed. */
  private slotAt(key: string, deviceId: number): RuleSlot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { deviceId, lastAt: Number.NEGATIVE_INFINITY, alarmId: undefined };
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** The slot of a rule on a reading's sub-channel, remembered by the rule until the next reload. */
  private slotOf(r: CommittedReading, rule: Rule): RuleSlot {
    const slot = this.slotAt(keyOf(r.deviceId, r.templateId, r.subChannel, rule.templateId), r.deviceId);
    if (Number.isInteger(r.subChannel) && r.subChannel >= 0 && r.subChannel < 1024) rule.slots[r.subChannel] = slot;
    return slot;
  }

  /**
   * The ingest committed these values and heard from these devices. Returns at once: the values join
   * the ones waiting, and one evaluation takes all that waited (so a backlog is handled in a few
   * large statements, never one per value).
   */
  onCommitted(readings: readonly CommittedReading[], seen: readonly CommittedSighting[] = []): void {
    if (!readings.length && !seen.length) return;
    this.faults.onCommitted(readings);
    this.pendingReadings.push(readings);
    if (seen.length) this.pendingSeen.push(seen);
    if (this.evaluating) return;
    this.evaluating = true;
    this.ready();
    this.enqueue(() => afterThisTurn().then(() => this.evaluatePending()));
  }

  private async evaluatePending(): Promise<void> {
    try {
      while (this.pendingReadings.length || this.pendingSeen.length) {
        // Each commit's list as it came: copying them into one array cost more than judging them.
        const readings = this.pendingReadings;
        const seen = this.pendingSeen;
        this.pendingReadings = [];
        this.pendingSeen = [];
        await this.evaluate(readings, seen);
      }
    } finally {
      this.evaluating = false;
      // What arrived while the last statement failed is evaluated with the next commit.
    }
  }

  private async evaluate(
    commits: readonly (readonly CommittedReading[])[],
    sightings: readonly (readonly CommittedSighting[])[],
  ): Promise<void> {
    const events = new Map<number, LiveEvent[]>();
    // What changes, in order: alarms to clear, alarms to raise, and raised ones that already cleared
    // again within this batch (a spike).
    const toClear: number[] = [];
    const toRaise = new Map<RuleSlot, Candidate>();
    const spikes = new Map<RuleSlot, CommittedReading>();
    // Whether each lamp is on, from its lamp channel's newest value (of this batch too, first).
    for (const readings of commits) {
      for (const r of readings) {
        const device = this.book.get(r.deviceId);
        if (device?.lampChannelId === r.templateId && r.subChannel === 0 && Number.isFinite(r.value))
          this.lampOn.set(r.deviceId, r.value > 0);
      }
    }
    for (const readings of commits) {
      for (const r of readings) {
        const device = this.book.get(r.deviceId);
        const rules = device?.byChannel.get(r.templateId);
        if (!device || !rules || !Number.isFinite(r.value)) continue;
        const at = r.dateTime.getTime();
        for (const rule of rules) {
          // A lamp that is off (or not yet known to be on) draws nothing: such rules wait for it.
          if (rule.whileLampOn && this.lampOn.get(r.deviceId) !== true) continue;
          const slot = rule.slots[r.subChannel] ?? this.slotOf(r, rule);
          // A value delivered late changes nothing.
          if (slot.lastAt > at) continue;
          slot.lastAt = at;
          const id = slot.alarmId;
          if (id !== undefined) {
            if (clears(rule, r.value)) {
              toClear.push(id);
              this.forget(id);
            }
          } else if (toRaise.has(slot)) {
            if (!spikes.has(slot) && clears(rule, r.value)) spikes.set(slot, r);
          } else if (holds(rule, r.value)) {
            toRaise.set(slot, { slot, device, rule, reading: r });
          }
        }
      }
    }
    for (const seen of sightings) {
      for (const s of seen) {
        const id = this.lost.get(s.deviceId);
        if (id !== undefined) {
          this.forget(id);
          toClear.push(id);
          this.recovering.add(id);
        }
      }
    }
    if (toClear.length) {
      const recovering = toClear.filter((id) => this.recovering.has(id));
      const byValue = toClear.filter((id) => !this.recovering.has(id));
      for (const id of recovering) this.recovering.delete(id);
      for (const row of await this.finish(byValue, { reason: 'value' })) push(events, row, 'cleared');
      for (const row of await this.finish(recovering, { reason: 'recovery' })) push(events, row, 'cleared');
    }
    if (toRaise.size) {
      for (const row of await this.raise([...toRaise.values()])) push(events, row, 'raised');
      const spiked = [...spikes.keys()].map((slot) => slot.alarmId).filter((id): id is number => id !== undefined);
      for (const id of spiked) this.forget(id);
      for (const row of await this.finish(spiked, { reason: 'value' })) push(events, row, 'cleared');
    }
    for (const [accountId, list] of events) this.options.live.publish(accountId, list);
  }

  /**
   * Raises alarms in one statement: INSERT … ON CONFLICT DO NOTHING against the partial unique index
   * of active alarms, with their alert events' timers and the transaction log. Those another worker
   * raised first are only learnt (their ids). Returns the rows this worker raised.
   */
  private async raise(candidates: Candidate[]): Promise<Record<string, unknown>[]> {
    const { db } = this.options;
    const c = candidates;
    const iso = (d: Date) => d.toISOString();
    const e = sql.raw('e');
    const matchOf = (i: string) =>
      eventMatch(e, sql.raw(`${i}.account_id`), sql.raw(`${i}.device_id`), sql.raw(`${i}.channel_template_id`));
    const raised = rowsOf(
      await db.execute(sql`
        WITH input AS (
          SELECT * FROM unnest(
            ${column(c, (x) => x.device.accountId)}::bigint[], ${column(c, (x) => x.rule.alertLevel)}::text[],
            ${column(c, (x) => iso(x.reading.dateTime))}::timestamptz[], ${column(c, (x) => x.reading.deviceId)}::bigint[],
            ${column(c, (x) => x.rule.templateId)}::bigint[], ${column(c, (x) => x.reading.value)}::float8[],
            ${column(c, (x) => x.rule.unit)}::text[], ${column(c, (x) => x.rule.channelCode)}::text[],
            ${column(c, (x) => x.rule.channelName)}::text[], ${column(c, (x) => x.device.regionId)}::bigint[],
            ${column(c, (x) => x.device.deviceTypeId)}::bigint[], ${column(c, (x) => x.rule.templateName)}::text[],
            ${column(c, (x) => x.rule.channelTemplateId)}::bigint[], ${column(c, (x) => x.reading.subChannel)}::int[])
          AS i(account_id, alert_level, date_time, device_id, template_id, value, unit, channel_type, channel_value,
               region_id, device_type_id, template_name, channel_template_id, sub_channel)
        ), raised AS (
          INSERT INTO alert_logs
            (account_id, alert_level, date_time, device_id, template_id, value, unit, channel_type, channel_value,
             region_id, device_type_id, event_name, channel_template_id, sub_channel, kind, state, is_active)
          SELECT i.account_id, i.alert_level, i.date_time, i.device_id, i.template_id, i.value, i.unit, i.channel_type,
            i.channel_value, i.region_id, i.device_type_id,
            coalesce((SELECT e.event_name FROM alert_events e WHERE ${matchOf('i')} ORDER BY e.priority NULLS LAST, e.id LIMIT 1),
              i.template_name),
            i.channel_template_id, i.sub_channel, 'threshold', 'active', true
          FROM input i
          ON CONFLICT DO NOTHING
          RETURNING *
        ), timers AS (
          ${startTimers(sql.raw('raised'), matchOf('r'), this.minuteSeconds)}
        ), logged AS (
          ${logRaised(sql.raw('raised'))}
        )
        SELECT * FROM raised`),
    );
    const learn = (row: Record<string, unknown>) =>
      this.remember(
        keyOf(Number(row.device_id), Number(row.channel_template_id), Number(row.sub_channel), Number(row.template_id)),
        Number(row.device_id),
        Number(row.id),
      );
    for (const row of raised) learn(row);
    if (raised.length < c.length) {
      // Another worker raised the rest first: this one only learns their ids.
      const missing = c.filter((x) => x.slot.alarmId === undefined);
      const others = rowsOf(
        await db.execute(sql`
          SELECT a.id, a.device_id, a.channel_template_id, a.sub_channel, a.template_id FROM alert_logs a
          JOIN unnest(${column(missing, (x) => x.reading.deviceId)}::bigint[], ${column(missing, (x) => x.rule.channelTemplateId)}::bigint[],
            ${column(missing, (x) => x.reading.subChannel)}::int[], ${column(missing, (x) => x.rule.templateId)}::bigint[])
            AS m(device_id, channel_template_id, sub_channel, template_id)
          ON a.device_id = m.device_id AND a.channel_template_id = m.channel_template_id
            AND a.sub_channel = m.sub_channel AND a.template_id = m.template_id
          WHERE a.is_active AND a.kind = 'threshold'`),
      );
      for (const row of others) learn(row);
    }
    return raised;
  }

  private remember(key: string, deviceId: number, id: number): void {
    const slot = this.slotAt(key, deviceId);
    slot.alarmId = id;
    this.slotById.set(id, slot);
  }

  private forget(id: number): void {
    const slot = this.slotById.get(id);
    if (slot?.alarmId === id) slot.alarmId = undefined;
    this.slotById.delete(id);
    for (const [deviceId, lostId] of this.lost) if (lostId === id) this.lost.delete(deviceId);
  }

  /**
   * Clears active alarms (by value, by an operator, by the device's recovery), of one account when
   * `accountId` is given (an operator's). Returns the cleared rows.
   */
  private finish(
    ids: number[],
    how: { reason: ClearReason; userId?: number; comment?: string; accountId?: number },
  ): Promise<Record<string, unknown>[]> {
    if (!ids.length) return Promise.resolve([]);
    const ofAccount = how.accountId === undefined ? sql`` : sql` AND a.account_id = ${how.accountId}`;
    return clearAlarms(this.options.db, { where: sql`a.id IN (${idList(ids)})${ofAccount}` }, how);
  }

  // ─── lifecycle commands ─────────────────────────────────────────────────────

  acknowledge(actor: Actor, ids: number[], comment: string | undefined): Promise<AlarmCommandResult> {
    return this.command(actor, ids, 'acknowledged', async (eligible, accountId) =>
      rowsOf(
        await this.options.db.execute(sql`
          WITH changed AS (
            UPDATE alert_logs SET state = 'acknowledged', acknowledged_at = now(), acknowledged_by = ${actor.userId},
              comment = coalesce(${comment ?? null}, comment), updated_at = now()
            WHERE id IN (${idList(eligible)}) AND account_id = ${accountId} AND is_active AND state = 'active'
            RETURNING *
          ), logged AS (
            INSERT INTO transaction_logs (account_id, user_id, resource, action, record_id, before, after)
            SELECT c.account_id, ${actor.userId}, 'alert-logs', 'acknowledge', c.id, jsonb_build_object('state', 'active'),
              jsonb_build_object('state', c.state, 'comment', c.comment)
            FROM changed c
          )
          SELECT * FROM changed`),
      ),
    );
  }

  clear(actor: Actor, ids: number[], comment: string): Promise<AlarmCommandResult> {
    return this.command(actor, ids, 'cleared', async (eligible, accountId) => {
      const rows = await this.finish(eligible, { reason: 'operator', userId: actor.userId, comment, accountId });
      for (const row of rows) this.forget(Number(row.id));
      return rows;
    });
  }

  shelve(actor: Actor, ids: number[], until: Date, comment: string | undefined): Promise<AlarmCommandResult> {
    return this.command(actor, ids, 'shelved', async (eligible, accountId) =>
      rowsOf(
        await this.options.db.execute(sql`
          WITH changed AS (
            UPDATE alert_logs SET shelved_until = ${until.toISOString()}::timestamptz,
              comment = coalesce(${comment ?? null}, comment), updated_at = now()
            WHERE id IN (${idList(eligible)}) AND account_id = ${accountId} AND is_active
            RETURNING *
          ), logged AS (
            INSERT INTO transaction_logs (account_id, user_id, resource, action, record_id, before, after)
            SELECT c.account_id, ${actor.userId}, 'alert-logs', 'shelve', c.id, NULL,
              jsonb_build_object('shelvedUntil', c.shelved_until, 'comment', c.comment)
            FROM changed c
          )
          SELECT * FROM changed`),
      ),
    );
  }

  /**
   * One lifecycle command: the ids of the actor's account that the command applies to are changed
   * in one statement; the others are reported as skipped, with why.
   */
  private async command(
    actor: Actor,
    ids: number[],
    transition: 'acknowledged' | 'cleared' | 'shelved',
    change: (eligible: number[], accountId: number) => Promise<Record<string, unknown>[]>,
  ): Promise<AlarmCommandResult> {
    const accountId = actor.account?.accountId;
    const unique = [...new Set(ids)];
    const skipped: AlarmCommandResult['skipped'] = [];
    if (accountId === undefined || !unique.length) {
      return { updated: [], skipped: unique.map((id) => ({ id, reason: 'notFound' })) };
    }
    const found = new Map(
      rowsOf(
        await this.options.db.execute(sql`
          SELECT id, state, is_active FROM alert_logs WHERE id IN (${idList(unique)}) AND account_id = ${accountId}`),
      ).map((row) => [Number(row.id), row]),
    );
    const why = (row: Record<string, unknown> | undefined): AlarmSkipReason | undefined => {
      if (!row) return 'notFound';
      if (!row.is_active) return 'alreadyCleared';
      if (transition === 'acknowledged' && row.state !== 'active') return 'alreadyAcknowledged';
      return undefined;
    };
    const eligible: number[] = [];
    for (const id of unique) {
      const reason = why(found.get(id));
      if (reason) skipped.push({ id, reason });
      else eligible.push(id);
    }
    const rows = eligible.length ? await change(eligible, accountId) : [];
    const updated = rows.map((row) => Number(row.id));
    // Changed meanwhile by someone else (cleared by a value, acknowledged by another operator).
    for (const id of eligible) {
      if (!updated.includes(id))
        skipped.push({ id, reason: transition === 'acknowledged' ? 'alreadyAcknowledged' : 'alreadyCleared' });
    }
    this.options.live.publish(
      accountId,
      rows.map((row) => alarmEvent(row, transition)),
    );
    return { updated: updated.sort((a, b) => a - b), skipped };
  }

  // ─── timers and node loss ─────────────────────────────────────────────────

  /** One pass: silent devices raise node-loss alarms, due notifications go out. */
  tick(): Promise<void> {
    this.ticking ??= this.runTick().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async runTick(): Promise<void> {
    // Timers and node loss run once across replicas: on the engines' leader.
    if (this.options.leadership && !(await this.options.leadership.isLeader())) return;
    await this.ready();
    const events = new Map<number, LiveEvent[]>();
    for (const row of await this.nodeLoss.recovered()) {
      this.forget(Number(row.id));
      push(events, row, 'cleared');
    }
    const raised = await this.nodeLoss.sweep();
    for (const row of raised) {
      this.lost.set(Number(row.device_id), Number(row.id));
      push(events, row, 'raised');
    }
    // Communication loss is a lamp fault too: a report for the crew.
    await this.faults.reportCommunicationLoss(raised);
    for (const row of await this.gateways.recovered()) push(events, row, 'cleared');
    for (const row of await this.gateways.sweep()) push(events, row, 'raised');
    for (const [accountId, list] of events) this.options.live.publish(accountId, list);
    await this.alarmTimers.fireDue();
  }
}

function push(events: Map<number, LiveEvent[]>, row: Record<string, unknown>, transition: 'raised' | 'cleared') {
  const accountId = Number(row.account_id);
  const list = events.get(accountId) ?? [];
  list.push(alarmEvent(row, transition));
  events.set(accountId, list);
}
