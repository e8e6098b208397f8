import { describe, expect, it } from 'vitest';
import {
  CONFIG_OPS,
  type ConfigCommand,
  ConfigEncodingError,
  type ConfigReport,
  configCommandFromJson,
  configCommandToJson,
  configReportFromJson,
  configReportToJson,
  type DeviceProgram,
  decodeConfigCommand,
  decodeConfigReport,
  encodeConfigCommand,
  encodeConfigReport,
  MAX_CONFIG_PAYLOAD,
  MAX_PROGRAM_STEPS,
  nightSwitchPoints,
  programFromProfile,
  programLevelAt,
  type SunTimesOf,
} from '../src/index.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const program: DeviceProgram = {
  version: 513,
  location: { lat: 40.98765, lon: 29.02531 },
  utcOffsetMinutes: 180,
  weekdays: 0b0111111,
  steps: [
    { anchor: 'sunset', minutes: -15, level: 100 },
    { anchor: 'fixed', minutes: 0, level: 50 },
    { anchor: 'sunrise', minutes: 20, level: 0 },
  ],
};

const maximum: DeviceProgram = {
  ...program,
  steps: Array.from({ length: MAX_PROGRAM_STEPS }, (_, i) => ({
    anchor: (['fixed', 'sunset', 'sunrise'] as const)[i % 3] as 'fixed',
    minutes: i % 3 === 0 ? 1439 - i : i % 2 ? -360 : 360,
    level: 100 - i,
  })),
};

describe('device configuration protocol (LoRaWAN bytes)', () => {
  it('encodes each operation as documented in docs/device-config.md', () => {
    expect(hex(encodeConfigCommand({ op: 'config-request' }))).toBe('01');
    expect(hex(encodeConfigCommand({ op: 'clear-device-data' }))).toBe('02');
    expect(hex(encodeConfigCommand({ op: 'reset-device-config' }))).toBe('03');
    expect(hex(encodeConfigCommand({ op: 'cancel-override' }))).toBe('06');
    // Override 40 % until 2026-11-23T23:00Z = 29 924 580 epoch minutes (0x01c89ce4).
    const until = new Date('2026-11-23T23:00:00Z');
    expect(until.getTime() / 60_000).toBe(0x01c89ce4);
    expect(hex(encodeConfigCommand({ op: 'override', level: 40, until }))).toBe('052801c89ce4');
    // Deploy: version 0x0201, location flag + mask, +180 min = 12 quarter hours, 3 steps.
    const bytes = encodeConfigCommand({ op: 'deploy', program });
    expect(hex(bytes.slice(0, 6))).toBe('040201bf0c03');
    expect(hex(bytes.slice(6, 14))).toBe(
      `${(4098765).toString(16).padStart(8, '0')}${(2902531).toString(16).padStart(8, '0')}`,
    );
    // sunset −15 → anchor 1, field 345, level 100: (1<<22)|(345<<11)|(100<<4) = 0x4ace40.
    expect(hex(bytes.slice(14, 17))).toBe('4ace40');
    expect(bytes.length).toBe(23);
  });

  it('round-trips every operation', () => {
    const commands: ConfigCommand[] = [
      { op: 'config-request' },
      { op: 'clear-device-data' },
      { op: 'reset-device-config' },
      { op: 'deploy', program },
      { op: 'deploy', program: { ...program, location: undefined, utcOffsetMinutes: -300 } },
      { op: 'override', level: 0, until: new Date('2027-01-01T00:00:00Z') },
      { op: 'cancel-override' },
    ];
    for (const command of commands) {
      const decoded = decodeConfigCommand(encodeConfigCommand(command));
      const expected =
        command.op === 'deploy' && !command.program.location
          ? { op: 'deploy', program: { ...command.program, location: undefined } }
          : command;
      expect(JSON.parse(JSON.stringify(decoded))).toEqual(JSON.parse(JSON.stringify(expected)));
      // The same command as Lampyr JSON.
      const json = JSON.parse(JSON.stringify(configCommandToJson(command)));
      expect(JSON.parse(JSON.stringify(configCommandFromJson(json)))).toEqual(JSON.parse(JSON.stringify(expected)));
    }
    expect(Object.keys(CONFIG_OPS)).toHaveLength(6);
  });

  it('fits the largest program in one 51-byte payload, and refuses one step more with a clear error', () => {
    const bytes = encodeConfigCommand({ op: 'deploy', program: maximum });
    expect(bytes.length).toBe(50);
    expect(bytes.length).toBeLessThanOrEqual(MAX_CONFIG_PAYLOAD);
    expect(decodeConfigCommand(bytes)).toEqual({ op: 'deploy', program: maximum });
    const tooLong = { ...maximum, steps: [...maximum.steps, { anchor: 'fixed' as const, minutes: 0, level: 0 }] };
    let error: unknown;
    try {
      encodeConfigCommand({ op: 'deploy', program: tooLong });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigEncodingError);
    expect((error as ConfigEncodingError).field).toBe('steps');
    expect((error as Error).message).toMatch(/at most 12 switch points \(13 given\).*51-byte/);
    expect(() => configCommandToJson({ op: 'deploy', program: tooLong })).toThrow(ConfigEncodingError);
  });

  it('refuses values the wire cannot carry, naming the field', () => {
    const bad = (p: Partial<DeviceProgram>) => () =>
      encodeConfigCommand({ op: 'deploy', program: { ...program, ...p } });
    expect(bad({ version: 0 })).toThrow(/version/);
    expect(bad({ version: 70000 })).toThrow(/version/);
    expect(bad({ utcOffsetMinutes: 10 })).toThrow(/UTC offset/);
    expect(bad({ steps: [{ anchor: 'sunset', minutes: 361, level: 10 }] })).toThrow(/-?360/);
    expect(bad({ steps: [{ anchor: 'fixed', minutes: 1440, level: 10 }] })).toThrow(/1439/);
    expect(bad({ steps: [{ anchor: 'fixed', minutes: 10, level: 101 }] })).toThrow(/level/);
    expect(() => encodeConfigCommand({ op: 'override', level: 120, until: new Date() })).toThrow(/level/);
  });

  it('rejects malformed frames instead of guessing', () => {
    expect(decodeConfigCommand(Uint8Array.of())).toBeUndefined();
    expect(decodeConfigCommand(Uint8Array.of(0x07))).toBeUndefined();
    expect(decodeConfigCommand(Uint8Array.of(0x01, 0x00))).toBeUndefined();
    const deploy = encodeConfigCommand({ op: 'deploy', program });
    expect(decodeConfigCommand(deploy.slice(0, -1))).toBeUndefined();
    expect(decodeConfigCommand(Uint8Array.of(0x05, 101, 0, 0, 0, 1))).toBeUndefined();
    expect(configCommandFromJson({ op: 'deploy', program: { ...program, version: -1 } })).toBeUndefined();
    expect(configCommandFromJson({ op: 'explode' })).toBeUndefined();
  });

  it('round-trips config reports as bytes and as JSON', () => {
    const reports: ConfigReport[] = [
      {
        answers: 'deploy',
        ok: true,
        version: 513,
        level: 50,
        override: { level: 40, until: new Date('2026-11-23T23:00:00Z') },
        clock: new Date('2026-11-23T20:15:07Z'),
      },
      { ok: true, version: 0, level: 0, override: null, clock: new Date('2026-11-23T12:00:00Z') },
      { answers: 'override', ok: false, version: 7, level: 100, override: null, clock: new Date(0) },
    ];
    for (const report of reports) {
      const bytes = encodeConfigReport(report);
      expect(bytes.length).toBe(14);
      expect(decodeConfigReport(bytes)).toEqual(report);
      expect(configReportFromJson(JSON.parse(JSON.stringify(configReportToJson(report))))).toEqual(report);
    }
    expect(hex(encodeConfigReport(reports[0] as ConfigReport))).toBe(
      `84000201322801c89ce4${(Date.parse('2026-11-23T20:15:07Z') / 1000).toString(16)}`,
    );
    expect(decodeConfigReport(Uint8Array.of(0x04, 0, 0, 1, 0, 0xff, 0, 0, 0, 0, 0, 0, 0, 0))).toBeUndefined();
    expect(
      configReportFromJson({ ok: true, version: 1, level: 101, override: null, clock: '2026-01-01T00:00:00Z' }),
    ).toBeUndefined();
  });
});

// A fixed sun for tests: sunset 17:00Z, sunrise 04:00Z every day (Istanbul in late November, roughly).
const sun: SunTimesOf = ({ year, month, day }) => ({
  sunset: new Date(Date.UTC(year, month - 1, day, 14, 40)),
  sunrise: new Date(Date.UTC(year, month - 1, day, 4, 20)),
});

describe('programs from profiles, and how a controller runs them', () => {
  it('builds the compact rules from a profile and its timings', () => {
    const built = programFromProfile(
      { operation: 'dimming', dimLevel: 70, offDays: ['sunday'] },
      [{ on1Type: 'sunset', on1Offset: -10, on2Type: 'custom', on2Time: '00:30', on2Value: 40, off1Type: 'sunrise' }],
      { version: 3, utcOffsetMinutes: 180 },
    );
    expect(built).toEqual({
      version: 3,
      utcOffsetMinutes: 180,
      weekdays: 0b0111111,
      steps: [
        { anchor: 'sunset', minutes: -10, level: 70 },
        { anchor: 'sunrise', minutes: 0, level: 0 },
        { anchor: 'fixed', minutes: 30, level: 40 },
      ],
    });
    expect(() => programFromProfile({ operation: 'on' }, [], { version: 1, utcOffsetMinutes: 0 })).toThrow(
      /no on\/off timings/,
    );
    expect(() =>
      programFromProfile({ operation: 'on' }, [{ on1Type: 'custom' }], { version: 1, utcOffsetMinutes: 0 }),
    ).toThrow(/custom time/);
  });

  it('runs a night: dark by day, on at dusk, dimmed at midnight, off at dawn; dark on an off day', () => {
    // Monday 2026-11-23, Istanbul (UTC+3). 00:00 local is 21:00Z.
    const points = nightSwitchPoints(program, { year: 2026, month: 11, day: 23 }, sun);
    expect(points.map((p) => [p.at.toISOString(), p.level])).toEqual([
      ['2026-11-23T14:25:00.000Z', 100],
      ['2026-11-23T21:00:00.000Z', 50],
      ['2026-11-24T04:40:00.000Z', 0],
    ]);
    const at = (iso: string) => programLevelAt(program, new Date(iso), sun);
    expect(at('2026-11-23T12:00:00Z')).toBe(0);
    expect(at('2026-11-23T14:30:00Z')).toBe(100);
    expect(at('2026-11-23T22:00:00Z')).toBe(50);
    // Early morning belongs to the night before.
    expect(at('2026-11-24T02:00:00Z')).toBe(50);
    expect(at('2026-11-24T05:00:00Z')).toBe(0);
    // Sunday 2026-11-29 is outside the mask: that night stays dark.
    expect(at('2026-11-29T18:00:00Z')).toBe(0);
    expect(at('2026-11-28T18:00:00Z')).toBe(100);
  });
});
