import { CONFIG_FPORT, configReportFromJson, decodeConfigReport, normalizeEui64 } from '@lampyr/contract';
import { type DecodedValue, decodePayload, mapNamedValues } from './decode-payload.ts';
import type { DeviceDirectory, KnownDevice } from './device-directory.ts';
import {
  cleanLine,
  deviceTime,
  frameCounter,
  isServableTopic,
  MAX_DETAIL_LENGTH,
  MAX_DEVICE_ID_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_PAYLOAD_BYTES,
  MAX_TOPIC_LENGTH,
  payloadDigest,
  payloadText,
  textOrNull,
} from './device-input.ts';
import { type RefusalReason, refusalOf } from './device-trust.ts';
import { parseDownlinkId } from './downlink-ids.ts';
import { parseGatewayStats } from './gateway-stats.ts';
import type { DataLogEntry, DeviceHealth, FrameQuery, IngestUnit, Reading, WriteAnswer } from './ingest-units.ts';
import { isTransientError } from './store-errors.ts';

/**
 * What the ingest subscribes to: ChirpStack v4's integration events, its gateways' stats (the
 * Gateway Bridge's or MQTT Forwarder's topic, under a region prefix such as `eu868/` or none) and
 * Lampyr's JSON.
 */
export const INGEST_TOPICS = [
  'application/+/device/+/event/+',
  '+/gateway/+/event/stats',
  'gateway/+/event/stats',
  'lampyr/+/up',
  'lampyr/+/ack',
];

/**
 * Reasons a message lands in the data log (translated under `ingest.reasons` in the console).
 * `chirpstack_log` is ChirpStack's own `event/log`, kept for the operator; `time_replaced` notes a
 * device time outside the window around the receive time (its values are stored at the receive
 * time); `store_failed` is the batch writer's, for a message the database refused.
 */
export type LogReason =
  | 'unknown_device'
  | 'unknown_topic'
  | 'bad_topic'
  | 'bad_json'
  | 'bad_message'
  | 'bad_fcnt'
  | 'payload_too_large'
  | 'payload_too_short'
  | 'bad_template'
  | 'formula_error'
  | 'no_read_channels'
  | 'no_known_channels'
  | 'chirpstack_log'
  | 'time_replaced'
  | 'store_failed'
  | 'bad_config_report'
  | 'unknown_gateway'
  | 'gateway_account_inactive'
  | 'bad_gateway_stats'
  | RefusalReason;

/** How a message reached the ingest. */
export interface Delivery {
  /**
   * When it arrived; for one this process had received before and not acknowledged (delivered again
   * after a reconnect), when it first arrived, so an uplink without a time of its own keeps its key.
   */
  receivedAt?: Date;
  /**
   * The broker says it delivered the message before, and this process has no record of that (a
   * worker that restarted): its values may be stored already.
   */
  redelivered?: boolean;
}

export interface UplinkHandlerOptions {
  /** When a frame was stored, if it was (BatchWriter.storedFrameTime); for messages delivered again. */
  storedFrameTime?: (frame: FrameQuery) => Promise<Date | undefined>;
}

/** How far back a message delivered again looks for its stored copy (a worker's restart, at most). */
const REDELIVERY_LOOKBACK_MS = 3600_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One message as it is being handled: what the data log would say about it. */
interface Message {
  /** The topic as it may be shown and stored (cleaned and bounded). */
  topic: string;
  deviceUid: string | null;
  payload: Buffer;
  receivedAt: Date;
  redelivered: boolean;
  /** The account of its device, or of its ChirpStack application, once known. */
  accountId?: number;
  /** The payload as text, once read. */
  text?: string;
}

/**
 * What a device sent in a field, for a data log detail: the field's name and its value (strings
 * cleaned and cut, with their length; anything else as short JSON). Details hold data, not prose:
 * the reason says what is wrong, in the reader's language.
 */
function shown(field: string, value: unknown, max = 40): string {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  const cut = cleanLine(text, max);
  return `${field}: ${text.length > max ? `${cut}… (${text.length})` : cut}`;
}

/** Turns one MQTT message into what must be stored for it; never throws on bad input. */
export class UplinkHandler {
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly options: UplinkHandlerOptions = {},
  ) {}

  async handle(topic: string, payload: Buffer, delivery: Delivery = {}): Promise<IngestUnit> {
    const m: Message = {
      topic,
      deviceUid: null,
      payload,
      receivedAt: delivery.receivedAt ?? new Date(),
      redelivered: delivery.redelivered ?? false,
    };
    // A control character or an endless topic is never looked up: a NUL makes PostgreSQL refuse the query.
    if (!isServableTopic(topic)) {
      m.topic = cleanLine(topic, MAX_TOPIC_LENGTH);
      return this.log(m, 'bad_topic');
    }
    let unit: IngestUnit;
    try {
      unit = await this.route(m);
    } catch (error) {
      // The database being away is worth waiting for (the message is delivered again); anything
      // else about this message will not get better.
      if (isTransientError(error)) throw error;
      unit = await this.log(m, 'bad_message');
    }
    unit.source = {
      accountId: m.accountId,
      topic: m.topic,
      deviceUid: m.deviceUid,
      payload: m.text ?? unit.logs?.[0]?.payload ?? '',
    };
    return unit;
  }

  private route(m: Message): Promise<IngestUnit> {
    const parts = m.topic.split('/');
    if (parts[0] === 'application' && parts[2] === 'device' && parts[4] === 'event' && parts.length === 6) {
      m.deviceUid = cleanLine((parts[3] as string).toLowerCase(), MAX_DEVICE_ID_LENGTH);
      return this.chirpstack(m, parts[1] as string, parts[5] as string);
    }
    // [<region>/]gateway/<gatewayId>/event/stats
    const g = parts.length - 4;
    if ((g === 0 || g === 1) && parts[g] === 'gateway' && parts[g + 2] === 'event' && parts[g + 3] === 'stats') {
      m.deviceUid = cleanLine((parts[g + 1] as string).toLowerCase(), MAX_DEVICE_ID_LENGTH);
      return this.gatewayStats(m);
    }
    if (parts[0] === 'lampyr' && parts.length === 3) {
      m.deviceUid = cleanLine(parts[1] as string, MAX_DEVICE_ID_LENGTH);
      return this.lampyr(m, parts[2] as string);
    }
    return this.log(m, 'unknown_topic');
  }

  private async chirpstack(m: Message, applicationId: string, event: string): Promise<IngestUnit> {
    const device = await this.directory.byDevEui(m.deviceUid as string);
    m.accountId = device?.accountId ?? (await this.directory.accountOfApplication(applicationId));
    if (m.payload.length > MAX_PAYLOAD_BYTES) return this.tooLarge(m);
    if (!device) return this.log(m, 'unknown_device');
    const refusal = await refusalOf(this.directory, device, applicationId);
    if (refusal) {
      m.accountId = refusal.accountId;
      return this.log(m, refusal.reason);
    }
    const message = parseJson(m);
    if (!message) return this.log(m, 'bad_json');
    // The network server's time (when the gateways heard the frame), within the window.
    const stated = deviceTime(message.time, m.receivedAt);
    const notes =
      stated.kind === 'replaced' || stated.kind === 'invalid'
        ? [this.note(m, 'time_replaced', 'time', message.time)]
        : [];
    const time = stated.kind === 'trusted' ? stated.time : m.receivedAt;
    let unit: IngestUnit;
    switch (event) {
      case 'up':
        unit = await this.chirpstackUp(m, device, message, time, stated.kind === 'trusted');
        break;
      case 'status':
        unit = {
          seen: {
            accountId: device.accountId,
            deviceId: device.id,
            dateTime: time,
            rssi: null,
            snr: null,
            health: healthOf(message),
          },
        };
        break;
      case 'join':
        unit = { seen: { accountId: device.accountId, deviceId: device.id, dateTime: time, rssi: null, snr: null } };
        break;
      case 'ack': {
        // Settles only a command sent to this very device (the topic's, checked above).
        const downlinkId = parseDownlinkId(message.queueItemId);
        if (downlinkId === undefined) return {};
        const target = { downlinkId, deviceId: device.id, answeredAt: time };
        const answer: WriteAnswer = message.acknowledged
          ? { ...target, status: 'acknowledged', message: null }
          : { ...target, status: 'failed', message: 'not_acknowledged' };
        unit = { answers: [answer] };
        break;
      }
      case 'txack': {
        // An unconfirmed downlink gets no ack: the gateway's transmission is all there is to know.
        const downlinkId = parseDownlinkId(message.queueItemId);
        if (downlinkId === undefined) return {};
        unit = {
          answers: [
            {
              downlinkId,
              deviceId: device.id,
              answeredAt: time,
              status: 'acknowledged',
              message: null,
              unconfirmedOnly: true,
            },
          ],
        };
        break;
      }
      case 'log': {
        const level = textOrNull(message.level, 20);
        const code = textOrNull(message.code, 60);
        const description = textOrNull(message.description, MAX_DETAIL_LENGTH);
        const detail = [level, code].filter(Boolean).join(' ') + (description ? `: ${description}` : '');
        return this.log(m, 'chirpstack_log', detail || undefined);
      }
      default:
        // Other events change nothing stored.
        return {};
    }
    if (notes.length && !unit.logs?.length) unit.logs = notes;
    return unit;
  }

  private async chirpstackUp(
    m: Message,
    device: KnownDevice,
    message: Json,
    time: Date,
    stamped: boolean,
  ): Promise<IngestUnit> {
    const fCnt = frameCounter(message.fCnt);
    if (fCnt === undefined) return this.log(m, 'bad_fcnt', shown('fCnt', message.fCnt));
    if (message.fPort === CONFIG_FPORT) {
      // A config report: the controller states its schedule version, override and lamp.
      const report =
        typeof message.data === 'string' ? decodeConfigReport(Buffer.from(message.data, 'base64')) : undefined;
      if (!report) return this.log(m, 'bad_config_report');
      const best = bestSignal(message.rxInfo);
      return {
        seen: { accountId: device.accountId, deviceId: device.id, dateTime: time, rssi: best.rssi, snr: best.snr },
        configReports: [{ accountId: device.accountId, deviceId: device.id, report, receivedAt: m.receivedAt }],
      };
    }
    const frameKey = `fcnt:${fCnt}`;
    let values: DecodedValue[] | undefined;
    // The network server's codec output wins when it names any of our channels.
    if (isObject(message.object)) {
      const named = mapNamedValues(device.readChannels, message.object);
      if (named.length) values = named;
    }
    if (!values) {
      if (typeof message.data !== 'string') return this.log(m, 'bad_message', 'data');
      const decoded = decodePayload(device.readChannels, Buffer.from(message.data, 'base64'));
      if (!decoded.ok) return this.log(m, decoded.reason);
      values = decoded.values;
    }
    const at = stamped ? time : await this.frameTime(m, device, values, frameKey);
    const best = bestSignal(message.rxInfo);
    return {
      readings: readingsOf(device, values, at, frameKey),
      seen: {
        accountId: device.accountId,
        deviceId: device.id,
        dateTime: at,
        rssi: best.rssi,
        snr: best.snr,
        gateway: best.gateway,
        gateways: best.gateways,
      },
    };
  }

  /**
   * A gateway's stats: a registered gateway of an active account is seen (online, last seen at the
   * gateway's time when believable, else the receive time) and its counters kept. The topic names
   * the gateway; a payload naming another is refused.
   */
  private async gatewayStats(m: Message): Promise<IngestUnit> {
    const eui = m.deviceUid as string;
    const gateway = await this.directory.gatewayByEui(eui);
    m.accountId = gateway?.accountId;
    if (m.payload.length > MAX_PAYLOAD_BYTES) return this.tooLarge(m);
    if (!gateway) return this.log(m, 'unknown_gateway');
    if (!gateway.accountActive) return this.log(m, 'gateway_account_inactive');
    const parsed = parseGatewayStats(m.payload);
    if (!parsed.ok) return this.log(m, 'bad_gateway_stats', parsed.field);
    const { gatewayId, time, ...counters } = parsed.stats;
    if (gatewayId !== undefined && normalizeEui64(gatewayId) !== normalizeEui64(eui))
      return this.log(m, 'bad_gateway_stats', shown('gatewayId', gatewayId));
    const stated = deviceTime(time, m.receivedAt);
    const notes =
      stated.kind === 'replaced' || stated.kind === 'invalid' ? [this.note(m, 'time_replaced', 'time', time)] : [];
    return {
      gatewayStats: [
        {
          gatewayId: gateway.id,
          accountId: gateway.accountId,
          at: stated.kind === 'trusted' ? stated.time : m.receivedAt,
          ...counters,
        },
      ],
      ...(notes.length ? { logs: notes } : {}),
    };
  }

  private async lampyr(m: Message, kind: string): Promise<IngestUnit> {
    const device = await this.directory.byUid(m.deviceUid as string);
    m.accountId = device?.accountId;
    if (m.payload.length > MAX_PAYLOAD_BYTES) return this.tooLarge(m);
    if (!device) return this.log(m, 'unknown_device');
    const refusal = await refusalOf(this.directory, device);
    if (refusal) {
      m.accountId = refusal.accountId;
      return this.log(m, refusal.reason);
    }
    const message = parseJson(m);
    if (!message) return this.log(m, 'bad_json');
    if (kind === 'ack') {
      // Settles only a command sent to the device whose ack topic this is.
      const downlinkId = parseDownlinkId(message.id);
      if (downlinkId === undefined) return this.log(m, 'bad_message', shown('id', message.id));
      const ok = message.ok === true;
      const text = textOrNull(message.message, MAX_MESSAGE_LENGTH);
      const status = ok ? 'acknowledged' : 'failed';
      return { answers: [{ downlinkId, deviceId: device.id, status, message: text, answeredAt: m.receivedAt }] };
    }
    if (kind !== 'up') return this.log(m, 'unknown_topic');
    if (message.config !== undefined) {
      const report = configReportFromJson(message.config);
      if (!report) return this.log(m, 'bad_config_report');
      return {
        seen: { accountId: device.accountId, deviceId: device.id, dateTime: m.receivedAt, rssi: null, snr: null },
        configReports: [{ accountId: device.accountId, deviceId: device.id, report, receivedAt: m.receivedAt }],
      };
    }
    if (!isObject(message.values)) return this.log(m, 'bad_message', 'values');
    const stated = deviceTime(message.ts, m.receivedAt);
    if (stated.kind === 'invalid') return this.log(m, 'bad_message', shown('ts', message.ts));
    const values = mapNamedValues(device.readChannels, message.values);
    if (!values.length) return this.log(m, 'no_known_channels');
    if (stated.kind === 'trusted') {
      return {
        readings: readingsOf(device, values, stated.time, stated.time.toISOString()),
        seen: { accountId: device.accountId, deviceId: device.id, dateTime: stated.time, rssi: null, snr: null },
      };
    }
    // No time of the device's: the payload names the frame, the receive time dates it.
    const frameKey = payloadDigest(m.payload);
    const at = await this.frameTime(m, device, values, frameKey);
    return {
      readings: readingsOf(device, values, at, frameKey),
      seen: { accountId: device.accountId, deviceId: device.id, dateTime: at, rssi: null, snr: null },
      ...(stated.kind === 'replaced' ? { logs: [this.note(m, 'time_replaced', 'ts', message.ts)] } : {}),
    };
  }

  /**
   * The time of a frame dated by its arrival. A message the broker delivers again after this
   * process restarted would arrive later than the first time: if its frame is stored within the
   * look-back, it takes the stored time, so the readings' unique key drops the copy.
   */
  private async frameTime(m: Message, device: KnownDevice, values: DecodedValue[], frameKey: string): Promise<Date> {
    const first = values[0];
    if (!m.redelivered || !first || !this.options.storedFrameTime) return m.receivedAt;
    const stored = await this.options.storedFrameTime({
      deviceId: device.id,
      templateId: first.templateId,
      subChannel: first.subChannel,
      frameKey,
      since: new Date(m.receivedAt.getTime() - REDELIVERY_LOOKBACK_MS),
      until: m.receivedAt,
    });
    return stored ?? m.receivedAt;
  }

  private tooLarge(m: Message): Promise<IngestUnit> {
    return this.log(m, 'payload_too_large', `${m.payload.length} B > ${MAX_PAYLOAD_BYTES} B`);
  }

  /** A data log entry beside what is stored, for a message of a known device. */
  private note(m: Message, reason: LogReason, field: string, value: unknown): DataLogEntry {
    return {
      accountId: m.accountId as number,
      topic: m.topic,
      deviceUid: m.deviceUid,
      reason,
      payload: payloadText(m.payload),
      detail: shown(field, value),
    };
  }

  private async log(m: Message, reason: LogReason, detail?: string): Promise<IngestUnit> {
    const owner = m.accountId ?? (await this.directory.systemAccount());
    if (owner === undefined) return {};
    const entry: DataLogEntry = {
      accountId: owner,
      topic: m.topic,
      deviceUid: m.deviceUid,
      reason,
      payload: payloadText(m.payload),
      detail: detail === undefined ? null : cleanLine(detail, MAX_DETAIL_LENGTH),
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

/** The payload's JSON object, if it is one; its text stays on the message (for `store_failed`). */
function parseJson(m: Message): Json | undefined {
  try {
    m.text = m.payload.toString('utf8');
    const value: unknown = JSON.parse(m.text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The gateway that heard the frame best: highest RSSI, then highest SNR. */
/** A gateway's id as ChirpStack writes it: 16 hex digits (anything else is not kept). */
const GATEWAY_ID = /^[0-9a-f]{16}$/;
/** At most this many gateways are kept per frame (a frame is rarely heard by more). */
const MAX_GATEWAYS = 16;

export function bestSignal(rxInfo: unknown): {
  rssi: number | null;
  snr: number | null;
  gateway: string | null;
  gateways: string[];
} {
  let best: { rssi: number | null; snr: number | null; gateway: string | null } = {
    rssi: null,
    snr: null,
    gateway: null,
  };
  const gateways: string[] = [];
  if (!Array.isArray(rxInfo)) return { ...best, gateways };
  for (const rx of rxInfo) {
    if (!isObject(rx)) continue;
    const id = typeof rx.gatewayId === 'string' ? rx.gatewayId.toLowerCase() : null;
    const gateway = id && GATEWAY_ID.test(id) ? id : null;
    if (gateway && gateways.length < MAX_GATEWAYS && !gateways.includes(gateway)) gateways.push(gateway);
    if (typeof rx.rssi !== 'number') continue;
    const snr = typeof rx.snr === 'number' ? rx.snr : null;
    if (
      best.rssi === null ||
      rx.rssi > best.rssi ||
      (rx.rssi === best.rssi && (snr ?? -Infinity) > (best.snr ?? -Infinity))
    )
      best = { rssi: rx.rssi, snr, gateway };
  }
  return { ...best, gateways };
}

/** ChirpStack's status event: battery (unless unavailable or on external power), power source, margin. */
export function healthOf(message: Json): DeviceHealth {
  const number = (v: unknown, min: number, max: number) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : null;
  const externalPower = typeof message.externalPowerSource === 'boolean' ? message.externalPowerSource : null;
  const unavailable = message.batteryLevelUnavailable === true || externalPower === true;
  return {
    batteryLevel: unavailable ? null : number(message.batteryLevel, 0, 100),
    externalPower,
    linkMargin: number(message.margin, -128, 127),
  };
}
