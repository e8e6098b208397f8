import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { translator } from '../../i18n/translate.ts';
import { column } from '../../ingest/array-codec.ts';
import { eventMatch, rowsOf } from '../alarms/alarm-rows.ts';
import { clearRecovered, logRaised, startTimers } from '../alarms/alarm-transitions.ts';
import { DEFAULT_SILENCE_MINUTES, MISSED_REPORTS } from '../connection-watcher.ts';

/** Luminaires named in an alarm's message; the details keep up to LISTED_DEVICES. */
const NAMED_IN_MESSAGE = 10;
const LISTED_DEVICES = 200;

/**
 * Gateway health (issue 13): a gateway is alive while it forwards frames (the ingest keeps its
 * `last_seen_at` from uplinks' rxInfo). Silent past its threshold — three of its stats intervals, and
 * at least the quarter of an hour the connection watcher uses — it gets one active `gatewayLoss`
 * alarm (partial unique index `alert_logs_active_gateway`) whose message and details list the
 * luminaires of its account heard only through it: those whose newest frames reached no other
 * gateway (`device_connection_status.gateway_euis`, else the best gateway when that is all there
 * is). Heard again, the alarm clears (reason `recovery`). Idempotent: every worker may run it.
 */
export class GatewayHealth {
  constructor(
    private readonly db: Db,
    /** Seconds in one of the settings' minutes (60; less in tests). */
    private readonly minuteSeconds = 60,
  ) {}

  /** Clears the alarms of gateways heard since they were raised; resolves with the cleared rows. */
  recovered(): Promise<Record<string, unknown>[]> {
    const heard = { from: sql`gateways g`, where: sql`g.id = a.gateway_id`, at: sql`g.last_seen_at` };
    return clearRecovered(this.db, 'gatewayLoss', heard);
  }

  /** Raises the alarms of gateways silent past their threshold; resolves with the raised rows. */
  async sweep(): Promise<Record<string, unknown>[]> {
    const silent = rowsOf(
      await this.db.execute(sql`
        SELECT g.id, g.account_id, g.name, lower(g.dev_eui) AS eui, g.last_seen_at,
          (SELECT count(*) FROM devices d JOIN device_connection_status c ON c.device_id = d.id
           WHERE d.account_id = g.account_id AND d.is_active
             AND (c.gateway_euis = ARRAY[lower(g.dev_eui)]
               OR (c.gateway_euis IS NULL AND c.gateway_eui = lower(g.dev_eui)))) AS lone_count,
          (SELECT coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'name', x.name) ORDER BY x.name, x.id), '[]'::jsonb)
           FROM (SELECT d.id, d.name FROM devices d JOIN device_connection_status c ON c.device_id = d.id
                 WHERE d.account_id = g.account_id AND d.is_active
                   AND (c.gateway_euis = ARRAY[lower(g.dev_eui)]
                     OR (c.gateway_euis IS NULL AND c.gateway_eui = lower(g.dev_eui)))
                 ORDER BY d.name, d.id LIMIT ${LISTED_DEVICES}) x) AS lone
        FROM gateways g
        WHERE g.last_seen_at IS NOT NULL
          AND g.last_seen_at < now() - make_interval(secs => greatest(
            coalesce(g.stats_interval, 30) * ${MISSED_REPORTS}, ${DEFAULT_SILENCE_MINUTES} * ${this.minuteSeconds}::float8))
          AND NOT EXISTS (SELECT 1 FROM alert_logs a WHERE a.gateway_id = g.id AND a.kind = 'gatewayLoss' AND a.is_active)
        ORDER BY g.id LIMIT 500`),
    );
    if (!silent.length) return [];
    const t = translator('en');
    const c = silent.map((g) => {
      const lone = (typeof g.lone === 'string' ? JSON.parse(g.lone) : g.lone) as { id: number; name: string }[];
      const count = Number(g.lone_count);
      const named = lone.slice(0, NAMED_IN_MESSAGE).map((d) => d.name);
      const devices =
        count > named.length
          ? `${named.join(', ')} ${t('faults.more', { count: count - named.length })}`
          : named.join(', ');
      const since = new Date(g.last_seen_at as string | Date).toISOString();
      return {
        gatewayId: Number(g.id),
        accountId: Number(g.account_id),
        message: t('faults.messages.gatewayLoss', { gateway: String(g.name), since, count, devices: devices || '—' }),
        details: JSON.stringify({ gatewayEui: g.eui, lastSeenAt: since, count, luminaires: lone }),
        count,
      };
    });
    const e = sql.raw('e');
    const raised = sql.raw('raised');
    return rowsOf(
      await this.db.execute(sql`
        WITH input AS (
          SELECT * FROM unnest(${column(c, (x) => x.gatewayId)}::bigint[], ${column(c, (x) => x.accountId)}::bigint[],
            ${column(c, (x) => x.message.slice(0, 2000))}::text[], ${column(c, (x) => x.details)}::text[],
            ${column(c, (x) => x.count)}::float8[])
          AS i(gateway_id, account_id, message, details, lone)
        ), raised AS (
          INSERT INTO alert_logs (account_id, alert_level, date_time, gateway_id, value, event_name, details, kind, state, is_active)
          SELECT i.account_id, CASE WHEN i.lone > 0 THEN 'high' ELSE 'medium' END, now(), i.gateway_id, i.lone, i.message,
            i.details::jsonb, 'gatewayLoss', 'active', true
          FROM input i
          ON CONFLICT DO NOTHING
          RETURNING *
        ), timers AS (
          ${startTimers(raised, eventMatch(e, sql.raw('r.account_id'), sql`NULL::bigint`, sql`NULL::bigint`))}
        ), logged AS (
          ${logRaised(raised)}
        )
        SELECT * FROM raised`),
    );
  }
}
