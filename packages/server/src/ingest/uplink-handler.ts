import type { DataLogEntry, IngestUnit, Reading, WriteAnswer } from './batch-writer.ts';
import { type DecodedValue, decodePayload, mapNamedValues } from './decode-payload.ts';
import type { DeviceDirectory, KnownDevice } from './device-directory.ts';
import { type RefusalReason, refusalOf } from './device-trust.ts';
import { parseDownlinkId } from './downlink-ids.ts';

/** What the ingest subscribes to: ChirpStack v4's integration events and Lampyr's JSON. */
export const INGEST_TOPICS = ['application/+/device/+/event/+', 'lampyr/+/up', 'lampyr/+/ack'];

/**
 * Reasons a message lands in the data log (translated under `ingest.reasons` in the console).
 * `chirpstack_log` is ChirpStack's own `event/log`, kept for the operator.
 */
export type LogReason =
  | 'unknown_device'
  | 'unknown_topic'
  | 'bad_json'
  | 'bad_message'
  | 'payload_too_short'
  | 'bad_template'
  | 'formula_error'
  | 'no_read_channels'
  | 'no_known_channels'
  | 'chirpstack_log'
  | RefusalReason;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const PAYLOAD_LOG_LIMIT = 8192;

/** Turns one MQTT message into what must be stored for it; never throws on bad input. */
export class UplinkHandler {
  constructor(private readonly directory: DeviceDirectory) {}

  async handle(topic: string, payload: Buffer, receivedAt = new Date()): Promise<IngestUnit> {
    const parts = topic.split('/');
    if (parts[0] === 'application' && parts[2] === 'device' && parts[4] === 'event' && parts.length === 6) {
      return this.chirpstack(
        topic,
        parts[1] as string,
        (parts[3] as string).toLowerCase(),
        parts[5] as string,
        payload,
        receivedAt,
      );
    }
    if (parts[0] === 'lampyr' && parts.length === 3) {
      return this.lampyr(topic, parts[1] as string, parts[2] as string, payload, receivedAt);
    }
    return this.log(topic, null, 'unknown_topic', payload);
  }

  private async chirpstack(
    topic: string,
    applicationId: string,
    devEui: string,
    event: string,
    payload: Buffer,
    receivedAt: Date,
  ): Promise<IngestUnit> {
    const message = parseJson(payload);
    const device = await this.directory.byDevEui(devEui);
    if (!device) {
      const accountId = await this.directory.accountOfApplication(applicationId);
      return this.log(topic, devEui, 'unknown_device', payload, accountId);
    }
    const refusal = await refusalOf(this.directory, device, applicationId);
    if (refusal) return this.log(topic, devEui, refusal.reason, payload, refusal.accountId);
    if (!message) return this.log(topic, devEui, 'bad_json', payload, device.accountId);
    const time = parseTime(message.time) ?? receivedAt;
    switch (event) {
      case 'up':
        return this.chirpstackUp(topic, device, message, payload, time);
      case 'status':
      case 'join':
        return { seen: { accountId: device.accountId, deviceId: device.id, dateTime: time, rssi: null, snr: null } };
      case 'ack': {
        // Settles only a command sent to this very device (the topic's, checked above).
        const downlinkId = parseDownlinkId(message.queueItemId);
        if (downlinkId === undefined) return {};
        const target = { downlinkId, deviceId: device.id, answeredAt: time };
        const answer: WriteAnswer = message.acknowledged
          ? { ...target, status: 'acknowledged', message: null }
          : { ...target, status: 'failed', message: 'not_acknowledged' };
        return { answers: [answer] };
      }
      case 'log':
        return this.log(topic, devEui, 'chirpstack_log', payload, device.accountId);
      default:
        // txack (a gateway sent the frame) and other events change nothing stored.
        return {};
    }
  }

  private async chirpstackUp(
    topic: string,
    device: KnownDevice,
    message: Json,
    payload: Buffer,
    time: Date,
  ): Promise<IngestUnit> {
    const fCnt = message.fCnt;
    const frameKey = typeof fCnt === 'number' || typeof fCnt === 'string' ? `fcnt:${fCnt}` : time.toISOString();
    let values: DecodedValue[] | undefined;
    // The network server's codec output wins when it names any of our channels.
    if (isObject(message.object)) {
      const named = mapNamedValues(device.readChannels, message.object);
      if (named.length) values = named;
    }
    if (!values) {
      if (typeof message.data !== 'string')
        return this.log(topic, device.devEui, 'bad_message', payload, device.accountId);
      const decoded = decodePayload(device.readChannels, Buffer.from(message.data, 'base64'));
      if (!decoded.ok) return this.log(topic, device.devEui, decoded.reason, payload, device.accountId);
      values = decoded.values;
    }
    const best = bestSignal(message.rxInfo);
    return {
      readings: readingsOf(device, values, time, frameKey),
      seen: { accountId: device.accountId, deviceId: device.id, dateTime: time, rssi: best.rssi, snr: best.snr },
    };
  }

  private async lampyr(
    topic: string,
    uid: string,
    kind: string,
    payload: Buffer,
    receivedAt: Date,
  ): Promise<IngestUnit> {
    const device = await this.directory.byUid(uid);
    if (!device) return this.log(topic, uid, 'unknown_device', payload);
    const refusal = await refusalOf(this.directory, device);
    if (refusal) return this.log(topic, uid, refusal.reason, payload, refusal.accountId);
    const message = parseJson(payload);
    if (!message) return this.log(topic, uid, 'bad_json', payload, device.accountId);
    if (kind === 'ack') {
      // Settles only a command sent to the device whose ack topic this is.
      const downlinkId = parseDownlinkId(message.id);
      if (!downlinkId) return this.log(topic, uid, 'bad_message', payload, device.accountId);
      const ok = message.ok === true;
      const text = typeof message.message === 'string' ? message.message.slice(0, 500) : null;
      const status = ok ? 'acknowledged' : 'failed';
      return { answers: [{ downlinkId, deviceId: device.id, status, message: text, answeredAt: receivedAt }] };
    }
    if (kind !== 'up') return this.log(topic, uid, 'unknown_topic', payload, device.accountId);
    if (!isObject(message.values)) return this.log(topic, uid, 'bad_message', payload, device.accountId);
    const time = message.ts === undefined ? receivedAt : parseTime(message.ts);
    if (!time) return this.log(topic, uid, 'bad_message', payload, device.accountId);
    const values = mapNamedValues(device.readChannels, message.values);
    if (!values.length) return this.log(topic, uid, 'no_known_channels', payload, device.accountId);
    return {
      readings: readingsOf(device, values, time, time.toISOString()),
      seen: { accountId: device.accountId, deviceId: device.id, dateTime: time, rssi: null, snr: null },
    };
  }

  private async log(
    topic: string,
    deviceUid: string | null,
    reason: LogReason,
    payload: Buffer,
    accountId?: number,
  ): Promise<IngestUnit> {
    const owner = accountId ?? (await this.directory.systemAccount());
    if (owner === undefined) return {};
    const entry: DataLogEntry = {
      accountId: owner,
      topic: topic.slice(0, 500),
      deviceUid,
      reason,
      payload: payload.subarray(0, PAYLOAD_LOG_LIMIT).toString('utf8').replaceAll('\u0000', ''),
    };
    return { logs: [entry] };
  }
}

function readingsOf(device: KnownDevice, values: DecodedValue[], dateTime: Date, frameKey: string): Reading[] {
  return values.map((v) => ({
    accountId: device.accountId,
    deviceId: device.id,
    templateId: v.templateId,
    subChannel: v.subChannel,
    channelCode: v.channelCode,
    value: v.value,
    status: v.status,
    dateTime,
    frameKey,
  }));
}

function parseJson(payload: Buffer): Json | undefined {
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseTime(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The gateway that heard the frame best: highest RSSI, then highest SNR. */
export function bestSignal(rxInfo: unknown): { rssi: number | null; snr: number | null } {
  let best: { rssi: number | null; snr: number | null } = { rssi: null, snr: null };
  if (!Array.isArray(rxInfo)) return best;
  for (const rx of rxInfo) {
    if (!isObject(rx) || typeof rx.rssi !== 'number') continue;
    const snr = typeof rx.snr === 'number' ? rx.snr : null;
    if (
      best.rssi === null ||
      rx.rssi > best.rssi ||
      (rx.rssi === best.rssi && (snr ?? -Infinity) > (best.snr ?? -Infinity))
    )
      best = { rssi: rx.rssi, snr };
  }
  return best;
}
