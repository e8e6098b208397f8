import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChannelTemplate,
  compileReadChannels,
  decodePayload,
  encodeWrite,
  mapNamedValues,
  type SubChannelTemplate,
} from '../src/ingest/decode-payload.ts';
import { compileFormula, FormulaError, parseVariables } from '../src/ingest/formula.ts';

let nextId = 1;
const channel = (over: Partial<ChannelTemplate>): ChannelTemplate => ({
  id: nextId++,
  channelCode: `c${nextId}`,
  channelType: 'read',
  mqttPackageOrder: nextId,
  dataByteLength: 1,
  dataBitLength: null,
  dataType: 'uint8',
  formula: 'x',
  variables: '',
  dataLimitMin: -1e12,
  dataLimitMax: 1e12,
  ...over,
});
const bytes = (...values: number[]) => Uint8Array.from(values);
const decodeOne = (template: Partial<ChannelTemplate>, payload: Uint8Array) => {
  const result = decodePayload(compileReadChannels([channel(template)]), payload);
  if (!result.ok) throw new Error(result.reason);
  return result.values[0]?.value;
};

describe('decoding by channel templates', () => {
  it.each([
    ['bool', 1, [0x00], 0],
    ['bool', 1, [0x05], 1],
    ['uint8', 1, [0xff], 255],
    ['int8', 1, [0xff], -1],
    ['int8', 1, [0x80], -128],
    ['uint16', 2, [0x12, 0x34], 0x1234],
    ['int16', 2, [0xff, 0xfe], -2],
    ['int16', 2, [0x00, 0x24], 36],
    ['uint32', 4, [0xff, 0xff, 0xff, 0xff], 4_294_967_295],
    ['int32', 4, [0x80, 0x00, 0x00, 0x00], -2_147_483_648],
    ['int32', 4, [0x00, 0x00, 0x03, 0xe8], 1000],
    // Decoded values keep 12 significant digits.
    ['float32', 4, [0x40, 0x49, 0x0f, 0xdb], Number(Math.fround(Math.PI).toPrecision(12))],
    ['float32', 4, [0xc1, 0x20, 0x00, 0x00], -10],
  ])('%s in %i byte(s) %j is %d (big-endian)', (dataType, dataByteLength, payload, expected) => {
    expect(decodeOne({ dataType, dataByteLength }, bytes(...payload))).toBe(expected);
  });

  it('reads fields one after another at a running offset, in mqttPackageOrder', () => {
    const templates = [
      channel({ channelCode: 'b', dataType: 'uint16', dataByteLength: 2, mqttPackageOrder: 2 }),
      channel({ channelCode: 'a', dataType: 'uint8', dataByteLength: 1, mqttPackageOrder: 1 }),
      channel({ channelCode: 'c', dataType: 'int8', dataByteLength: 1, mqttPackageOrder: 3 }),
    ];
    const result = decodePayload(compileReadChannels(templates), bytes(7, 0x01, 0x00, 0xfe));
    expect(result).toMatchObject({ ok: true, values: [{ channelCode: 'a', value: 7 }, { value: 256 }, { value: -2 }] });
  });

  it('packs bit fields most significant bit first, sharing a byte; byte fields start on the next byte', () => {
    const templates = [
      channel({ channelCode: 'on', dataType: 'bool', dataBitLength: 1, mqttPackageOrder: 1 }),
      channel({ channelCode: 'mode', dataType: 'uint8', dataBitLength: 3, mqttPackageOrder: 2 }),
      channel({ channelCode: 'delta', dataType: 'int8', dataBitLength: 4, mqttPackageOrder: 3 }),
      channel({ channelCode: 'flag', dataType: 'bool', dataBitLength: 1, mqttPackageOrder: 4 }),
      channel({ channelCode: 'dim', dataType: 'uint8', dataByteLength: 1, mqttPackageOrder: 5 }),
    ];
    // 1 101 1110 | 1 0000000 | 0x32
    const result = decodePayload(compileReadChannels(templates), bytes(0b1101_1110, 0b1000_0000, 0x32));
    expect(result.ok && result.values.map((v) => [v.channelCode, v.value])).toEqual([
      ['on', 1],
      ['mode', 5],
      ['delta', -2],
      ['flag', 1],
      ['dim', 50],
    ]);
  });

  it('lets a bit field run across a byte boundary', () => {
    const templates = [
      channel({ dataType: 'uint8', dataBitLength: 4, mqttPackageOrder: 1 }),
      channel({ dataType: 'uint16', dataBitLength: 12, mqttPackageOrder: 2 }),
    ];
    const result = decodePayload(compileReadChannels(templates), bytes(0xab, 0xcd));
    expect(result.ok && result.values.map((v) => v.value)).toEqual([0xa, 0xbcd]);
  });

  it.each([
    ['x * k', 'k=0.1', 2305, 230.5],
    ['x * k + offset', 'k=0.5; offset=-40', 100, 10],
    ['x * k + offset', 'k=0.5,offset=-40', 100, 10],
    ['(x - 32) * 5 / 9', '', 212, 100],
    ['max(x, 10)', '', 3, 10],
    ['min(x, 10)', '', 30, 10],
    ['abs(x - 100)', '', 40, 60],
    ['round(x / 3)', '', 10, 3],
    ['x > 100', '', 150, 1],
    ['x ^ 2 % 7', '', 4, 2],
  ])('formula %s with %s maps %d to %d', (formula, variables, raw, expected) => {
    expect(
      decodeOne({ dataType: 'uint16', dataByteLength: 2, formula, variables }, bytes(raw >> 8, raw & 0xff)),
    ).toBeCloseTo(expected, 9);
  });

  it.each([
    ['unknown names', 'x * y', ''],
    ['functions outside the allowed set', 'sqrt(x)', ''],
    ['random numbers', 'random(x)', ''],
    ['conditionals', 'x > 1 ? 1 : 0', ''],
    ['assignment', 'y = x', ''],
    ['string concatenation', 'x || "a"', ''],
    ['member access', 'x.constructor', ''],
    ['a malformed variable', 'x * k', 'k=abc'],
  ])('refuses %s', (_, formula, variables) => {
    expect(() => compileFormula(formula, variables)).toThrow(FormulaError);
    const result = decodePayload(compileReadChannels([channel({ formula, variables })]), bytes(1));
    expect(result).toMatchObject({ ok: false, reason: 'bad_template' });
  });

  it('parses variables separated by commas or semicolons', () => {
    expect(parseVariables('k=0.1; b = -4 ,c=1e3')).toEqual({ k: 0.1, b: -4, c: 1000 });
    expect(parseVariables('')).toEqual({});
  });

  it('marks values outside the limits out_of_range, and keeps them', () => {
    const templates = [
      channel({
        dataType: 'uint16',
        dataByteLength: 2,
        formula: 'x * k',
        variables: 'k=0.1',
        dataLimitMin: 180,
        dataLimitMax: 253,
        mqttPackageOrder: 1,
      }),
      channel({
        dataType: 'uint16',
        dataByteLength: 2,
        formula: 'x * k',
        variables: 'k=0.1',
        dataLimitMin: 180,
        dataLimitMax: 253,
        mqttPackageOrder: 2,
      }),
      channel({
        dataType: 'uint16',
        dataByteLength: 2,
        formula: 'x * k',
        variables: 'k=0.1',
        dataLimitMin: 180,
        dataLimitMax: 253,
        mqttPackageOrder: 3,
      }),
    ];
    // 262.0 V, 230.0 V, 179.9 V
    const result = decodePayload(compileReadChannels(templates), bytes(0x0a, 0x3c, 0x08, 0xfc, 0x07, 0x07));
    expect(result.ok && result.values.map((v) => [v.value, v.status])).toEqual([
      [262, 'out_of_range'],
      [230, 'ok'],
      [179.9, 'out_of_range'],
    ]);
  });

  it('refuses a short payload whole, with nothing half-decoded', () => {
    const templates = [
      channel({ dataType: 'uint8', mqttPackageOrder: 1 }),
      channel({ dataType: 'uint32', dataByteLength: 4, mqttPackageOrder: 2 }),
    ];
    expect(decodePayload(compileReadChannels(templates), bytes(1, 2, 3))).toMatchObject({
      ok: false,
      reason: 'payload_too_short',
    });
    expect(decodePayload(compileReadChannels(templates), bytes())).toMatchObject({
      ok: false,
      reason: 'payload_too_short',
    });
  });

  it("decodes the fixtures' up.json payload with the SLC-L1 layout", () => {
    const l1 = [
      channel({ channelCode: 'lamp', dataType: 'bool', mqttPackageOrder: 1 }),
      channel({ channelCode: 'dim', dataType: 'uint8', mqttPackageOrder: 2 }),
      channel({ channelCode: 'power', dataType: 'uint16', dataByteLength: 2, mqttPackageOrder: 3 }),
      channel({
        channelCode: 'energy',
        dataType: 'uint32',
        dataByteLength: 4,
        formula: 'x * k',
        variables: 'k=0.01',
        mqttPackageOrder: 4,
      }),
      channel({ channelCode: 'temperature', dataType: 'int16', dataByteLength: 2, mqttPackageOrder: 5 }),
    ];
    const result = decodePayload(compileReadChannels(l1), Buffer.from('AWQAkQAAA+gAJA==', 'base64'));
    expect(result.ok && Object.fromEntries(result.values.map((v) => [v.channelCode, v.value]))).toEqual({
      lamp: 1,
      dim: 100,
      power: 145,
      energy: 10,
      temperature: 36,
    });
  });

  it('skips write-only channels when decoding', () => {
    const templates = [
      channel({ channelType: 'write', mqttPackageOrder: 1 }),
      channel({ channelType: 'readwrite', mqttPackageOrder: 2 }),
    ];
    expect(decodePayload(compileReadChannels(templates), bytes(9))).toMatchObject({ ok: true, values: [{ value: 9 }] });
  });
});

describe('named values (ChirpStack object, Lampyr JSON)', () => {
  const channels = compileReadChannels([
    channel({ channelCode: 'lamp', mqttPackageOrder: 1 }),
    channel({ channelCode: 'power', mqttPackageOrder: 2 }),
    channel({ channelCode: 'powerFactor', mqttPackageOrder: 3 }),
    channel({ channelCode: 'energy', mqttPackageOrder: 4, dataLimitMax: 5 }),
  ]);

  it('matches exact codes first, then ignoring case, then the longest code the key starts with', () => {
    const values = mapNamedValues(channels, { lampOn: true, powerW: 145, POWERFACTOR: 0.9, energyKwh: 10, other: 1 });
    expect(values.map((v) => [v.channelCode, v.value, v.status])).toEqual([
      ['lamp', 1, 'ok'],
      ['power', 145, 'ok'],
      ['powerFactor', 0.9, 'ok'],
      ['energy', 10, 'out_of_range'],
    ]);
  });

  it('prefers the exact key when two keys could feed one channel', () => {
    expect(mapNamedValues(channels, { powerW: 1, power: 2 }).map((v) => v.value)).toEqual([2]);
  });

  it('ignores values that are not numbers or booleans', () => {
    expect(mapNamedValues(channels, { lamp: 'on', power: null, energy: Number.NaN })).toEqual([]);
  });
});

describe('encoding writes', () => {
  it('sends the channel number then the raw value (the fixture down.json: AjI= is dim := 50)', () => {
    const dim = channel({ channelCode: 'dim', channelType: 'readwrite', mqttPackageOrder: 2 });
    const result = encodeWrite(dim, 50);
    expect(result.ok && Buffer.from(result.bytes).toString('base64')).toBe('AjI=');
  });

  it('inverts affine formulas and checks the type range', () => {
    const voltage = channel({
      channelType: 'write',
      dataType: 'int16',
      dataByteLength: 2,
      formula: 'x * k + b',
      variables: 'k=0.1;b=-10',
      mqttPackageOrder: 4,
    });
    const result = encodeWrite(voltage, -20);
    expect(result.ok && [...result.bytes]).toEqual([4, 0xff, 0x9c]);
    expect(encodeWrite(channel({ channelType: 'write' }), 256)).toMatchObject({ ok: false, reason: 'cannot_encode' });
    expect(encodeWrite(channel({ channelType: 'write', formula: 'x * x' }), 4)).toMatchObject({ ok: false });
    expect(encodeWrite(channel({ channelType: 'read' }), 1)).toMatchObject({ ok: false, reason: 'not_writable' });
  });

  it('round-trips every writable value through decode', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32'),
        fc.integer({ min: -2_147_483_648, max: 4_294_967_295 }),
        (dataType, value) => {
          const width = { uint8: 1, int8: 1, uint16: 2, int16: 2, uint32: 4, int32: 4 }[dataType] as number;
          const template = channel({ channelType: 'readwrite', dataType, dataByteLength: width });
          const encoded = encodeWrite(template, value);
          if (!encoded.ok) return;
          expect(decodePayload(compileReadChannels([template]), encoded.bytes.subarray(1))).toMatchObject({
            ok: true,
            values: [{ value }],
          });
        },
      ),
    );
  });
});

describe('decoder robustness (property)', () => {
  const arbitraryTemplate = fc.record({
    dataType: fc.constantFrom('bool', 'uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'float32', 'bogus'),
    dataByteLength: fc.integer({ min: -1, max: 9 }),
    dataBitLength: fc.option(fc.integer({ min: -1, max: 40 })),
    formula: fc.constantFrom('x', 'x * k', 'x / 0', '1 / (x - x)', 'x ^ 1000', 'max(x, k)', '(', 'sqrt(x)', ''),
    variables: fc.constantFrom('', 'k=0.1', 'k=abc', 'k', ';;', 'k=1;j=2'),
    channelType: fc.constantFrom('read', 'write', 'readwrite'),
    mqttPackageOrder: fc.integer({ min: 0, max: 20 }),
  });

  it('never throws on random templates and random payloads, and answers ok or a known reason', () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryTemplate, { maxLength: 8 }),
        // Sub-device channels under any of the first templates, with any package order.
        fc.array(
          fc.record({
            template: arbitraryTemplate,
            parent: fc.integer({ min: 0, max: 3 }),
            channelPackageOrder: fc.option(fc.integer({ min: -1, max: 5 })),
          }),
          { maxLength: 6 },
        ),
        fc.uint8Array({ maxLength: 40 }),
        (templates, subs, payload) => {
          const compiled = templates.map((t) => channel(t));
          const subTemplates = subs.map((s) => ({
            ...channel(s.template),
            parentTemplateId: compiled[s.parent]?.id ?? null,
            channelPackageOrder: s.channelPackageOrder,
          }));
          const result = decodePayload(compileReadChannels(compiled, subTemplates), payload);
          if (result.ok) for (const v of result.values) expect(Number.isFinite(v.value)).toBe(true);
          else
            expect(['payload_too_short', 'bad_template', 'formula_error', 'no_read_channels']).toContain(result.reason);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('decodes any payload long enough for valid templates', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 19, maxLength: 64 }), (payload) => {
        const templates = ['bool', 'uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'float32'].map(
          (dataType, i) =>
            channel({
              dataType,
              dataByteLength: dataType.endsWith('32') ? 4 : dataType.endsWith('16') ? 2 : 1,
              mqttPackageOrder: i,
            }),
        );
        const result = decodePayload(compileReadChannels(templates), payload);
        // A float32 of random bits may be NaN or infinite: refused as a formula error, never thrown.
        expect(result.ok || result.reason === 'formula_error').toBe(true);
      }),
    );
  });
});

describe('sub-device packages (sub-device channel templates)', () => {
  const sub = (parent: ChannelTemplate, over: Partial<SubChannelTemplate>): SubChannelTemplate => ({
    ...channel(over),
    parentTemplateId: parent.id,
    ...over,
  });
  const layout = (packageBytes: number) => {
    const lamp = channel({ channelCode: 'lamp', mqttPackageOrder: 1 });
    const pkg = channel({ channelCode: 'luminaires', mqttPackageOrder: 2, dataByteLength: packageBytes });
    const temp = channel({ channelCode: 'temp', mqttPackageOrder: 3, dataType: 'int8' });
    const subs = [
      // Listed out of order: the package order decides.
      sub(pkg, { channelCode: 'fault', channelPackageOrder: 3, dataByteLength: 0, dataBitLength: 4 }),
      sub(pkg, { channelCode: 'power', channelPackageOrder: 1, formula: 'x*k', variables: 'k=2', dataLimitMax: 100 }),
      sub(pkg, { channelCode: 'dim', channelPackageOrder: 2, dataByteLength: 0, dataBitLength: 4 }),
      // Another model's and a write-only sub-channel take no part.
      { ...sub(pkg, { channelCode: 'elsewhere', channelPackageOrder: 1 }), parentTemplateId: 999_999 },
      sub(pkg, { channelCode: 'setpoint', channelPackageOrder: 4, channelType: 'write' }),
    ];
    return { lamp, pkg, temp, channels: compileReadChannels([lamp, pkg, temp], subs) };
  };
  const summary = (result: ReturnType<typeof decodePayload>) =>
    result.ok ? result.values.map((v) => [v.templateId, v.subChannel, v.channelCode, v.value, v.status]) : result;

  it("decodes a sub-device's package inside its parent channel's bytes, stored under the parent", () => {
    const { lamp, pkg, temp, channels } = layout(3);
    // lamp | power, dim and fault sharing a byte, one byte of padding | temp
    expect(summary(decodePayload(channels, bytes(1, 16, 0xa5, 0xff, 0xdc)))).toEqual([
      [lamp.id, 0, 'lamp', 1, 'ok'],
      [pkg.id, 1, 'power', 32, 'ok'],
      [pkg.id, 2, 'dim', 10, 'ok'],
      [pkg.id, 3, 'fault', 5, 'ok'],
      [temp.id, 0, 'temp', -36, 'ok'],
    ]);
  });

  it('takes a package as long as its sub-channels need when the parent gives no length', () => {
    const { channels } = layout(0);
    expect(summary(decodePayload(channels, bytes(1, 60, 0x12, 7)))).toEqual([
      [expect.any(Number), 0, 'lamp', 1, 'ok'],
      [expect.any(Number), 1, 'power', 120, 'out_of_range'],
      [expect.any(Number), 2, 'dim', 1, 'ok'],
      [expect.any(Number), 3, 'fault', 2, 'ok'],
      [expect.any(Number), 0, 'temp', 7, 'ok'],
    ]);
  });

  it('refuses a payload that ends inside a package, whole', () => {
    const { channels } = layout(3);
    expect(decodePayload(channels, bytes(1, 16))).toMatchObject({ ok: false, reason: 'payload_too_short' });
    expect(decodePayload(channels, bytes(1, 16, 0xa5, 0xff))).toMatchObject({ ok: false, reason: 'payload_too_short' });
  });

  it('refuses templates whose sub-channels overflow the package or share a package order', () => {
    expect(decodePayload(layout(1).channels, bytes(1, 2, 3, 4, 5))).toMatchObject({
      ok: false,
      reason: 'bad_template',
      detail: expect.stringContaining('2 bytes'),
    });
    const pkg = channel({ channelCode: 'p', dataByteLength: 2 });
    const clash = compileReadChannels(
      [pkg],
      [sub(pkg, { channelPackageOrder: 1 }), sub(pkg, { channelPackageOrder: 1 })],
    );
    expect(decodePayload(clash, bytes(1, 2))).toMatchObject({ ok: false, reason: 'bad_template' });
  });
});
