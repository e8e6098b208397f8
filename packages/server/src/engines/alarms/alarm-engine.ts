import type { AlarmCommandResult } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { Actor } from '../../access/access.ts';
import type { AlarmCommands, AlarmSkipReason } from '../../data/alarm-commands.ts';
import type { Db } from '../../db/connect.ts';
import type { CommandEvents } from '../../events/command-events.ts';
import type { LiveEvent, LiveEvents } from '../../events/live-events.ts';
import { NodeLossWatcher } from '../node-loss/node-loss-watcher.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { alarmEvent, eventMatch, idList, rowsOf } from './alarm-rows.ts';
import { AlarmTimers } from './alarm-timers.ts';
import { clears, holds } from './conditions.ts';
import { loadRuleBook, type Rule, type WatchedDevice } from './rule-book.ts';

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
}

/** What every command resource change that can alter which templates watch what. */
const RULE_RESOURCES = [
  'alert-device-parameter-templates',
  'alert-device-parameter-groups',
  'alert-device-pairing',
  'devices',
  'device-channel-templates',
  'device-models',
];

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
  /** Active threshold alarms: key → alert log id, and back. */
  private active = new Map<string, number>();
  private keyById = new Map<number, string>();
  /** Devices with an active node-loss alarm → its id. */
  private lost = new Map<number, number>();
  /** The newest value time evaluated per alarm key: an older value delivered late changes nothing. */
  private lastAt = new Map<string, number>();
  /** Evaluations, reloads and resyncs run one after another. */
  private chain: Promise<void> = Promise.resolve();
  private loaded?: Promise<void>;
  private reloadTimer?: NodeJS.Timeout;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void)[] = [];
  private ticking?: Promise<void>;
  readonly alarmTimers: AlarmTimers;
  readonly nodeLoss: NodeLossWatcher;
  private readonly minuteSeconds: number;
  private readonly onError: (error: unknown) => void;

  constructor(private readonly options: AlarmEngineOptions) {
    this.minuteSeconds = options.minuteSeconds ?? 60;
    this.onError = options.onError ?? (() => {});
    this.alarmTimers = new AlarmTimers(options.db, options.notifier, this.minuteSeconds, this.onError);
    this.nodeLoss = new NodeLossWatcher(options.db, this.minuteSeconds);
  }

  /** Loads the rules and active alarms, listens for changes and starts ticking. */
  start(commands?: CommandEvents): Promise<void> {
    for (const resource of [...RULE_RESOURCES, 'alert-events']) {
      for (const action of ['create', 'update', 'delete'] as const) {
        if (commands) this.unsubscribe.push(commands.on(resource, action, () => this.rulesChanged()));
      }
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
      const timer = setInterval(() => this.enqueue(() => this.reload()), resyncMs);
      timer.unref();
      this.timers.push(timer);
    }
    return this.ready();
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
    this.active.clear();
    this.keyById.clear();
    this.lost.clear();
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
        this.active.set(key, id);
        this.keyById.set(id, key);
      }
    }
  }

  /**
   * The ingest committed these values and heard from these devices. Returns at once: the evaluation
   * runs after the ones before it, off the ingest's path.
   */
  onCommitted(readings: readonly CommittedReading[], seen: readonly CommittedSighting[] = []): void {
    if (!readings.length && !seen.length) return;
    this.ready();
    this.enqueue(() => this.evaluate(readings, seen));
  }

  private async evaluate(readings: readonly CommittedReading[], seen: readonly CommittedSighting[]): Promise<void> {
    const events = new Map<number, LiveEvent[]>();
    for (const r of readings) {
      const device = this.book.get(r.deviceId);
      const rules = device?.byChannel.get(r.templateId);
      if (!device || !rules || !Number.isFinite(r.value)) continue;
      const at = r.dateTime.getTime();
      for (const rule of rules) {
        const key = keyOf(r.deviceId, r.templateId, r.subChannel, rule.templateId);
        const last = this.lastAt.get(key);
        if (last !== undefined && last > at) continue;
        this.lastAt.set(key, at);
        const id = this.active.get(key);
        if (id === undefined) {
          if (holds(rule, r.value)) await this.raise(key, device, rule, r, events);
        } else if (clears(rule, r.value)) {
          const rows = await this.finish([id], { reason: 'value', userId: null, comment: null, accountId: null });
          this.forget(id);
          for (const row of rows) push(events, row, 'cleared');
        }
      }
    }
    const recovered = seen.map((s) => this.lost.get(s.deviceId)).filter((id): id is number => id !== undefined);
    if (recovered.length) {
      const rows = await this.finish(recovered, { reason: 'recovery', userId: null, comment: null, accountId: null });
      for (const id of recovered) this.forget(id);
      for (const row of rows) push(events, row, 'cleared');
    }
    for (const [accountId, list] of events) this.options.live.publish(accountId, list);
  }

  private async raise(
    key: string,
    device: WatchedDevice,
    rule: Rule,
    r: CommittedReading,
    events: Map<number, LiveEvent[]>,
  ): Promise<void> {
    const { db } = this.options;
    const e = sql.raw('e');
    const match = eventMatch(
      e,
      sql`${device.accountId}::bigint`,
      sql`${r.deviceId}::bigint`,
      sql`${rule.channelTemplateId}::bigint`,
    );
    const raised = rowsOf(
      await db.execute(sql`
        WITH raised AS (
          INSERT INTO alert_logs
            (account_id, alert_level, date_time, device_id, template_id, value, unit, channel_type, channel_value,
             region_id, device_type_id, event_name, channel_template_id, sub_channel, kind, state, is_active)
          VALUES (${device.accountId}, ${rule.alertLevel}, ${r.dateTime.toISOString()}::timestamptz, ${r.deviceId},
            ${rule.templateId}, ${r.value}, ${rule.unit}, ${rule.channelCode}, ${rule.channelName},
            ${device.regionId}, ${device.deviceTypeId},
            coalesce((SELECT e.event_name FROM alert_events e WHERE ${match} ORDER BY e.priority NULLS LAST, e.id LIMIT 1),
              ${rule.templateName}),
            ${rule.channelTemplateId}, ${r.subChannel}, 'threshold', 'active', true)
          ON CONFLICT DO NOTHING
          RETURNING *
        ), timers AS (
          INSERT INTO alarm_timers (account_id, alert_log_id, alert_event_id, due_at)
          SELECT r.account_id, r.id, e.id,
            now() + make_interval(secs => CASE WHEN e.turn_to_alarm THEN coalesce(e.duration_of_alarm, 0) ELSE 0 END
              * ${this.minuteSeconds}::float8)
          FROM raised r JOIN alert_events e ON ${match}
          ON CONFLICT DO NOTHING
        ), logged AS (
          INSERT INTO transaction_logs (account_id, user_id, resource, action, record_id, before, after)
          SELECT r.account_id, NULL, 'alert-logs', 'raise', r.id, NULL, to_jsonb(r) FROM raised r
        )
        SELECT * FROM raised`),
    );
    const row = raised[0];
    if (row) {
      this.remember(key, Number(row.id));
      push(events, row, 'raised');
      return;
    }
    // Another worker raised it first: this one only learns its id.
    const [other] = rowsOf(
      await db.execute(sql`
        SELECT id FROM alert_logs
        WHERE is_active AND kind = 'threshold' AND device_id = ${r.deviceId} AND channel_template_id = ${rule.channelTemplateId}
          AND sub_channel = ${r.subChannel} AND template_id = ${rule.templateId}`),
    );
    if (other) this.remember(key, Number(other.id));
  }

  private remember(key: string, id: number): void {
    this.active.set(key, id);
    this.keyById.set(id, key);
  }

  private forget(id: number): void {
    const key = this.keyById.get(id);
    if (key !== undefined) this.active.delete(key);
    this.keyById.delete(id);
    for (const [deviceId, lostId] of this.lost) if (lostId === id) this.lost.delete(deviceId);
  }

  /**
   * Clears active alarms (by value, by an operator, by the device's recovery): one statement that
   * updates them, drops their timers and writes the transaction log. Returns the cleared rows.
   */
  private async finish(
    ids: number[],
    how: {
      reason: 'value' | 'operator' | 'recovery';
      userId: number | null;
      comment: string | null;
      accountId: number | null;
    },
  ): Promise<Record<string, unknown>[]> {
    if (!ids.length) return [];
    return rowsOf(
      await this.options.db.execute(sql`
        WITH previous AS (
          SELECT id, state FROM alert_logs
          WHERE id IN (${idList(ids)}) AND is_active
            AND (${how.accountId}::bigint IS NULL OR account_id = ${how.accountId}::bigint)
          FOR UPDATE
        ), cleared AS (
          UPDATE alert_logs a SET is_active = false, state = 'cleared', cleared_at = now(), cleared_by = ${how.userId},
            clear_reason = ${how.reason}, comment = coalesce(${how.comment}, a.comment), updated_at = now()
          FROM previous p WHERE a.id = p.id
          RETURNING a.*, p.state AS previous_state
        ), dropped AS (
          DELETE FROM alarm_timers WHERE alert_log_id IN (SELECT id FROM cleared)
        ), logged AS (
          INSERT INTO transaction_logs (account_id, user_id, resource, action, record_id, before, after)
          SELECT c.account_id, ${how.userId}, 'alert-logs', 'clear', c.id, jsonb_build_object('state', c.previous_state),
            jsonb_build_object('state', c.state, 'clearReason', c.clear_reason, 'comment', c.comment)
          FROM cleared c
        )
        SELECT * FROM cleared`),
    );
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
    await this.ready();
    const raised = await this.nodeLoss.sweep();
    const events = new Map<number, LiveEvent[]>();
    for (const row of raised) {
      this.lost.set(Number(row.device_id), Number(row.id));
      push(events, row, 'raised');
    }
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
