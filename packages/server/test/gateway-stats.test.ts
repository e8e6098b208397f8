import { describe, expect, it } from 'vitest';
import { parseGatewayStats } from '../src/ingest/gateway-stats.ts';
import { fixture } from './support/fixtures.ts';

/**
 * ChirpStack v4 gateway stats in both encodings the gateway bridges publish: the protobuf JSON
 * mapping and Protocol Buffers (gw.proto `GatewayStats`). The two fixtures hold the same stats.
 */

const SAME = {
  gatewayId: 'a840411b2c3d4e61',
  time: '2026-11-21T18:05:00.000Z',
  rxPacketsReceived: 42,
  rxPacketsReceivedOk: 39,
  txPacketsReceived: 5,
  txPacketsEmitted: 4,
};

/** A protobuf varint, to write test messages field by field. */
function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Buffer.from(out);
}
const field = (n: number, wire: number) => varint(n * 8 + wire);
const bytesField = (n: number, data: Buffer) => Buffer.concat([field(n, 2), varint(data.length), data]);

describe('gateway stats', () => {
  it('reads the JSON and the Protocol Buffers encoding alike', () => {
    const json = parseGatewayStats(fixture('gateway-stats.json'));
    const proto = parseGatewayStats(fixture('gateway-stats.pb'));
    expect(json).toEqual({ ok: true, stats: { ...SAME, time: '2026-11-21T18:05:00Z' } });
    expect(proto).toEqual({ ok: true, stats: SAME });
  });

  it('takes absent counters as zero (proto3 leaves them out) and the legacy gateway id bytes', () => {
    expect(parseGatewayStats(Buffer.from('{"gatewayId":"A840411B2C3D4E61","rxPacketsReceived":3}'))).toEqual({
      ok: true,
      stats: {
        gatewayId: 'a840411b2c3d4e61',
        rxPacketsReceived: 3,
        rxPacketsReceivedOk: 0,
        txPacketsReceived: 0,
        txPacketsEmitted: 0,
      },
    });
    const legacy = Buffer.concat([
      bytesField(1, Buffer.from('a840411b2c3d4e60', 'hex')),
      field(6, 0),
      varint(7),
      // An unknown fixed64 and fixed32 field are skipped.
      field(30, 1),
      Buffer.alloc(8),
      field(31, 5),
      Buffer.alloc(4),
    ]);
    expect(parseGatewayStats(legacy)).toEqual({
      ok: true,
      stats: {
        gatewayId: 'a840411b2c3d4e60',
        rxPacketsReceived: 0,
        rxPacketsReceivedOk: 7,
        txPacketsReceived: 0,
        txPacketsEmitted: 0,
      },
    });
  });

  it('refuses what is not stats, whole', () => {
    const pb = fixture('gateway-stats.pb');
    expect(parseGatewayStats(pb.subarray(0, pb.length - 3)).ok).toBe(false);
    expect(parseGatewayStats(Buffer.alloc(0)).ok).toBe(false);
    expect(parseGatewayStats(Buffer.from('{"rxPacketsReceived":-1}'))).toEqual({
      ok: false,
      field: 'rxPacketsReceived',
    });
    expect(parseGatewayStats(Buffer.from('{"txPacketsEmitted":1.5}'))).toEqual({
      ok: false,
      field: 'txPacketsEmitted',
    });
    expect(parseGatewayStats(Buffer.from('{"gatewayId":7}'))).toEqual({ ok: false, field: 'gatewayId' });
    expect(parseGatewayStats(Buffer.from('{"time":'))).toEqual({ ok: false });
    expect(parseGatewayStats(Buffer.from('[1,2]')).ok).toBe(false);
    // A counter beyond what one interval can hold, a group (wire type 3), a length past the end.
    expect(parseGatewayStats(Buffer.concat([field(5, 0), varint(2 ** 40)]))).toEqual({
      ok: false,
      field: 'rxPacketsReceived',
    });
    expect(parseGatewayStats(Buffer.concat([field(9, 3), field(9, 4)])).ok).toBe(false);
    expect(parseGatewayStats(Buffer.concat([field(17, 2), varint(100), Buffer.from('a8')])).ok).toBe(false);
    // A time before 1970 (a negative int64 is a ten-byte varint) is no gateway's clock.
    const negative = bytesField(2, Buffer.concat([field(1, 0), Buffer.from('ffffffffffffffffff01', 'hex')]));
    expect(parseGatewayStats(negative)).toEqual({ ok: false, field: 'time' });
  });
});
