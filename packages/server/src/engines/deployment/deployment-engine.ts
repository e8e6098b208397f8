import { randomUUID } from 'node:crypto';
import { CONFIG_FPORT, type ConfigReport, configCommandToJson, encodeConfigCommand } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { OPEN_ROW, settleGroups } from '../../data/config-commands.ts';
import { expireOverrides } from '../../data/overrides.ts';
import type { Db } from '../../db/connect.ts';
import type { CommandEvents } from '../../events/command-events.ts';
import type { LiveEvents } from '../../events/live-events.ts';
import type { DeviceDirectory } from '../../ingest/device-directory.ts';
import { commandOfRow, DEPLOY_COLUMNS, deployEvent, MAX_ATTEMPTS, rowsOf } from './deploy-rows.ts';

export interface DeploymentOptions {
  /** How long a sent command waits for the device's config report before it is resent (default 60 s). */
  waitMs?: number;
  sweepMs?: number;
  /** The engine's clock (tests drive it). */
  now?: () => Date;
  onError(error: unknown): void;
}

/** A config report as the ingest decoded it, after its message was stored. */
export interface ConfigReportEntry {
  accountId: number;
  deviceId: number;
  report: ConfigReport;
  receivedAt: Date;
}

/** A row not sent within this long of its creation (its event was missed: a restart, another replica) is sent by the sweep. */
const ORPHAN_AFTER_MS = 5000;

/**
 * Verified deployment (docs/device-config.md): each deploy response log row the API created is sent
 * to its device as a configuration command; the device's config report confirms it (the deployed
 * version, or the answered operation) or shows a mismatch; a row left unconfirmed past its wait is
 * resent unicast until the device's ConnectionAttemptNumber is used up, then it times out. Every
 * timer is a column of the row (`next_attempt_at`), so a restarted server continues the deployment.
 */
export class DeploymentEngine {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly directory: DeviceDirectory,
    private readonly publisher: MqttClient,
    private readonly live: LiveEvents,
    private readonly options: DeploymentOptions,
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private get waitMs(): number {
    return this.options.waitMs ?? 60_000;
  }

  start(commands: CommandEvents): () => void {
    const off = commands.on('deploy-response-logs', 'create', async (event) => {
      const ids = Array.isArray(event.record.ids) ? event.record.ids : [event.record.id];
      for (const id of ids) await this.send(Number(id));
    });
    this.timer = setInterval(() => this.sweep().catch(this.options.onError), this.options.sweepMs ?? 2000);
    this.timer.unref();
    return () => {
      off();
      clearInterval(this.timer);
    };
  }

  /** Sends a pending row (claimed in the statement that marks it sent). */
  async send(rowId: number): Promise<void> {
    if (!this.publisher.connected) return;
    const now = this.now();
    const downlinkId = randomUUID();
    const claimed = rowsOf(
      await this.db.execute(sql`
        UPDATE deploy_response_logs r SET status = 'sent', deploy_time = ${now.toISOString()}::timestamptz,
          downlink_id = ${downlinkId}, resend_count = 0,
          next_attempt_at = ${new Date(now.getTime() + this.waitMs).toISOString()}::timestamptz, updated_at = now()
        WHERE r.id = ${rowId} AND r.status = 'pending' AND r.command IS NOT NULL
        RETURNING ${DEPLOY_COLUMNS}`),
    )[0];
    if (!claimed) return;
    await this.changed([claimed]);
    await this.transmit(claimed, downlinkId);
  }

  /** Sends a row again while its device's attempts allow (checked in the claim). */
  private async resend(rowId: number): Promise<void> {
    if (!this.publisher.connected) return;
    const now = this.now();
    const downlinkId = randomUUID();
    const claimed = rowsOf(
      await this.db.execute(sql`
        UPDATE deploy_response_logs r SET resend_count = coalesce(r.resend_count, 0) + 1, resend_operation = true,
          downlink_id = ${downlinkId},
          next_attempt_at = ${new Date(now.getTime() + this.waitMs).toISOString()}::timestamptz, updated_at = now()
        FROM devices d
        WHERE r.id = ${rowId} AND d.id = r.device_id AND ${OPEN_ROW} AND r.status <> 'pending'
          AND r.next_attempt_at <= ${now.toISOString()}::timestamptz
          AND coalesce(r.resend_count, 0) + 1 < ${MAX_ATTEMPTS}
        RETURNING ${DEPLOY_COLUMNS}`),
    )[0];
    if (!claimed) return;
    await this.changed([claimed]);
    await this.transmit(claimed, downlinkId);
  }

  private async transmit(row: Record<string, unknown>, downlinkId: string): Promise<void> {
    const rowId = Number(row.id);
    const device = await this.directory.byId(Number(row.device_id));
    const command = commandOfRow(row);
    if (!device) return this.fail(rowId, 'device_missing');
    if (!device.isActive || !device.accountActive) return this.fail(rowId, 'device_inactive');
    if (!command) return this.fail(rowId, 'bad_command');
    if (!device.devEui && !device.uid) return this.fail(rowId, 'no_address');
    let encoded: string | ReturnType<typeof configCommandToJson>;
    try {
      encoded = device.devEui
        ? Buffer.from(encodeConfigCommand(command)).toString('base64')
        : configCommandToJson(command);
    } catch (error) {
      // A program that no longer encodes (it was checked when the row was made) is not sent at all.
      this.options.onError(error);
      return this.fail(rowId, 'bad_command');
    }
    const expiry = { qos: 1 as const, properties: { messageExpiryInterval: Math.ceil(this.waitMs / 1000) } };
    try {
      if (device.devEui) {
        const applicationId =
          device.applicationId ?? (await this.directory.applicationOf(device.accountId)) ?? 'unknown';
        const message = {
          id: downlinkId,
          devEui: device.devEui,
          confirmed: device.confirmed,
          fPort: CONFIG_FPORT,
          data: encoded,
        };
        await this.publisher.publishAsync(
          `application/${applicationId}/device/${device.devEui}/command/down`,
          JSON.stringify(message),
          expiry,
        );
      } else {
        const message = {
          id: downlinkId,
          config: encoded,
          expiresAt: new Date(this.now().getTime() + this.waitMs).toISOString(),
        };
        await this.publisher.publishAsync(`lampyr/${device.uid}/down`, JSON.stringify(message), expiry);
      }
    } catch (error) {
      // A publish that fails leaves the row sent: the sweep resends it when its wait is over.
      this.options.onError(error);
    }
  }

  /** Resends rows whose wait is over, gives up those out of attempts, and sends rows no event announced. */
  async sweep(): Promise<void> {
    // Controllers drop an override at its time by themselves; the record follows.
    await expireOverrides(this.db, this.now());
    const now = this.now().toISOString();
    const givenUp = rowsOf(
      await this.db.execute(sql`
        UPDATE deploy_response_logs r SET
          status = CASE WHEN r.status = 'mismatch' THEN 'mismatch' ELSE 'timeout' END,
          response_result = CASE WHEN r.status = 'mismatch' THEN 'version_mismatch' ELSE 'timeout' END,
          next_attempt_at = NULL, updated_at = now()
        FROM devices d
        WHERE d.id = r.device_id AND ${OPEN_ROW} AND r.status <> 'pending'
          AND r.next_attempt_at <= ${now}::timestamptz AND coalesce(r.resend_count, 0) + 1 >= ${MAX_ATTEMPTS}
        RETURNING ${DEPLOY_COLUMNS}`),
    );
    await this.changed(givenUp);
    if (!this.publisher.connected) return;
    const due = rowsOf(
      await this.db.execute(sql`
        SELECT r.id FROM deploy_response_logs r
        WHERE ${OPEN_ROW} AND r.status <> 'pending' AND r.next_attempt_at <= ${now}::timestamptz
        ORDER BY r.id LIMIT 200`),
    );
    for (const row of due) await this.resend(Number(row.id));
    const orphans = rowsOf(
      await this.db.execute(sql`
        SELECT r.id FROM deploy_response_logs r
        WHERE r.status = 'pending' AND r.command IS NOT NULL
          AND r.created_at < ${new Date(this.now().getTime() - ORPHAN_AFTER_MS).toISOString()}::timestamptz
        ORDER BY r.id LIMIT 200`),
    );
    for (const row of orphans) await this.send(Number(row.id));
  }

  /**
   * A device's config report: it confirms its open rows whose deployed version it shows (a deploy)
   * or whose operation it answers (the other commands); a report showing another version marks an
   * open deploy a mismatch, which keeps being resent while attempts are left.
   */
  async onReport(entry: ConfigReportEntry): Promise<void> {
    const { report } = entry;
    const at = entry.receivedAt.toISOString();
    const open = rowsOf(
      await this.db.execute(sql`
        SELECT ${DEPLOY_COLUMNS} FROM deploy_response_logs r
        WHERE r.device_id = ${entry.deviceId} AND ${OPEN_ROW} AND r.status <> 'pending'`),
    );
    const changed: Record<string, unknown>[] = [];
    for (const row of open) {
      let status: 'confirmed' | 'mismatch' | 'failed' | undefined;
      let result: string | null = null;
      if (row.operation === 'deploy') {
        if (report.version === Number(row.version)) status = 'confirmed';
        else {
          status = 'mismatch';
          result = `reported version ${report.version}`;
        }
      } else if (report.answers === row.operation) {
        status = report.ok ? 'confirmed' : 'failed';
        if (!report.ok) result = 'refused';
      }
      if (!status) continue;
      const settled = rowsOf(
        await this.db.execute(sql`
          UPDATE deploy_response_logs r SET status = ${status}, reported_version = ${report.version},
            response_time = ${at}::timestamptz, response_result = coalesce(${result}, 'ok'),
            next_attempt_at = CASE WHEN ${status} = 'mismatch' THEN r.next_attempt_at ELSE NULL END, updated_at = now()
          WHERE r.id = ${Number(row.id)} AND ${OPEN_ROW}
          RETURNING ${DEPLOY_COLUMNS}`),
      );
      changed.push(...settled);
    }
    await this.changed(changed);
  }

  private async fail(rowId: number, reason: string): Promise<void> {
    const rows = rowsOf(
      await this.db.execute(sql`
        UPDATE deploy_response_logs r SET status = 'failed', response_result = ${reason}, next_attempt_at = NULL,
          updated_at = now()
        WHERE r.id = ${rowId} AND ${OPEN_ROW}
        RETURNING ${DEPLOY_COLUMNS}`),
    );
    await this.changed(rows);
  }

  /** Streams the rows' new state and brings their task groups' publication status up to date. */
  private async changed(rows: Record<string, unknown>[]): Promise<void> {
    for (const row of rows) this.live.publish(Number(row.account_id), [deployEvent(row)]);
    const batches = rows.filter((r) => r.task_group_id !== null && r.batch_id).map((r) => String(r.batch_id));
    if (batches.length) await settleGroups(this.db, batches);
  }
}
