import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rowsOf } from '../alarms/alarm-rows.ts';
import { clearRecovered, logRaised } from '../alarms/alarm-transitions.ts';

/**
 * Node loss (DEVICES.md "Alarms"): a device silent past its active node-loss setting's heartbeat
 * threshold gets one active `nodeLoss` alarm at the setting's alert level, with a timer that sends
 * its notifications (alarm-timers.ts). A device that never spoke has no connection status and is
 * never "lost": the dashboard counts it as never seen. Its next uplink clears the alarm (the alarm
 * engine, reason `recovery`). One statement per pass; the partial unique index of active alarms makes
 * it safe for every worker to run.
 */
export class NodeLossWatcher {
  constructor(
    private readonly db: Db,
    /** Seconds in one of the settings' minutes (60; less in tests). */
    private readonly minuteSeconds = 60,
  ) {}

  /**
   * Clears the node-loss alarms of devices heard from since they were raised (reason `recovery`):
   * the ingest's worker clears them at once when it knows of the alarm; this catches the ones raised
   * by another worker. Resolves with the cleared rows.
   */
  recovered(): Promise<Record<string, unknown>[]> {
    const heard = {
      from: sql`device_connection_status s`,
      where: sql`s.device_id = a.device_id`,
      at: sql`s.date_time`,
    };
    return clearRecovered(this.db, 'nodeLoss', heard);
  }

  /** Raises the node-loss alarms now due; resolves with the raised rows. */
  async sweep(): Promise<Record<string, unknown>[]> {
    return rowsOf(
      await this.db.execute(sql`
        WITH lost AS (
          SELECT DISTINCT ON (d.id) d.id AS device_id, d.account_id, n.alert_level, d.region_id, m.device_type_id
          FROM device_node_loss_settings n
          JOIN devices d ON d.id = n.device_id AND d.account_id = n.account_id
          JOIN device_models m ON m.id = d.device_type_model_id
          JOIN device_connection_status s ON s.device_id = d.id
          WHERE n.is_active AND d.is_active
            AND s.date_time < now() - make_interval(secs => n.heartbeat_threshold * ${this.minuteSeconds}::float8)
            AND NOT EXISTS (SELECT 1 FROM alert_logs a WHERE a.device_id = d.id AND a.kind = 'nodeLoss' AND a.is_active)
          ORDER BY d.id, n.id
        ), raised AS (
          INSERT INTO alert_logs (account_id, alert_level, date_time, device_id, region_id, device_type_id, kind, state, is_active)
          SELECT account_id, alert_level, now(), device_id, region_id, device_type_id, 'nodeLoss', 'active', true FROM lost
          ON CONFLICT DO NOTHING
          RETURNING *
        ), timers AS (
          INSERT INTO alarm_timers (account_id, alert_log_id, due_at)
          SELECT account_id, id, now() FROM raised
          ON CONFLICT DO NOTHING
        ), logged AS (
          ${logRaised(sql.raw('raised'))}
        )
        SELECT * FROM raised`),
    );
  }
}
