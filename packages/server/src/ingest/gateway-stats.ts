/**
 * ChirpStack v4 gateway stats (`gw.GatewayStats`), as the ChirpStack Gateway Bridge or MQTT
 * Forwarder publishes them on `[<region prefix>/]gateway/<gatewayId>/event/stats` every stats
 * interval: in Protocol Buffers (their default marshaler) or in the protobuf JSON mapping
 * (`marshaler="json"`). Only what Lampyr keeps is read: the gateway id, the gateway's time and the
 * four packet counters of the interval. Everything is bounded: a malformed message is refused
 * whole, never half read.
 */

export interface ParsedGatewayStats {
  /** The gateway id the message states (16 lowercase hex digits), when it states one. */
  gatewayId?: string;
  /** The gateway's time (RFC 3339 in JSON; a Timestamp in protobuf), as given. */
  time?: string;
  rxPacketsReceived: number;
  rxPacketsReceivedOk: number;
  txPacketsReceived: number;
  txPacketsEmitted: number;
}

export type StatsParse = { ok: true; stats: ParsedGatewayStats } | { ok: false; field?: string };

/** Stored in integer columns: a counter of one stats interval never comes near it. */
const MAX_COUNTER = 2 ** 31 - 1;
const COUNTERS = ['rxPacketsReceived', 'rxPacketsReceivedOk', 'txPacketsReceived', 'txPacketsEmitted'] as const;

/** The payload as either encoding: JSON when it is a JSON object, else protobuf. */
export function parseGatewayStats(payload: Buffer): StatsParse {
  const first = payload.find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
  if (first === 0x7b /* { */) return fromJson(payload);
  return fromProtobuf(payload);
}

const counterOk = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_COUNTER;

function fromJson(payload: Buffer): StatsParse {
  let message: unknown;
  try {
    message = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return { ok: false };
  const m = message as Record<string, unknown>;
  const stats: ParsedGatewayStats = {
    rxPacketsReceived: 0,
    rxPacketsReceivedOk: 0,
    txPacketsReceived: 0,
    txPacketsEmitted: 0,
  };
  // proto3's JSON mapping leaves out zero counters: absent is 0.
  for (const key of COUNTERS) {
    const value = m[key];
    if (value === undefined) continue;
    if (!counterOk(value)) return { ok: false, field: key };
    stats[key] = value;
  }
  if (m.gatewayId !== undefined) {
    if (typeof m.gatewayId !== 'string') return { ok: false, field: 'gatewayId' };
    stats.gatewayId = m.gatewayId.toLowerCase();
  }
  if (m.time !== undefined) {
    if (typeof m.time !== 'string') return { ok: false, field: 'time' };
    stats.time = m.time;
  }
  return { ok: true, stats };
}

// ─── Protocol Buffers ─────────────────────────────────────────────────────────

/** gw.proto `GatewayStats` field numbers. */
const FIELD = {
  gatewayIdLegacy: 1,
  time: 2,
  rxPacketsReceived: 5,
  rxPacketsReceivedOk: 6,
  txPacketsReceived: 7,
  txPacketsEmitted: 8,
  gatewayId: 17,
} as const;

class Reader {
  pos = 0;
  constructor(
    readonly bytes: Buffer,
    readonly end = bytes.length,
  ) {}

  /** A varint as a number (exact to 2^53; larger ones only need to be skipped or refused). */
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('truncated');
      const byte = this.bytes[this.pos++] as number;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
    throw new Error('varint too long');
  }

  take(length: number): Buffer {
    if (length < 0 || this.pos + length > this.end) throw new Error('truncated');
    const out = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /** Skips a field of `wireType`; groups (3, 4) and unknown types refuse the message. */
  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.take(8);
    else if (wireType === 2) this.take(this.varint());
    else if (wireType === 5) this.take(4);
    else throw new Error(`wire type ${wireType}`);
  }
}

/** google.protobuf.Timestamp {seconds = 1, nanos = 2} as RFC 3339. */
function timestamp(bytes: Buffer): string | undefined {
  const r = new Reader(bytes);
  let seconds = 0;
  let nanos = 0;
  while (r.pos < r.end) {
    const key = r.varint();
    const [field, wireType] = [Math.floor(key / 8), key % 8];
    if (field === 1 && wireType === 0) seconds = r.varint();
    else if (field === 2 && wireType === 0) nanos = r.varint();
    else r.skip(wireType);
  }
  // A negative int64 is ten bytes of varint: beyond any gateway's clock, as is anything past 9999.
  const ms = seconds * 1000 + Math.floor(nanos / 1e6);
  if (!Number.isSafeInteger(ms) || ms > 253_402_300_799_000) return undefined;
  return new Date(ms).toISOString();
}

function fromProtobuf(payload: Buffer): StatsParse {
  const stats: ParsedGatewayStats = {
    rxPacketsReceived: 0,
    rxPacketsReceivedOk: 0,
    txPacketsReceived: 0,
    txPacketsEmitted: 0,
  };
  let legacyId: string | undefined;
  let fields = 0;
  try {
    const r = new Reader(payload);
    while (r.pos < r.end) {
      const key = r.varint();
      const [field, wireType] = [Math.floor(key / 8), key % 8];
      if (field === 0) return { ok: false };
      fields++;
      const counter = COUNTERS.find((c) => FIELD[c] === field);
      if (counter && wireType === 0) {
        const value = r.varint();
        if (!counterOk(value)) return { ok: false, field: counter };
        stats[counter] = value;
      } else if (field === FIELD.gatewayId && wireType === 2) {
        stats.gatewayId = r.take(r.varint()).toString('utf8').toLowerCase();
      } else if (field === FIELD.gatewayIdLegacy && wireType === 2) {
        legacyId = r.take(r.varint()).toString('hex');
      } else if (field === FIELD.time && wireType === 2) {
        stats.time = timestamp(r.take(r.varint()));
        if (stats.time === undefined) return { ok: false, field: 'time' };
      } else r.skip(wireType);
    }
  } catch {
    return { ok: false };
  }
  // An empty message is no stats (and an empty payload no protobuf worth a gateway's word).
  if (!fields) return { ok: false };
  stats.gatewayId ??= legacyId;
  return { ok: true, stats };
}
