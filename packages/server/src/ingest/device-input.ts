import { createHash } from 'node:crypto';

/**
 * Bounds for what devices say (ARCHITECTURE "Trust boundaries"): every string, number and time a
 * device or network server sends is checked here before it is used or stored, so no message can
 * make a query fail for everyone (a NUL is refused by PostgreSQL's text type) or fill the disk.
 */

/** Payloads above this are not parsed: kept in the data log as `payload_too_large`. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
/**
 * MQTT packets above this never reach Lampyr: the embedded broker drops a client that sends one, and
 * the ingest asks its broker (MQTT 5) not to send one. Between the two limits, a message is received
 * and logged, so the operator sees which device sends too much.
 */
export const MAX_PACKET_BYTES = 256 * 1024;
/** How much of a refused payload the data log keeps. */
export const LOGGED_PAYLOAD_BYTES = 8192;
/** A topic longer than this, or with a control character in it, is not one Lampyr serves. */
export const MAX_TOPIC_LENGTH = 256;
export const MAX_DEVICE_ID_LENGTH = 128;
export const MAX_MESSAGE_LENGTH = 500;
export const MAX_DETAIL_LENGTH = 500;
/** LoRaWAN frame counters are 32-bit. */
export const MAX_FRAME_COUNTER = 2 ** 32 - 1;
/** A device time older than this, or further ahead than the next, is replaced by the receive time. */
export const MAX_TIME_BEHIND_MS = 7 * 24 * 3600_000;
export const MAX_TIME_AHEAD_MS = 5 * 60_000;

/**
 * C0 and C1 controls, DEL, line and paragraph separators, the byte order mark and the bidirectional
 * overrides (which make a log line read differently from what it holds). `keepLines` keeps tab and
 * the line breaks, for payloads that are multi-line text.
 */
function isUnwanted(code: number, keepLines: boolean): boolean {
  if (code < 0x20) return !(keepLines && (code === 0x09 || code === 0x0a || code === 0x0d));
  if (code < 0x7f) return false;
  if (code <= 0x9f) return true;
  if (code < 0x200e) return false;
  return (
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/** Whether `value` holds nothing `clean` would change (lone surrogates included). */
function isClean(value: string, keepLines: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (isUnwanted(code, keepLines)) return false;
  }
  return true;
}

function clean(value: string, max: number, keepLines: boolean): string {
  let out = value;
  if (!isClean(value, keepLines)) {
    out = '';
    let from = 0;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdfff) {
        const next = value.charCodeAt(i + 1);
        if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
        else {
          // A lone surrogate (a JSON "\ud800") is not text: U+FFFD in its place.
          out += `${value.slice(from, i)}\ufffd`;
          from = i + 1;
        }
      } else if (isUnwanted(code, keepLines)) {
        out += value.slice(from, i);
        from = i + 1;
      }
    }
    out += value.slice(from);
  }
  if (out.length <= max) return out;
  // Never cut a surrogate pair in two.
  const code = out.charCodeAt(max - 1);
  return out.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** One line of device text: controls and direction overrides removed, at most `max` characters. */
export const cleanLine = (value: string, max: number) => clean(value, max, false);

/** Device text kept as text (a payload in the data log): as `cleanLine`, keeping tabs and line breaks. */
export const cleanText = (value: string, max: number) => clean(value, max, true);

/** A device string if it is one, cleaned and bounded; otherwise null. */
export const textOrNull = (value: unknown, max: number): string | null =>
  typeof value === 'string' ? cleanLine(value, max) : null;

/** A topic Lampyr may look devices up by: short, and free of controls a lookup or a log must not see. */
export const isServableTopic = (topic: string) => topic.length <= MAX_TOPIC_LENGTH && isClean(topic, false);

/** The start of a payload as data log text. */
export function payloadText(payload: Buffer): string {
  return cleanText(payload.subarray(0, LOGGED_PAYLOAD_BYTES).toString('utf8'), LOGGED_PAYLOAD_BYTES);
}

/**
 * A LoRaWAN frame counter: an integer 0 … 2³²−1, as a JSON number or a decimal string. Absent is 0:
 * ChirpStack's JSON (the Protocol Buffers mapping) leaves out fields that hold their default.
 */
export function frameCounter(value: unknown): number | undefined {
  if (value === undefined) return 0;
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.length <= 10 && /^\d+$/.test(value)) n = Number(value);
  else return undefined;
  return Number.isInteger(n) && n >= 0 && n <= MAX_FRAME_COUNTER ? n : undefined;
}

export type DeviceTime =
  /** No time given: the receive time stands. */
  | { kind: 'absent' }
  /** Not a time at all. */
  | { kind: 'invalid' }
  | { kind: 'trusted'; time: Date }
  /** A time outside the window around the receive time: the receive time stands, and this is noted. */
  | { kind: 'replaced'; given: string };

/**
 * A time a device (or its network server) states, judged against when Lampyr received it. A clock
 * a week behind or minutes ahead is wrong, and believing it would file readings where nobody looks
 * (or create a partition for the year 275760).
 */
export function deviceTime(value: unknown, receivedAt: Date): DeviceTime {
  if (value === undefined || value === null) return { kind: 'absent' };
  if (typeof value !== 'string' || value.length > 40) return { kind: 'invalid' };
  const at = Date.parse(value);
  if (Number.isNaN(at)) return { kind: 'invalid' };
  const received = receivedAt.getTime();
  if (at < received - MAX_TIME_BEHIND_MS || at > received + MAX_TIME_AHEAD_MS)
    return { kind: 'replaced', given: cleanLine(value, 40) };
  return { kind: 'trusted', time: new Date(at) };
}

/**
 * The identity of an uplink that carries no time and no frame counter: its payload's digest. With
 * the device and the receive time it names the frame, so the same delivery seen twice lands once.
 */
export const payloadDigest = (payload: Buffer) =>
  `h:${createHash('sha256').update(payload).digest('base64url').slice(0, 22)}`;
