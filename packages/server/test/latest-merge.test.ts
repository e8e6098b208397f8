import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceSeen, Reading } from '../src/ingest/ingest-units.ts';
import { mergeSeen, NewestReadings } from '../src/ingest/latest-writer.ts';

const reading = (deviceId: number, templateId: number, subChannel: number, at: number, value = 1): Reading => ({
  accountId: 1,
  deviceId,
  templateId,
  subChannel,
  channelCode: 'x',
  value,
  status: 'ok',
  dateTime: new Date(at),
  frameKey: `fcnt:${at}`,
});

describe('NewestReadings', () => {
  it('keeps the newest reading of each device channel and sub-channel, sorted by them', () => {
    const ids = fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constantFrom(2 ** 32 - 1, 2 ** 32, 2 ** 40));
    const subs = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(2 ** 20 - 1, 2 ** 20, -1));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), ids, subs, fc.integer({ min: 0, max: 20 }), fc.double()), {
          maxLength: 60,
        }),
        (rows) => {
          const newest = new NewestReadings();
          // The reference: a text key per reading, the newest (the first offered on a tie) kept.
          const expected = new Map<string, Reading>();
          for (const [d, t, s, at, v] of rows) {
            const r = reading(d, t, s, at, v);
            newest.offer(r);
            const key = `${d}:${t}:${s}`;
            const before = expected.get(key);
            if (!before || before.dateTime < r.dateTime) expected.set(key, r);
          }
          const sorted = [...expected.values()].sort(
            (a, b) => a.deviceId - b.deviceId || a.templateId - b.templateId || a.subChannel - b.subChannel,
          );
          expect(newest.sorted()).toEqual(sorted);
          expect(newest.size).toBe(new Set(rows.map(([d]) => d)).size);
        },
      ),
    );
  });

  it('forgets everything on clear', () => {
    const newest = new NewestReadings();
    newest.offer(reading(1, 2, 0, 10));
    newest.clear();
    expect(newest.size).toBe(0);
    expect(newest.sorted()).toEqual([]);
  });
});

describe('mergeSeen', () => {
  const seen = (at: number, extra: Partial<DeviceSeen> = {}): DeviceSeen => ({
    accountId: 1,
    deviceId: 7,
    dateTime: new Date(at),
    rssi: -at,
    snr: at / 10,
    ...extra,
  });

  it('takes the newer sighting’s time and signal, and every gateway of both once, the older’s first', () => {
    const older = seen(100, { gateway: 'a', gateways: ['a', 'b'] });
    const newer = seen(200, { gateway: 'c', gateways: ['c', 'a'] });
    for (const merged of [mergeSeen(older, newer), mergeSeen(newer, older)]) {
      expect(merged).toEqual({
        accountId: 1,
        deviceId: 7,
        dateTime: new Date(200),
        rssi: -200,
        snr: 20,
        gateway: 'c',
        gateways: ['a', 'b', 'c'],
        health: undefined,
        healthAt: undefined,
      });
    }
    // One gateway heard both: one entry, and the lists merged are copies, never the originals.
    const single = mergeSeen(seen(1, { gateways: ['g'] }), seen(2, { gateways: ['g'] }));
    expect(single.gateways).toEqual(['g']);
    const only = ['g'];
    expect(mergeSeen(seen(1, { gateways: only }), seen(2)).gateways).not.toBe(only);
    expect(mergeSeen(seen(1), seen(2)).gateways).toEqual([]);
  });

  it('keeps the best gateway and the health an older sighting brought when the newer has none', () => {
    const health = { batteryLevel: 80, externalPower: false, linkMargin: 12 };
    const merged = mergeSeen(seen(100, { gateway: 'a', health }), seen(200));
    expect(merged).toMatchObject({ gateway: 'a', health, healthAt: new Date(100), dateTime: new Date(200) });
    const newerHealth = { batteryLevel: 70, externalPower: false, linkMargin: 9 };
    expect(mergeSeen(seen(100, { health }), seen(200, { health: newerHealth }))).toMatchObject({
      health: newerHealth,
      healthAt: new Date(200),
    });
    // A status event's time stays with the health it brought.
    expect(mergeSeen(seen(100, { health, healthAt: new Date(50) }), seen(200)).healthAt).toEqual(new Date(50));
  });

  it('returns the only sighting as it is', () => {
    const only = seen(5);
    expect(mergeSeen(undefined, only)).toBe(only);
  });
});
