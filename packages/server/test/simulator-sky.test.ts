import { getPosition } from 'suncalc';
import { describe, expect, it } from 'vitest';
import { ambientLux } from '../../simulator/src/street-light.ts';

const luxAt = (iso: string, lat: number, lon: number) => ambientLux(getPosition(new Date(iso), lat, lon).altitude);

describe("the simulated photocell's sky", () => {
  it('is bright by day and dark by night wherever the sun is, from suncalc’s altitude in degrees', () => {
    // The sun overhead at the equinox's noon on the equator.
    expect(luxAt('2026-03-20T12:00:00Z', 0, 0)).toBeGreaterThan(90_000);
    // Kadıköy on a November afternoon (the sun ~10° high) and two and a half hours after its sunset.
    expect(luxAt('2026-11-24T13:10:00Z', 40.9876, 29.0253)).toBeGreaterThan(10_000);
    expect(luxAt('2026-11-24T16:10:00Z', 40.9876, 29.0253)).toBe(3);
    // Every ten minutes of a day: never dark while the sun is up, never daylight while it is down.
    for (let minute = 0; minute < 24 * 60; minute += 10) {
      const at = new Date(Date.UTC(2026, 10, 24, 0, minute)).toISOString();
      const altitude = getPosition(new Date(at), 40.9876, 29.0253).altitude;
      const lux = luxAt(at, 40.9876, 29.0253);
      if (altitude > 1) expect(lux, at).toBeGreaterThan(400);
      if (altitude < -6) expect(lux, at).toBe(3);
    }
  });

  it('rises with the sun between civil twilight and sunrise', () => {
    expect(ambientLux(-6)).toBe(3);
    expect(ambientLux(-3)).toBeCloseTo(201.5, 1);
    expect(ambientLux(0)).toBe(400);
    expect(ambientLux(90)).toBe(100_400);
  });
});
