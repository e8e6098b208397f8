import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import type { CommandEvents } from '../api/command-events.ts';
import type { Db } from '../db/connect.ts';
import type { LiveEvents } from '../stream/live-events.ts';
import { WRITE_EVENT_COLUMNS, writeEvent } from './batch-writer.ts';
import { encodeWrite } from './decode-payload.ts';
import type { DeviceDirectory } from './device-directory.ts';
import { downlinkIdOf } from './downlink-ids.ts';

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
    return () => {
      off();
      clearInterval(this.timer);
    };
  }

  async send(writeId: number): Promise<void> {
    const claimed = rowsOf(
      await this.db.execute(sql`
        UPDATE channel_write_values SET status = 'sent', sent_at = now(), updated_at = now()
        WHERE id = ${writeId} AND status = 'pending'
        RETURNING ${WRITE_EVENT_COLUMNS}`),
    )[0];
    if (!claimed) return;
    this.announce(claimed);
    const device = await this.directory.byId(Number(claimed.device_id));
    const template = device?.templates.find((t) => t.id === Number(claimed.device_channel_template_id));
    if (!device || !template) return this.fail(writeId, 'not_writable');
    const encoded = encodeWrite(template, Number(claimed.value));
    if (!encoded.ok) return this.fail(writeId, encoded.reason);
    try {
      if (device.devEui) {
        const applicationId =
          device.applicationId ?? (await this.directory.applicationOf(device.accountId)) ?? 'unknown';
        const message = {
          id: downlinkIdOf(writeId),
          devEui: device.devEui,
          // Confirmed, so the device's acknowledgement (event/ack) settles the write.
          confirmed: true,
          fPort: DOWNLINK_FPORT,
          data: Buffer.from(encoded.bytes).toString('base64'),
        };
        await this.publisher.publishAsync(
          `application/${applicationId}/device/${device.devEui}/command/down`,
          JSON.stringify(message),
          { qos: 1 },
        );
      } else if (device.uid) {
        const message = { id: String(writeId), values: { [template.channelCode]: Number(claimed.value) } };
        await this.publisher.publishAsync(`lampyr/${device.uid}/down`, JSON.stringify(message), { qos: 1 });
      } else return this.fail(writeId, 'no_address');
    } catch (error) {
      this.options.onError(error);
      return this.fail(writeId, 'publish_failed');
    }
  }

  /** Fails writes left unanswered, and sends those no event announced. */
  async sweep(): Promise<void> {
    const timeoutSeconds = this.options.timeoutMs / 1000;
    const expired = rowsOf(
      await this.db.execute(sql`
        UPDATE channel_write_values SET status = 'failed', message = 'timeout', answered_at = now(), updated_at = now()
        WHERE status = 'sent' AND sent_at < now() - make_interval(secs => ${timeoutSeconds})
        RETURNING ${WRITE_EVENT_COLUMNS}`),
    );
    for (const row of expired) this.announce(row);
    const orphans = rowsOf(
      await this.db.execute(sql`
        SELECT id FROM channel_write_values
        WHERE status = 'pending' AND created_at < now() - make_interval(secs => ${ORPHAN_AFTER_MS / 1000})
        ORDER BY id LIMIT 100`),
    );
    for (const row of orphans) await this.send(Number(row.id));
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
