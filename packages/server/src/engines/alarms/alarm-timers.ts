import { splitRecipientList as splitRecipients } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { translator } from '../../i18n/translate.ts';
import type { NotificationRequest, Notifier } from '../notifications/notifier.ts';
import { idList, rowsOf } from './alarm-rows.ts';

/** How long a worker holds a claimed timer before another may take it over (it died sending). */
const CLAIM_SECONDS = 60;
/** Timers handled per pass. */
const BATCH = 100;

type Row = Record<string, unknown>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const iso = (v: unknown) => (v === null || v === undefined ? '' : new Date(v as string | Date).toISOString());

/**
 * The notifications alarms still owe, kept in `alarm_timers` (DEVICES.md "Alarms": state survives
 * restarts). A pass claims the due timers (FOR UPDATE SKIP LOCKED, then `claimed_until`, so two
 * workers never take the same one and a worker that dies mid-way hands it on after a minute), sends
 * each with a dedupe key naming the alarm, the event and the firing's number — sent again after a
 * crash, the notification service takes it once — and only then moves the timer on. Events firing
 * together go out by priority (1 first).
 */
export class AlarmTimers {
  constructor(
    private readonly db: Db,
    private readonly notifier: Notifier,
    private readonly minuteSeconds: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Sends what is due; resolves with how many notifications went out. */
  async fireDue(): Promise<number> {
    const claimed = rowsOf(
      await this.db.execute(sql`
        UPDATE alarm_timers SET claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS})
        WHERE id IN (
          SELECT id FROM alarm_timers
          WHERE due_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
          ORDER BY due_at LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED)
        RETURNING id`),
    ).map((row) => Number(row.id));
    if (!claimed.length) return 0;
    const timers = rowsOf(
      await this.db.execute(sql`
        SELECT t.id, t.account_id, t.alert_log_id, t.alert_event_id, t.sequence, t.window_start, t.window_count,
          now() AS now,
          l.is_active, l.state, l.shelved_until, l.alert_level, l.device_id, l.device_type_id, l.value, l.unit,
          l.date_time, l.kind, l.event_name,
          coalesce(d.name, gw.name) AS device_name, r.name AS region_name, p.name AS template_name,
          e.event_name AS e_name, e.is_forever AS e_forever, e.start_time AS e_start, e.end_time AS e_end,
          e.priority AS e_priority, e.reporting_frequency AS e_frequency, e.notify_sms AS e_sms, e.sms_list AS e_sms_list,
          e.notify_email AS e_email, e.email_list AS e_email_list, e.notify_push AS e_push,
          n.id AS n_id, n.alarm_count AS n_count, n.is_forever AS n_forever, n.heartbeat_threshold AS n_threshold,
          n.heartbeat_cycle AS n_cycle, n.period AS n_period, n.notify_sms AS n_sms, n.notify_email AS n_email,
          n.notify_push AS n_push
        FROM alarm_timers t
        JOIN alert_logs l ON l.id = t.alert_log_id
        LEFT JOIN alert_events e ON e.id = t.alert_event_id
        LEFT JOIN devices d ON d.id = l.device_id
        LEFT JOIN gateways gw ON gw.id = l.gateway_id
        LEFT JOIN regions r ON r.id = l.region_id
        LEFT JOIN alert_parameter_templates p ON p.id = l.template_id
        LEFT JOIN LATERAL (
          SELECT * FROM device_node_loss_settings s WHERE s.device_id = l.device_id AND s.is_active ORDER BY s.id LIMIT 1
        ) n ON t.alert_event_id IS NULL
        WHERE t.id IN (${idList(claimed)})`),
    );
    timers.sort(
      (a, b) =>
        (num(a.e_priority) ?? 11) - (num(b.e_priority) ?? 11) ||
        new Date(a.date_time as string).getTime() - new Date(b.date_time as string).getTime(),
    );
    let sent = 0;
    for (const timer of timers) {
      try {
        sent += await this.fire(timer);
      } catch (error) {
        // Left claimed: after CLAIM_SECONDS a pass takes it again (same dedupe key).
        this.onError(error);
      }
    }
    return sent;
  }

  private async fire(t: Row): Promise<number> {
    const now = new Date(t.now as string | Date);
    const id = Number(t.id);
    // Cleared or acknowledged: nothing more to say. (Cleared alarms' timers are dropped with them.)
    if (!t.is_active || t.state !== 'active') return this.drop(id);
    const shelvedUntil = t.shelved_until ? new Date(t.shelved_until as string | Date) : undefined;
    if (shelvedUntil && shelvedUntil > now) return this.postpone(id, shelvedUntil);
    return t.alert_event_id === null ? this.fireNodeLoss(t, now) : this.fireEvent(t, now);
  }

  private async fireEvent(t: Row, now: Date): Promise<number> {
    const id = Number(t.id);
    if (!t.e_forever) {
      const start = t.e_start ? new Date(t.e_start as string | Date) : undefined;
      const end = t.e_end ? new Date(t.e_end as string | Date) : undefined;
      if (end && now > end) return this.drop(id);
      if (start && now < start) return this.postpone(id, start);
    }
    const sequence = Number(t.sequence);
    const eventId = Number(t.alert_event_id);
    await this.notifier.notify(
      this.request(t, `event:${eventId}:log:${t.alert_log_id}:n:${sequence}`, {
        email: t.e_email ? splitRecipients(t.e_email_list) : [],
        sms: t.e_sms ? splitRecipients(t.e_sms_list) : [],
        push: Boolean(t.e_push),
      }),
    );
    const frequency = num(t.e_frequency) ?? 0;
    const message =
      `${t.e_name}: ${t.device_name ?? `#${t.device_id}`} ${t.template_name ?? ''} ${t.value ?? ''} ${t.unit ?? ''}`
        .replace(/\s+/g, ' ')
        .trim();
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`
        UPDATE alert_events SET status = 'triggered', event_time = now(), execution_count = execution_count + 1,
          updated_at = now()
        WHERE id = ${eventId}`);
      await tx.execute(sql`
        INSERT INTO alert_event_logs (account_id, date_time, alert_event_id, status, alert_message, device_id, device_type_id)
        VALUES (${t.account_id}, now(), ${eventId}, ${sequence === 0 ? 'triggered' : 'repeated'}, ${message.slice(0, 255)},
          ${t.device_id}, ${t.device_type_id})`);
      if (frequency > 0) {
        await tx.execute(sql`
          UPDATE alarm_timers SET sequence = ${sequence + 1}, claimed_until = NULL,
            due_at = now() + make_interval(secs => ${frequency * this.minuteSeconds}::float8)
          WHERE id = ${Number(t.id)}`);
      } else {
        await tx.execute(sql`DELETE FROM alarm_timers WHERE id = ${Number(t.id)}`);
      }
    });
    return 1;
  }

  /**
   * A node-loss alarm notifies through its settings' channels, to the account's members: once, or
   * with `isForever` every heartbeat cycle until the device speaks; at most `alarmCount` per `period`.
   */
  private async fireNodeLoss(t: Row, now: Date): Promise<number> {
    const id = Number(t.id);
    if (t.n_id === null || t.n_id === undefined) return this.drop(id);
    const minute = this.minuteSeconds * 1000;
    const period = num(t.n_period);
    const cap = num(t.n_count) ?? 0;
    let windowStart = t.window_start ? new Date(t.window_start as string | Date) : now;
    let windowCount = Number(t.window_count);
    if (period && now.getTime() - windowStart.getTime() >= period * minute) {
      windowStart = now;
      windowCount = 0;
    }
    const cycle = (num(t.n_cycle) ?? num(t.n_threshold) ?? 15) * minute;
    if (cap > 0 && windowCount >= cap) {
      // The period's notifications are spent: the next period, when it repeats at all.
      if (!t.n_forever || !period) return this.drop(id);
      return this.postpone(id, new Date(windowStart.getTime() + period * minute), windowStart, windowCount);
    }
    const sequence = Number(t.sequence);
    const members = rowsOf(
      await this.db.execute(sql`
        SELECT u.email, u.phone_number FROM users u JOIN users_roles m ON m.user_id = u.id
        WHERE m.account_id = ${t.account_id} ORDER BY u.id`),
    );
    await this.notifier.notify(
      this.request(t, `nodeLoss:log:${t.alert_log_id}:n:${sequence}`, {
        email: t.n_email ? members.map((m) => String(m.email)).filter(Boolean) : [],
        sms: t.n_sms ? members.map((m) => m.phone_number as string | null).filter((p): p is string => Boolean(p)) : [],
        push: Boolean(t.n_push),
      }),
    );
    windowCount++;
    const again = t.n_forever || (cap > 0 && sequence + 1 < cap);
    if (!again) return this.drop(id, 1);
    await this.db.execute(sql`
      UPDATE alarm_timers SET sequence = ${sequence + 1}, claimed_until = NULL, window_start = ${windowStart.toISOString()}::timestamptz,
        window_count = ${windowCount}, due_at = ${new Date(now.getTime() + cycle).toISOString()}::timestamptz
      WHERE id = ${id}`);
    return 1;
  }

  private request(t: Row, dedupeKey: string, channels: NotificationRequest['channels']): NotificationRequest {
    const nodeLoss = t.kind === 'nodeLoss';
    // A fault or gateway alarm is named by its rule (engines/faults), whatever event notifies about it.
    const ruled = t.kind !== 'threshold' && !nodeLoss;
    return {
      accountId: Number(t.account_id),
      alertLogId: Number(t.alert_log_id),
      alertEventId: num(t.alert_event_id),
      dedupeKey,
      level: String(t.alert_level),
      channels,
      vars: {
        device: String(t.device_name ?? `#${t.device_id}`),
        level: String(t.alert_level),
        template: nodeLoss
          ? 'Node loss'
          : ruled
            ? translator('en')(`faults.rules.${String(t.kind)}`)
            : String(t.template_name ?? t.event_name ?? ''),
        value: t.value === null || t.value === undefined ? '' : String(t.value),
        unit: String(t.unit ?? ''),
        time: iso(t.date_time),
        region: String(t.region_name ?? ''),
      },
    };
  }

  private async drop(id: number, sent = 0): Promise<number> {
    await this.db.execute(sql`DELETE FROM alarm_timers WHERE id = ${id}`);
    return sent;
  }

  private async postpone(id: number, until: Date, windowStart?: Date, windowCount?: number): Promise<number> {
    await this.db.execute(sql`
      UPDATE alarm_timers SET due_at = ${until.toISOString()}::timestamptz, claimed_until = NULL,
        window_start = coalesce(${windowStart?.toISOString() ?? null}::timestamptz, window_start),
        window_count = coalesce(${windowCount ?? null}::int, window_count)
      WHERE id = ${id}`);
    return 0;
  }
}
