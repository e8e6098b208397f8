import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceProgram } from '@lampyr/contract';
import { Fleet } from '@lampyr/simulator';
import { devEuiOf } from '@lampyr/simulator/demo-fleet';
import { describe, expect, it } from 'vitest';
import { Controller, sunTimesAt } from '../../simulator/src/controller.ts';

/** Istanbul (UTC+3), 23–24 November 2026: sunset about 17:41 local (14:41Z), sunrise about 08:02 local (05:02Z). */
const program: DeviceProgram = {
  version: 7,
  location: { lat: 40.99, lon: 29.03 },
  utcOffsetMinutes: 180,
  weekdays: 0x7f,
  steps: [
    { anchor: 'sunset', minutes: 0, level: 100 },
    { anchor: 'fixed', minutes: 0, level: 50 },
    { anchor: 'sunrise', minutes: 0, level: 0 },
  ],
};

// A broker nobody listens on: the fleet is never started, the controllers run anyway.
const offline = (stateFile: string, clock: { now: Date }) =>
  new Fleet({
    url: 'mqtt://127.0.0.1:1',
    lights: 2,
    ipDevices: 0,
    reportingPeriodMs: 60_000,
    seed: 3,
    stateFile,
    now: () => clock.now,
  });

describe('the simulated controller', () => {
  it('computes sunset and sunrise with suncalc within minutes of the almanac', () => {
    const sun = sunTimesAt({ lat: 40.99, lon: 29.03 }, 180)({ year: 2026, month: 11, day: 23 });
    // Solar noon near 09:51Z (29° E, equation of time +13 min) and a day of about 9 h 40 min.
    expect(Math.abs((sun.sunset as Date).getTime() - Date.parse('2026-11-23T14:41:00Z'))).toBeLessThan(3 * 60_000);
    expect(Math.abs((sun.sunrise as Date).getTime() - Date.parse('2026-11-23T05:01:00Z'))).toBeLessThan(3 * 60_000);
    const polar = sunTimesAt({ lat: 78.2, lon: 15.6 }, 60)({ year: 2026, month: 12, day: 21 });
    expect(polar).toEqual({ sunset: null, sunrise: null });
  });

  it('runs its program from its own clock with the broker away: off by day, on at dusk, dimmed at midnight', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lampyr-sim-'));
    const clock = { now: new Date('2026-11-23T10:00:00Z') };
    const fleet = offline(join(dir, 'state.json'), clock);
    const light = fleet.devices.get(devEuiOf(1))?.light;
    light?.controller.apply({ op: 'deploy', program }, clock.now);
    const at = (iso: string) => {
      clock.now = new Date(iso);
      fleet.checkSchedules();
      return { level: light?.level, power: light?.read(clock.now.getTime()).power };
    };
    expect(at('2026-11-23T10:00:00Z')).toEqual({ level: 0, power: 0 });
    expect(at('2026-11-23T14:35:00Z').level).toBe(0);
    expect(at('2026-11-23T15:00:00Z').level).toBe(100);
    expect(at('2026-11-23T15:00:00Z').power).toBeGreaterThan(100);
    const dimmed = at('2026-11-23T22:00:00Z');
    expect(dimmed.level).toBe(50);
    expect(dimmed.power).toBeGreaterThan(50);
    expect(dimmed.power).toBeLessThan(70);
    expect(at('2026-11-24T04:55:00Z').level).toBe(50);
    expect(at('2026-11-24T05:10:00Z')).toEqual({ level: 0, power: 0 });
  });

  it('holds an override until its time, then resumes the program by itself', () => {
    const controller = new Controller();
    const start = new Date('2026-11-23T18:00:00Z');
    controller.apply({ op: 'deploy', program }, start);
    expect(controller.tick(start)).toBe(100);
    const until = new Date('2026-11-23T20:00:00Z');
    expect(controller.apply({ op: 'override', level: 30, until }, start).ok).toBe(true);
    expect(controller.tick(start)).toBe(30);
    expect(controller.report(start, 30).override).toEqual({ level: 30, until });
    expect(controller.tick(new Date('2026-11-23T19:59:00Z'))).toBeUndefined();
    expect(controller.tick(new Date('2026-11-23T20:00:00Z'))).toBe(100);
    expect(controller.override).toBeNull();
    // An override already over when it arrives is refused.
    expect(controller.apply({ op: 'override', level: 10, until: start }, start).ok).toBe(false);
  });

  it('keeps its program and override across a restart (the state file in the data folder)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lampyr-sim-'));
    const file = join(dir, 'simulator-state.json');
    const clock = { now: new Date('2026-11-23T18:00:00Z') };
    const first = offline(file, clock);
    const controller = first.devices.get(devEuiOf(2))?.light.controller;
    controller?.apply({ op: 'deploy', program }, clock.now);
    controller?.apply({ op: 'override', level: 25, until: new Date('2026-11-23T23:00:00Z') }, clock.now);
    first.checkSchedules();
    expect(first.devices.get(devEuiOf(2))?.light.level).toBe(25);
    await first.stop();
    expect(JSON.parse(readFileSync(file, 'utf8')).devices[devEuiOf(2)].program.version).toBe(7);
    const second = offline(file, clock);
    const restored = second.devices.get(devEuiOf(2))?.light;
    expect(restored?.controller.program).toEqual(program);
    expect(restored?.controller.override?.level).toBe(25);
    // The lamp is as it was before the restart, before any schedule check.
    expect(restored?.level).toBe(25);
    second.checkSchedules();
    expect(restored?.level).toBe(25);
    // A device never configured starts from the factory program.
    expect(second.devices.get(devEuiOf(1))?.light.controller.program.version).toBe(0);
  });
});
