import { z } from 'zod';
/**
 * Lampyr's device configuration protocol (docs/device-config.md): the commands a controller that
 * keeps its own schedule understands, and the config report it answers with. One binary form for
 * LoRaWAN (fPort CONFIG_FPORT, at most 51 bytes) and one JSON form for Lampyr JSON devices, encoded
 * and decoded here for both sides: the server and the simulator.
 */

/** The LoRaWAN port of configuration commands and config reports. */
export const CONFIG_FPORT = 50;
/** The largest LoRaWAN payload every data rate carries (EU868 DR0–DR2). */
export const MAX_CONFIG_PAYLOAD = 51;
/** Switch points a deployed program holds: 14 header bytes + 12 × 3 = 50 bytes. */
export const MAX_PROGRAM_STEPS = 12;
/** Sun-anchored steps stay within six hours of the event. */
export const MAX_SUN_OFFSET = 360;

export const CONFIG_OPS = {
  'config-request': 0x01,
  'clear-device-data': 0x02,
  'reset-device-config': 0x03,
  deploy: 0x04,
  override: 0x05,
  'cancel-override': 0x06,
} as const;
export type ConfigOpName = keyof typeof CONFIG_OPS;
const OP_NAMES = Object.fromEntries(Object.entries(CONFIG_OPS).map(([name, code]) => [code, name])) as Record<
  number,
  ConfigOpName
>;
/** First byte of a config report: 0x80 plus the operation it answers (0x80 alone: the daily report). */
export const REPORT_FLAG = 0x80;

export type StepAnchor = 'fixed' | 'sunset' | 'sunrise';
const ANCHORS: readonly StepAnchor[] = ['fixed', 'sunset', 'sunrise'];

/**
 * One switch point of a night: at a local time of day (`fixed`, minutes after midnight 0–1439) or
 * at sunset/sunrise ± minutes (−360…+360), the lamp goes to `level` (0 = off, 1–100 = on, dimmed).
 */
export interface ProgramStep {
  anchor: StepAnchor;
  minutes: number;
  level: number;
}

/** What a controller runs by itself every night. */
export interface DeviceProgram {
  /** 1–65535; 0 is the factory program (on at sunset, off at sunrise). */
  version: number;
  /** The controller's place for its sun calculation; without it, the place it was provisioned with. */
  location?: { lat: number; lon: number };
  /** The local time's offset from UTC in minutes, a multiple of 15 (−720…+840): fixed steps are local. */
  utcOffsetMinutes: number;
  /** Bit 0 Monday … bit 6 Sunday: nights (by their evening) the program runs; other nights stay dark. */
  weekdays: number;
  steps: ProgramStep[];
}

export type ConfigCommand =
  | { op: 'config-request' }
  | { op: 'clear-device-data' }
  | { op: 'reset-device-config' }
  | { op: 'deploy'; program: DeviceProgram }
  | { op: 'override'; level: number; until: Date }
  | { op: 'cancel-override' };

/** What a controller states after every configuration command and once a day. */
export interface ConfigReport {
  /** The command answered, or undefined for the daily report. */
  answers?: ConfigOpName;
  /** Whether the command was carried out (false: refused, e.g. a program that does not decode). */
  ok: boolean;
  /** The version of the program it runs (0: the factory program). */
  version: number;
  /** The lamp now: 0 off, 1–100 on at that level. */
  level: number;
  override: { level: number; until: Date } | null;
  /** The controller's clock. */
  clock: Date;
}

/** A program or command that cannot be encoded: `field` names what is wrong, `message` says why (English). */
export class ConfigEncodingError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigEncodingError';
  }
}

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Checks a program against what the wire can carry; throws ConfigEncodingError with the field. */
export function checkProgram(program: DeviceProgram): void {
  if (!isInt(program.version, 1, 0xffff)) throw new ConfigEncodingError('version', 'version must be 1–65535');
  if (program.steps.length > MAX_PROGRAM_STEPS)
    throw new ConfigEncodingError(
      'steps',
      `a deployed program holds at most ${MAX_PROGRAM_STEPS} switch points (${program.steps.length} given): it must fit one ${MAX_CONFIG_PAYLOAD}-byte LoRaWAN payload`,
    );
  if (!isInt(program.weekdays, 0, 0x7f)) throw new ConfigEncodingError('weekdays', 'weekdays is a 7-bit mask');
  if (!isInt(program.utcOffsetMinutes, -720, 840) || program.utcOffsetMinutes % 15)
    throw new ConfigEncodingError('utcOffsetMinutes', 'the UTC offset is a multiple of 15 minutes, −720…+840');
  if (program.location) {
    const { lat, lon } = program.location;
    if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180))
      throw new ConfigEncodingError('location', 'latitude −90…90 and longitude −180…180');
  }
  program.steps.forEach((step, i) => {
    if (!ANCHORS.includes(step.anchor)) throw new ConfigEncodingError(`steps.${i}.anchor`, 'fixed, sunset or sunrise');
    const [min, max] = step.anchor === 'fixed' ? [0, 1439] : [-MAX_SUN_OFFSET, MAX_SUN_OFFSET];
    if (!isInt(step.minutes, min, max))
      throw new ConfigEncodingError(`steps.${i}.minutes`, `minutes must be ${min}…${max} for ${step.anchor}`);
    if (!isInt(step.level, 0, 100)) throw new ConfigEncodingError(`steps.${i}.level`, 'level must be 0–100');
  });
}

const epochMinutes = (d: Date) => Math.floor(d.getTime() / 60_000);

/** The LoRaWAN bytes of a command (fPort CONFIG_FPORT). Throws ConfigEncodingError when it cannot fit. */
export function encodeConfigCommand(command: ConfigCommand): Uint8Array {
  const code = CONFIG_OPS[command.op];
  if (command.op === 'override') {
    if (!isInt(command.level, 0, 100)) throw new ConfigEncodingError('level', 'level must be 0–100');
    const until = epochMinutes(command.until);
    if (!isInt(until, 0, 0xffffffff)) throw new ConfigEncodingError('until', 'until must be a valid time');
    const bytes = new Uint8Array(6);
    const view = new DataView(bytes.buffer);
    bytes[0] = code;
    bytes[1] = command.level;
    view.setUint32(2, until);
    return bytes;
  }
  if (command.op !== 'deploy') return Uint8Array.of(code);
  const program = command.program;
  checkProgram(program);
  const hasLocation = Boolean(program.location);
  const size = 6 + (hasLocation ? 8 : 0) + 3 * program.steps.length;
  if (size > MAX_CONFIG_PAYLOAD)
    throw new ConfigEncodingError(
      'steps',
      `the program takes ${size} bytes; one payload carries ${MAX_CONFIG_PAYLOAD}`,
    );
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes[0] = code;
  view.setUint16(1, program.version);
  bytes[3] = (hasLocation ? 0x80 : 0) | program.weekdays;
  view.setInt8(4, program.utcOffsetMinutes / 15);
  bytes[5] = program.steps.length;
  let offset = 6;
  if (program.location) {
    view.setInt32(6, Math.round(program.location.lat * 1e5));
    view.setInt32(10, Math.round(program.location.lon * 1e5));
    offset = 14;
  }
  for (const step of program.steps) {
    const field = step.anchor === 'fixed' ? step.minutes : step.minutes + MAX_SUN_OFFSET;
    const word = (ANCHORS.indexOf(step.anchor) << 22) | (field << 11) | (step.level << 4);
    bytes[offset] = word >>> 16;
    bytes[offset + 1] = (word >>> 8) & 0xff;
    bytes[offset + 2] = word & 0xff;
    offset += 3;
  }
  return bytes;
}

/** A command from its LoRaWAN bytes; undefined when they are not a valid command. */
export function decodeConfigCommand(bytes: Uint8Array): ConfigCommand | undefined {
  const op = OP_NAMES[bytes[0] ?? -1];
  if (!op) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (op === 'override') {
    if (bytes.length !== 6 || (bytes[1] as number) > 100) return undefined;
    return { op, level: bytes[1] as number, until: new Date(view.getUint32(2) * 60_000) };
  }
  if (op !== 'deploy') return bytes.length === 1 ? ({ op } as ConfigCommand) : undefined;
  if (bytes.length < 6) return undefined;
  const hasLocation = ((bytes[3] as number) & 0x80) !== 0;
  const count = bytes[5] as number;
  const start = hasLocation ? 14 : 6;
  if (bytes.length !== start + 3 * count) return undefined;
  const steps: ProgramStep[] = [];
  for (let i = 0; i < count; i++) {
    const o = start + 3 * i;
    const word = ((bytes[o] as number) << 16) | ((bytes[o + 1] as number) << 8) | (bytes[o + 2] as number);
    const anchor = ANCHORS[word >>> 22];
    if (!anchor) return undefined;
    const field = (word >>> 11) & 0x7ff;
    steps.push({
      anchor,
      minutes: anchor === 'fixed' ? field : field - MAX_SUN_OFFSET,
      level: (word >>> 4) & 0x7f,
    });
  }
  const program: DeviceProgram = {
    version: view.getUint16(1),
    utcOffsetMinutes: view.getInt8(4) * 15,
    weekdays: (bytes[3] as number) & 0x7f,
    steps,
    ...(hasLocation ? { location: { lat: view.getInt32(6) / 1e5, lon: view.getInt32(10) / 1e5 } } : {}),
  };
  try {
    checkProgram(program);
  } catch {
    return undefined;
  }
  return { op, program };
}

/** A config report's LoRaWAN bytes (14): op|0x80, ok, version, level, override level (0xff none), until, clock. */
export function encodeConfigReport(report: ConfigReport): Uint8Array {
  const bytes = new Uint8Array(14);
  const view = new DataView(bytes.buffer);
  bytes[0] = REPORT_FLAG | (report.answers ? CONFIG_OPS[report.answers] : 0);
  bytes[1] = report.ok ? 0 : 1;
  view.setUint16(2, report.version);
  bytes[4] = Math.max(0, Math.min(100, Math.round(report.level)));
  bytes[5] = report.override ? report.override.level : 0xff;
  view.setUint32(6, report.override ? epochMinutes(report.override.until) : 0);
  view.setUint32(10, Math.floor(report.clock.getTime() / 1000));
  return bytes;
}

/** A config report from its bytes; undefined when they are not one. */
export function decodeConfigReport(bytes: Uint8Array): ConfigReport | undefined {
  if (bytes.length !== 14 || ((bytes[0] as number) & REPORT_FLAG) === 0) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const opCode = (bytes[0] as number) & 0x7f;
  const answers = opCode ? OP_NAMES[opCode] : undefined;
  if (opCode && !answers) return undefined;
  const level = bytes[4] as number;
  const overrideLevel = bytes[5] as number;
  if (level > 100 || (overrideLevel > 100 && overrideLevel !== 0xff)) return undefined;
  return {
    ...(answers ? { answers } : {}),
    ok: bytes[1] === 0,
    version: view.getUint16(2),
    level,
    override: overrideLevel === 0xff ? null : { level: overrideLevel, until: new Date(view.getUint32(6) * 60_000) },
    clock: new Date(view.getUint32(10) * 1000),
  };
}

// ——— Lampyr JSON (IP devices): `lampyr/{uid}/down` {"id", "config": …}; `lampyr/{uid}/up` {"config": …} ———

export type ConfigCommandJson =
  | { op: Exclude<ConfigOpName, 'deploy' | 'override'> }
  | { op: 'deploy'; program: DeviceProgram }
  | { op: 'override'; level: number; until: string };

export interface ConfigReportJson {
  answers?: ConfigOpName;
  ok: boolean;
  version: number;
  level: number;
  override: { level: number; until: string } | null;
  clock: string;
}

export function configCommandToJson(command: ConfigCommand): ConfigCommandJson {
  if (command.op === 'deploy') checkProgram(command.program);
  if (command.op === 'override') return { op: 'override', level: command.level, until: command.until.toISOString() };
  return command as ConfigCommandJson;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const dateOf = (v: unknown): Date | undefined => {
  if (typeof v !== 'string') return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d;
};

export function configCommandFromJson(value: unknown): ConfigCommand | undefined {
  if (!isObj(value) || typeof value.op !== 'string' || !(value.op in CONFIG_OPS)) return undefined;
  const op = value.op as ConfigOpName;
  if (op === 'override') {
    const until = dateOf(value.until);
    return isInt(value.level, 0, 100) && until ? { op, level: value.level, until } : undefined;
  }
  if (op === 'deploy') {
    const p = value.program;
    if (!isObj(p) || !Array.isArray(p.steps)) return undefined;
    const program = {
      version: p.version,
      utcOffsetMinutes: p.utcOffsetMinutes,
      weekdays: p.weekdays,
      steps: p.steps.map((s: unknown) =>
        isObj(s) ? { anchor: s.anchor, minutes: s.minutes, level: s.level } : { anchor: '', minutes: 0, level: 0 },
      ),
      ...(isObj(p.location) ? { location: { lat: p.location.lat, lon: p.location.lon } } : {}),
    } as DeviceProgram;
    try {
      checkProgram(program);
    } catch {
      return undefined;
    }
    return { op, program };
  }
  return { op } as ConfigCommand;
}

export function configReportToJson(report: ConfigReport): ConfigReportJson {
  return {
    ...(report.answers ? { answers: report.answers } : {}),
    ok: report.ok,
    version: report.version,
    level: report.level,
    override: report.override ? { level: report.override.level, until: report.override.until.toISOString() } : null,
    clock: report.clock.toISOString(),
  };
}

export function configReportFromJson(value: unknown): ConfigReport | undefined {
  if (!isObj(value)) return undefined;
  const clock = dateOf(value.clock);
  if (!clock || !isInt(value.version, 0, 0xffff) || !isInt(value.level, 0, 100) || typeof value.ok !== 'boolean')
    return undefined;
  const answers = typeof value.answers === 'string' && value.answers in CONFIG_OPS ? value.answers : undefined;
  let override: ConfigReport['override'] = null;
  if (isObj(value.override)) {
    const until = dateOf(value.override.until);
    if (!until || !isInt(value.override.level, 0, 100)) return undefined;
    override = { level: value.override.level, until };
  } else if (value.override !== null && value.override !== undefined) return undefined;
  return {
    ...(answers ? { answers: answers as ConfigOpName } : {}),
    ok: value.ok,
    version: value.version,
    level: value.level,
    override,
    clock,
  };
}

/**
 * `POST {COMMAND_URL}/overrides`: hold lights at a level until a time — the devices listed, a
 * street (in a region or any), or a region — with the operator's reason.
 */
export const overrideRequestSchema = z
  .object({
    target: z.union([
      z.object({ deviceIds: z.array(z.number().int().positive()).min(1).max(500) }).strict(),
      z
        .object({ street: z.string().trim().min(1).max(200), regionId: z.number().int().positive().optional() })
        .strict(),
      z.object({ regionId: z.number().int().positive() }).strict(),
    ]),
    level: z.number().int().min(0).max(100),
    until: z.iso.datetime({ offset: true }),
    reason: z.string().trim().min(1).max(500),
  })
  .strict();
export type OverrideRequest = z.input<typeof overrideRequestSchema>;
