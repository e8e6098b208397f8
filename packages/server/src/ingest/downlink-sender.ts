import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import type { Db } from '../db/connect.ts';
import type { CommandEvents } from '../events/command-events.ts';
import type { LiveEvents } from '../events/live-events.ts';
import { encodeWrite } from './decode-payload.ts';
import type { DeviceDirectory } from './device-directory.ts';
import { newDownlinkId } from './downlink-ids.ts';
import { WRITE_EVENT_COLUMNS, WRITE_EVENT_COLUMNS_OF_W, writeEvent } from './write-events.ts';

/** LoRaWAN application port of the street-light controllers' commands. */
export const DOWNLINK_FPORT = 10;
/** A pending write older than this was missed by its event (another replica, a restart): send it. */
const ORPHAN_AFTER_MS = 5000;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export interface DownlinkOptions {
  timeoutMs: number;
  sweepMs?: number;
  onError(error: unknown): void;
}

/**
 * Channel writes to devices: a created channel-write-value is claimed (pending → sent), encoded with
 * its write channel template and published as ChirpStack `command/down` or Lampyr `down`; the
 * device's answer (see the uplink handler) makes it acknowledged or failed, and a write left
 * unanswered fails after `timeoutMs`.
 */
export class DownlinkSender {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly directory: DeviceDirectory,
    private readonly publisher: MqttClient,
    private readonly live: LiveEvents,
    private readonly options: DownlinkOptions,
  ) {}

  start(commands: CommandEvents): () => void {
    const off = commands.on('channel-write-values', 'create', (event) => this.send(Number(event.record.id)));
    this.timer = setInterval(() => this.sweep().catch(this.options.onError), this.options.sweepMs ?? 2000);
    this.timer.unref();
    // mqtt.js keeps a QoS 1 publish that was in flight when the connection broke and sends it again
    // after reconnecting, however late. A command is never sent late: it is dropped (its write fails).
    const dropInFlight = () => {
      for (const id of Object.keys(this.publisher.outgoing ?? {})) this.publisher.removeOutgoingMessage(Number(id));
    };
    this.publisher.on('close', dropInFlight);
    return () => {
      off();
      clearInterval(this.timer);
      this.publisher.off('close', dropInFlight);
    };
  }

  async send(writeId: number): Promise<void> {
    // While the broker is away nothing is claimed: mqtt.js would queue the publish and deliver it
    // after reconnecting. The write stays pending; the sweep sends it once connected, or fails it
    // when its time is up.
    if (!this.publisher.connected) return;
    const timeoutSeconds = this.options.timeoutMs / 1000;
    const downlinkId = newDownlinkId();
    // The write's state is checked in the same statement that claims it, just before publishing.
    const claimed = rowsOf(
      await this.db.execute(sql`
        UPDATE channel_write_values SET status = 'sent', sent_at = now(), updated_at = now(), downlink_id = ${downlinkId},
          attempts = attempts + 1
        WHERE id = ${writeId} AND status = 'pending' AND created_at > now() - make_interval(secs => ${timeoutSeconds})
        RETURNING ${WRITE_EVENT_COLUMNS}`),
    )[0];
    if (!claimed) return;
    this.announce(claimed);
    await this.transmit(writeId, claimed, downlinkId);
  }

  /**
   * Sends a write that timed out once more, with a new id, while the device's ConnectionAttemptNumber
   * allows (checked in the claim, so two sweeps cannot both resend it).
   */
  async resend(writeId: number): Promise<void> {
    if (!this.publisher.connected) return;
    const timeoutSeconds = this.options.timeoutMs / 1000;
    const downlinkId = newDownlinkId();
    const claimed = rowsOf(
      await this.db.execute(sql`
        UPDATE channel_write_values w SET sent_at = now(), updated_at = now(), downlink_id = ${downlinkId},
          attempts = w.attempts + 1
        FROM devices d
        WHERE w.id = ${writeId} AND d.id = w.device_id AND w.status = 'sent'
          AND w.sent_at < now() - make_interval(secs => ${timeoutSeconds})
          AND w.attempts < greatest(coalesce(d.connection_attempt_number, 1), 1)
        RETURNING ${WRITE_EVENT_COLUMNS_OF_W}`),
    )[0];
    if (!claimed) return;
    await this.transmit(writeId, claimed, downlinkId);
  }

  private async transmit(writeId: number, claimed: Record<string, unknown>, downlinkId: string): Promise<void> {
    const timeoutSeconds = this.options.timeoutMs / 1000;
    const device = await this.directory.byId(Number(claimed.device_id));
    const template = device?.templates.find((t) => t.id === Number(claimed.device_channel_template_id));
    if (!device || !template) return this.fail(writeId, 'not_writable');
    if (!device.isActive || !device.accountActive) return this.fail(writeId, 'device_inactive');
    const encoded = encodeWrite(template, Number(claimed.value));
    if (!encoded.ok) return this.fail(writeId, encoded.reason);
    // MQTT 5 brokers drop the command once its time is up, also from a queue kept for an offline client.
    const expiry = {
      qos: 1 as const,
      properties: { messageExpiryInterval: Math.max(1, Math.ceil(timeoutSeconds)) },
    };
    if (!this.publisher.connected) return this.fail(writeId, 'publish_failed');
    try {
      if (device.devEui) {
        const applicationId =
          device.applicationId ?? (await this.directory.applicationOf(device.accountId)) ?? 'unknown';
        // Confirmed downlinks are settled by the device's acknowledgement (event/ack), unconfirmed
        // ones by the gateway's transmission (event/txack): the answer must know which it was.
        await this.db.execute(
          sql`UPDATE channel_write_values SET confirmed = ${device.confirmed} WHERE id = ${writeId}`,
        );
        const message = {
          id: downlinkId,
          devEui: device.devEui,
          confirmed: device.confirmed,
          fPort: device.portNumber || DOWNLINK_FPORT,
          data: Buffer.from(encoded.bytes).toString('base64'),
        };
        await this.publisher.publishAsync(
          `application/${applicationId}/device/${device.devEui}/command/down`,
          JSON.stringify(message),
          expiry,
        );
      } else if (device.uid) {
        const message = {
          id: downlinkId,
          values: { [template.channelCode]: Number(claimed.value) },
          // The device ignores a command that reaches it after this (a broker that queued it).
          expiresAt: new Date(Date.now() + this.options.timeoutMs).toISOString(),
        };
        await this.publisher.publishAsync(`lampyr/${device.uid}/down`, JSON.stringify(message), expiry);
      } else return this.fail(writeId, 'no_address');
    } catch (error) {
      this.options.onError(error);
      return this.fail(writeId, 'publish_failed');
    }
  }

  /** Resends or fails writes left unanswered, and sends those no event announced. */
  async sweep(): Promise<void> {
    const timeoutSeconds = this.options.timeoutMs / 1000;
    if (this.publisher.connected) {
      const due = rowsOf(
        await this.db.execute(sql`
          SELECT w.id FROM channel_write_values w JOIN devices d ON d.id = w.device_id
          WHERE w.status = 'sent' AND w.sent_at < now() - make_interval(secs => ${timeoutSeconds})
            AND w.attempts < greatest(coalesce(d.connection_attempt_number, 1), 1)
          ORDER BY w.id LIMIT 100`),
      );
      for (const row of due) await this.resend(Number(row.id));
    }
    // A write never sent (the broker was away) times out from its creation, one sent from its last
    // sending once its attempts are used up (or the broker is away, so it cannot be resent).
    const expired = rowsOf(
      await this.db.execute(sql`
        UPDATE channel_write_values w SET status = 'failed', message = 'timeout', answered_at = now(), updated_at = now()
        FROM devices d
        WHERE d.id = w.device_id AND (
          (w.status = 'sent' AND w.sent_at < now() - make_interval(secs => ${timeoutSeconds})
            AND (w.attempts >= greatest(coalesce(d.connection_attempt_number, 1), 1) OR ${!this.publisher.connected}))
          OR (w.status = 'pending' AND w.created_at < now() - make_interval(secs => ${timeoutSeconds})))
        RETURNING ${WRITE_EVENT_COLUMNS_OF_W}`),
    );
    for (const row of expired) this.announce(row);
    const orphans = rowsOf(
      await this.db.execute(sql`
        SELECT id FROM channel_write_values
        WHERE status = 'pending' AND created_at < now() - make_interval(secs => ${ORPHAN_AFTER_MS / 1000})
        ORDER BY id LIMIT 100`),
    );
    if (this.publisher.connected) for (const row of orphans) await this.send(Number(row.id));
  }

  private async fail(writeId: number, reason: string): Promise<void> {
    const rows = rowsOf(
      await this.db.execute(sql`
        UPDATE channel_write_values SET status = 'failed', message = ${reason}, answered_at = now(), updated_at = now()
        WHERE id = ${writeId} AND status IN ('pending', 'sent')
        RETURNING ${WRITE_EVENT_COLUMNS}`),
    );
    for (const row of rows) this.announce(row);
  }

  private announce(row: Record<string, unknown>): void {
    this.live.publish(Number(row.account_id), [writeEvent(row)]);
  }
}
