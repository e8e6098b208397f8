import { compileFormula, type Formula, FormulaError, invertFormula } from './formula.ts';

/** The fields of a channel template that decoding and encoding use. */
export interface ChannelTemplate {
  id: number;
  channelCode: string;
  channelType: string;
  mqttPackageOrder: number;
  dataByteLength: number;
  dataBitLength: number | null;
  dataType: string;
  formula: string;
  variables: string;
  dataLimitMin: number;
  dataLimitMax: number;
  /** A sub-device channel's place inside its parent's package (sub-device channel templates only). */
  channelPackageOrder?: number | null;
}

/** A sub-device channel template: decoded inside the package its parent read channel carries. */
export interface SubChannelTemplate extends ChannelTemplate {
  parentTemplateId: number | null;
}

export type DataType = 'bool' | 'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32';
const DATA_TYPES = new Set<string>(['bool', 'uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'float32']);
const SIGNED = new Set<string>(['int8', 'int16', 'int32']);

/** A channel ready to decode: its field width and compiled formula, or why it cannot be used. */
export interface CompiledChannel {
  template: ChannelTemplate;
  /** Width in bits and whether it is a bit field (packed) or whole bytes. */
  bits: number;
  packed: boolean;
  formula: Formula;
  problem?: string;
  /**
   * Sub-device channels, in package order: this channel's bytes are then a sub-device's package,
   * decoded by them (DEVICES.md), and the channel yields their values rather than one of its own.
   */
  sub: CompiledChannel[];
  /** Its sub-channel number (a sub-device channel's package order); 0 for a device's own channel. */
  subChannel: number;
}

export type ReadingStatus = 'ok' | 'out_of_range';

export interface DecodedValue {
  /** The device's channel template (a sub-device channel's value is stored under its parent). */
  templateId: number;
  /** 0 for the channel itself; the sub-device channel's package order otherwise. */
  subChannel: number;
  channelCode: string;
  value: number;
  status: ReadingStatus;
}

/** Reasons an uplink is refused, as stored in the data log (translated under `ingest.reasons`). */
export type DecodeFailure = 'payload_too_short' | 'bad_template' | 'formula_error' | 'no_read_channels';

export type DecodeResult = { ok: true; values: DecodedValue[] } | { ok: false; reason: DecodeFailure; detail?: string };

const isRead = (t: ChannelTemplate) => t.channelType === 'read' || t.channelType === 'readwrite';
const isWrite = (t: ChannelTemplate) => t.channelType === 'write' || t.channelType === 'readwrite';

function compileOne(template: ChannelTemplate, subChannel = 0): CompiledChannel {
  const packed = (template.dataBitLength ?? 0) > 0;
  const bits = packed ? (template.dataBitLength as number) : template.dataByteLength * 8;
  let problem: string | undefined;
  if (!DATA_TYPES.has(template.dataType)) problem = `unknown data type ${template.dataType}`;
  else if (!Number.isInteger(bits) || bits < 1 || bits > 48) problem = `unusable width of ${bits} bits`;
  else if (template.dataType === 'float32' && bits !== 32) problem = 'float32 needs 4 bytes';
  let formula: Formula = (x) => x;
  try {
    formula = compileFormula(template.formula, template.variables);
  } catch (error) {
    problem ??= error instanceof FormulaError ? error.message : String(error);
  }
  return { template, bits, packed, formula, sub: [], subChannel, ...(problem ? { problem } : {}) };
}

/** Bits a run of fields takes from a byte boundary: whole-byte fields start on the next byte. */
function bitsOf(channels: readonly CompiledChannel[]): number {
  let bit = 0;
  for (const c of channels) {
    if (!c.packed) bit = Math.ceil(bit / 8) * 8;
    bit += c.bits;
  }
  return Math.ceil(bit / 8) * 8;
}

/**
 * The read channels of a model in payload order (`mqttPackageOrder`), compiled once per model. A
 * read channel that sub-device channel templates name as their parent carries a sub-device's
 * package: its sub-channels, in `channelPackageOrder`, decode inside it; the package is the
 * parent's `dataByteLength` bytes, or as long as the sub-channels need when that is 0.
 */
export function compileReadChannels(
  templates: readonly ChannelTemplate[],
  subTemplates: readonly SubChannelTemplate[] = [],
): CompiledChannel[] {
  return templates
    .filter(isRead)
    .sort((a, b) => a.mqttPackageOrder - b.mqttPackageOrder || a.id - b.id)
    .map((template) => {
      const channel = compileOne(template);
      const subs = subTemplates
        .filter((t) => t.parentTemplateId === template.id && isRead(t))
        .sort((a, b) => (a.channelPackageOrder ?? 0) - (b.channelPackageOrder ?? 0) || a.id - b.id);
      if (!subs.length) return channel;
      channel.sub = subs.map((t, k) => compileOne(t, t.channelPackageOrder ?? k + 1));
      const needed = bitsOf(channel.sub);
      const own = template.dataByteLength * 8;
      const numbers = new Set(channel.sub.map((c) => c.subChannel));
      if (
        numbers.size < channel.sub.length ||
        channel.sub.some((c) => !Number.isInteger(c.subChannel) || c.subChannel < 1)
      )
        channel.problem ??= 'sub-channels need distinct package orders from 1';
      else if (own > 0 && needed > own)
        channel.problem ??= `sub-channels need ${needed / 8} bytes, the package has ${own / 8}`;
      else {
        // The package replaces the channel's own field; its problems are the sub-channels'.
        delete channel.problem;
        const broken = channel.sub.find((c) => c.problem);
        if (broken) channel.problem = `${broken.template.channelCode}: ${broken.problem}`;
      }
      channel.packed = false;
      channel.bits = own > 0 ? own : needed;
      return channel;
    });
}

/** Reads fields most significant bit first; whole-byte fields start on the next byte boundary. */
class BitReader {
  private bit = 0;
  constructor(private readonly bytes: Uint8Array) {}

  alignToByte(): void {
    this.bit = Math.ceil(this.bit / 8) * 8;
  }

  remaining(): number {
    return this.bytes.length * 8 - this.bit;
  }

  position(): number {
    return this.bit;
  }

  seek(bit: number): void {
    this.bit = bit;
  }

  /** An unsigned integer of `width` bits (≤ 48, so it stays a safe integer). */
  read(width: number): number {
    let value = 0;
    for (let left = width; left > 0; ) {
      const byte = this.bytes[this.bit >> 3] as number;
      const offset = this.bit & 7;
      const take = Math.min(8 - offset, left);
      const chunk = (byte >> (8 - offset - take)) & ((1 << take) - 1);
      value = value * 2 ** take + chunk;
      this.bit += take;
      left -= take;
    }
    return value;
  }
}

function rawValue(dataType: string, unsigned: number, bits: number): number {
  if (dataType === 'bool') return unsigned === 0 ? 0 : 1;
  if (dataType === 'float32') {
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, unsigned);
    return view.getFloat32(0);
  }
  if (SIGNED.has(dataType) && unsigned >= 2 ** (bits - 1)) return unsigned - 2 ** bits;
  return unsigned;
}

const statusOf = (t: ChannelTemplate, value: number): ReadingStatus =>
  value < t.dataLimitMin || value > t.dataLimitMax ? 'out_of_range' : 'ok';

/**
 * Decodes a binary uplink with the model's read channels (DEVICES.md): big-endian fields at a
 * running offset, bit fields sharing bytes MSB first, the data type, the formula, the limits. A
 * payload shorter than the channels need is refused whole. Never throws.
 */
export function decodePayload(channels: readonly CompiledChannel[], payload: Uint8Array): DecodeResult {
  if (!channels.length) return { ok: false, reason: 'no_read_channels' };
  const broken = channels.find((c) => c.problem);
  if (broken) return { ok: false, reason: 'bad_template', detail: `${broken.template.channelCode}: ${broken.problem}` };
  const reader = new BitReader(payload);
  const values: DecodedValue[] = [];
  for (const channel of channels) {
    if (!channel.packed) reader.alignToByte();
    if (reader.remaining() < channel.bits) {
      return { ok: false, reason: 'payload_too_short', detail: `${payload.length} bytes` };
    }
    if (channel.sub.length) {
      // A sub-device's package: its fields, then any padding up to the package's length.
      const end = reader.position() + channel.bits;
      const inner = decodeFields(channel.sub, reader, payload, channel.template.id);
      if (!inner.ok) return inner;
      values.push(...inner.values);
      reader.seek(end);
      continue;
    }
    const one = decodeFields([channel], reader, payload, channel.template.id);
    if (!one.ok) return one;
    values.push(...one.values);
  }
  return { ok: true, values };
}

/** Reads plain fields in order and turns each into its value; `templateId` is where they are stored. */
function decodeFields(
  channels: readonly CompiledChannel[],
  reader: BitReader,
  payload: Uint8Array,
  templateId: number,
): DecodeResult {
  const values: DecodedValue[] = [];
  for (const channel of channels) {
    if (!channel.packed) reader.alignToByte();
    if (reader.remaining() < channel.bits) {
      return { ok: false, reason: 'payload_too_short', detail: `${payload.length} bytes` };
    }
    const raw = rawValue(channel.template.dataType, reader.read(channel.bits), channel.bits);
    let value: number;
    try {
      value = channel.formula(raw);
    } catch (error) {
      return {
        ok: false,
        reason: 'formula_error',
        detail: `${channel.template.channelCode}: ${(error as Error).message}`,
      };
    }
    if (!Number.isFinite(value)) {
      return { ok: false, reason: 'formula_error', detail: `${channel.template.channelCode}: not a finite number` };
    }
    // 2327 × 0.1 is 232.70000000000002 in binary floating point; 12 significant digits drop that noise.
    value = Number(value.toPrecision(12));
    values.push({
      templateId,
      subChannel: channel.subChannel,
      channelCode: channel.template.channelCode,
      value,
      status: statusOf(channel.template, value),
    });
  }
  return { ok: true, values };
}

const normalise = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Values already decoded by the network server (ChirpStack's `object`) or sent as JSON by an IP
 * device, matched to read channels by key: the exact channel code first, then the code ignoring
 * case and punctuation, then the longest channel code the key starts with (`powerW` → `power`,
 * `lampOn` → `lamp`). Numbers are engineering values (no formula); booleans are 1/0. Keys that match
 * no channel are ignored; each channel takes at most one key.
 */
export function mapNamedValues(channels: readonly CompiledChannel[], object: Record<string, unknown>): DecodedValue[] {
  const entries = Object.entries(object).flatMap(([key, raw]) => {
    const value = typeof raw === 'boolean' ? Number(raw) : raw;
    return typeof value === 'number' && Number.isFinite(value) ? [{ key, value }] : [];
  });
  const taken = new Map<CompiledChannel, number>();
  const used = new Set<string>();
  const passes: ((key: string, code: string) => boolean)[] = [
    (key, code) => key === code,
    (key, code) => normalise(key) === normalise(code),
    (key, code) => normalise(code).length > 0 && normalise(key).startsWith(normalise(code)),
  ];
  for (const matches of passes) {
    for (const { key, value } of entries) {
      if (used.has(key)) continue;
      const candidates = channels.filter((c) => !taken.has(c) && matches(key, c.template.channelCode));
      const best = candidates.sort((a, b) => b.template.channelCode.length - a.template.channelCode.length)[0];
      if (!best) continue;
      taken.set(best, value);
      used.add(key);
    }
  }
  return channels.flatMap((c) => {
    const value = taken.get(c);
    if (value === undefined) return [];
    return [
      {
        templateId: c.template.id,
        subChannel: 0,
        channelCode: c.template.channelCode,
        value,
        status: statusOf(c.template, value),
      },
    ];
  });
}

export type EncodeResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'not_writable' | 'cannot_encode'; detail?: string };

/**
 * A write to one channel as a downlink frame: the channel's `mqttPackageOrder` in one byte, then
 * the raw value in the channel's own width and type (the inverse of its formula), big-endian.
 * `AjI=` (02 32) is "channel 2 (dim) := 50".
 */
export function encodeWrite(template: ChannelTemplate, value: number): EncodeResult {
  if (!isWrite(template)) return { ok: false, reason: 'not_writable' };
  const channel = compileOne(template);
  if (channel.problem) return { ok: false, reason: 'cannot_encode', detail: channel.problem };
  if (!Number.isFinite(value)) return { ok: false, reason: 'cannot_encode', detail: 'not a number' };
  const inverse = invertFormula(channel.formula);
  if (!inverse) return { ok: false, reason: 'cannot_encode', detail: 'formula cannot be inverted' };
  const width = Math.ceil(channel.bits / 8) * 8;
  const bytes = new Uint8Array(1 + width / 8);
  bytes[0] = template.mqttPackageOrder & 0xff;
  const view = new DataView(bytes.buffer);
  const raw = inverse(value);
  if (template.dataType === 'float32') {
    view.setFloat32(1, raw);
    return { ok: true, bytes };
  }
  let integer = template.dataType === 'bool' ? (raw === 0 ? 0 : 1) : Math.round(raw);
  const signed = SIGNED.has(template.dataType);
  const min = signed ? -(2 ** (channel.bits - 1)) : 0;
  const max = signed ? 2 ** (channel.bits - 1) - 1 : 2 ** channel.bits - 1;
  if (integer < min || integer > max) {
    return { ok: false, reason: 'cannot_encode', detail: `${value} does not fit ${template.dataType}` };
  }
  if (integer < 0) integer += 2 ** width;
  for (let i = bytes.length - 1; i >= 1; i--) {
    bytes[i] = integer % 256;
    integer = Math.floor(integer / 256);
  }
  return { ok: true, bytes };
}
