import { describe, expect, it } from 'vitest';
import {
  type Commanded,
  judge,
  type LampModel,
  powerFactorOf,
  RULE_TIMINGS,
} from '../src/engines/faults/fault-rules.ts';
import { type RuleState, step } from '../src/engines/faults/fault-tracker.ts';

/** The fault rules' arithmetic and the settle → persist → latch → clear steps, on hand-made samples. */

const model: LampModel = { ratedPower: 120, nominalVoltage: 230 };
const on = (level = 100, source: Commanded['source'] = 'plan'): Commanded => ({ level, since: 0, source });
const off: Commanded = { level: 0, since: 0, source: 'plan' };

describe('fault rules', () => {
  it('lamp failure: below 20 % of rated × level while commanded on', () => {
    expect(judge('lampFailure', model, { at: 1, power: 23 }, on(), undefined)?.holds).toBe(true); // < 24 W
    expect(judge('lampFailure', model, { at: 1, power: 25 }, on(), undefined)?.holds).toBe(false);
    // At 50 %: 60 W expected, 20 % is 12 W.
    expect(judge('lampFailure', model, { at: 1, power: 11 }, on(50), undefined)?.holds).toBe(true);
    expect(judge('lampFailure', model, { at: 1, power: 13 }, on(50), undefined)?.holds).toBe(false);
    // Commanded off, or no rated power: it cannot tell.
    expect(judge('lampFailure', model, { at: 1, power: 0 }, off, undefined)).toBeUndefined();
    expect(judge('lampFailure', { ...model, ratedPower: null }, { at: 1, power: 0 }, on(), undefined)).toBeUndefined();
  });

  it('day burning: above 6 W while commanded off, or by day unless an operator asked for light', () => {
    expect(judge('dayBurning', model, { at: 1, power: 7 }, off, false)?.holds).toBe(true);
    expect(judge('dayBurning', model, { at: 1, power: 5 }, off, false)?.holds).toBe(false);
    expect(judge('dayBurning', model, { at: 1, power: 120 }, on(), false)?.holds).toBe(false);
    expect(judge('dayBurning', model, { at: 1, power: 120 }, on(100, 'plan'), true)?.holds).toBe(true);
    expect(judge('dayBurning', model, { at: 1, power: 120 }, on(100, 'reported'), true)?.holds).toBe(true);
    expect(judge('dayBurning', model, { at: 1, power: 120 }, on(100, 'write'), true)?.holds).toBe(false);
    expect(judge('dayBurning', model, { at: 1, power: 120 }, on(100, 'override'), true)?.holds).toBe(false);
    expect(judge('dayBurning', model, { at: 1, power: 120 }, undefined, true)?.holds).toBe(true);
    expect(judge('dayBurning', model, { at: 1, power: 120 }, undefined, false)).toBeUndefined();
  });

  it('voltage: ±15 % of the nominal, 230 V or the model’s', () => {
    expect(judge('overVoltage', model, { at: 1, voltage: 265 }, on(), undefined)?.holds).toBe(true); // > 264.5
    expect(judge('overVoltage', model, { at: 1, voltage: 264 }, on(), undefined)?.holds).toBe(false);
    expect(judge('underVoltage', model, { at: 1, voltage: 195 }, off, undefined)?.holds).toBe(true); // < 195.5
    expect(judge('underVoltage', model, { at: 1, voltage: 196 }, off, undefined)?.holds).toBe(false);
    const us = { ...model, nominalVoltage: 120 };
    expect(judge('overVoltage', us, { at: 1, voltage: 140 }, on(), undefined)?.holds).toBe(true);
    expect(judge('underVoltage', us, { at: 1, voltage: 120 }, on(), undefined)?.holds).toBe(false);
  });

  it('power factor: below 0.65 while on and lit, from its channel or P / (V · I)', () => {
    expect(powerFactorOf({ at: 1, power: 115, voltage: 230, current: 1 })).toBe(0.5);
    expect(
      judge('lowPowerFactor', model, { at: 1, power: 115, voltage: 230, current: 1 }, on(), undefined)?.holds,
    ).toBe(true);
    expect(
      judge('lowPowerFactor', model, { at: 1, power: 115, voltage: 230, current: 0.52 }, on(), undefined)?.holds,
    ).toBe(false);
    expect(judge('lowPowerFactor', model, { at: 1, power: 115, powerFactor: 0.6 }, on(), undefined)?.holds).toBe(true);
    // Off or dark: any tiny draw has any power factor.
    expect(
      judge('lowPowerFactor', model, { at: 1, power: 2, voltage: 230, current: 1 }, on(), undefined),
    ).toBeUndefined();
    expect(judge('lowPowerFactor', model, { at: 1, power: 115, powerFactor: 0.3 }, off, undefined)).toBeUndefined();
  });

  it('power mismatch: ±15 % of rated × commanded level, a dark lamp left to lamp failure', () => {
    expect(judge('powerMismatch', model, { at: 1, power: 101 }, on(), undefined)?.holds).toBe(true); // < 102
    expect(judge('powerMismatch', model, { at: 1, power: 103 }, on(), undefined)?.holds).toBe(false);
    expect(judge('powerMismatch', model, { at: 1, power: 139 }, on(), undefined)?.holds).toBe(true); // > 138
    expect(judge('powerMismatch', model, { at: 1, power: 72 }, on(50), undefined)?.holds).toBe(true); // 60 W ± 9
    expect(judge('powerMismatch', model, { at: 1, power: 66 }, on(50), undefined)?.holds).toBe(false);
    expect(judge('powerMismatch', model, { at: 1, power: 3 }, on(), undefined)).toBeUndefined();
  });
});

describe('settling, persistence and clearing', () => {
  const timing = RULE_TIMINGS.lampFailure; // 5 min settle, 10 min persist, 5 min clear
  const min = 60_000;

  it('looks away while settling, latches after holding for the persistence time, clears after the clearing time', () => {
    const s: RuleState = { latched: false };
    const changedAt = 0;
    // Holding throughout the settling time: nothing, and no progress.
    for (let m = 0; m < 5; m++) expect(step(s, timing, m * min, changedAt, true)).toBeUndefined();
    expect(s.holdingSince).toBeUndefined();
    // From minute 5 it counts; at minute 15 it has held for 10.
    for (let m = 5; m < 15; m++) expect(step(s, timing, m * min, changedAt, true)).toBeUndefined();
    expect(step(s, timing, 15 * min, changedAt, true)).toBe('latch');
    expect(step(s, timing, 16 * min, changedAt, true)).toBeUndefined();
    // Cannot tell (commanded off): frozen, still latched.
    expect(step(s, timing, 17 * min, changedAt, undefined)).toBeUndefined();
    expect(s.latched).toBe(true);
    // False, then true again before the clearing time: still latched; false for 5 min: cleared.
    expect(step(s, timing, 18 * min, changedAt, false)).toBeUndefined();
    expect(step(s, timing, 20 * min, changedAt, true)).toBeUndefined();
    expect(step(s, timing, 21 * min, changedAt, false)).toBeUndefined();
    expect(step(s, timing, 25 * min, changedAt, false)).toBeUndefined();
    expect(step(s, timing, 26 * min, changedAt, false)).toBe('clear');
    expect(s.latched).toBe(false);
  });

  it('a break in the condition starts the persistence again', () => {
    const s: RuleState = { latched: false };
    for (let m = 5; m < 14; m++) step(s, timing, m * min, 0, true);
    expect(step(s, timing, 14 * min, 0, false)).toBeUndefined();
    for (let m = 15; m < 25; m++) expect(step(s, timing, m * min, 0, true)).toBeUndefined();
    expect(step(s, timing, 25 * min, 0, true)).toBe('latch');
  });

  it('a state change inside the persistence restarts it after a new settling time', () => {
    const s: RuleState = { latched: false };
    for (let m = 5; m < 12; m++) step(s, timing, m * min, 0, true);
    // Commanded again at minute 12: minutes 12–16 settle, 17 starts counting, 27 latches.
    for (let m = 12; m < 27; m++) expect(step(s, timing, m * min, 12 * min, true)).toBeUndefined();
    expect(step(s, timing, 27 * min, 12 * min, true)).toBe('latch');
  });
});
