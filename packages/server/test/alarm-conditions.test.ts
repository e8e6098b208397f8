import { describe, expect, it } from 'vitest';
import { type Bounds, clears, holds } from '../src/engines/alarms/conditions.ts';

/** The eight conditions and their hysteresis (DEVICES.md "Alarms", Clear). */
const b = (condition: Bounds['condition'], value: number, threshold = 0, value2 = value): Bounds => ({
  condition,
  value,
  value2,
  threshold,
});

describe('conditions and hysteresis', () => {
  it('gt 240 with threshold 5 raises above 240 and clears only at 235 or below', () => {
    const rule = b('gt', 240, 5);
    expect([239, 240, 240.1, 262].map((x) => holds(rule, x))).toEqual([false, false, true, true]);
    expect([239, 236, 235, 200].map((x) => clears(rule, x))).toEqual([false, false, true, true]);
  });

  it('lt mirrors it; gte and lte include the bound', () => {
    const lt = b('lt', 200, 10);
    expect([199, 200].map((x) => holds(lt, x))).toEqual([true, false]);
    expect([205, 209.9, 210, 230].map((x) => clears(lt, x))).toEqual([false, false, true, true]);
    expect(holds(b('gte', 5), 5)).toBe(true);
    expect(clears(b('gte', 5, 1), 4.5)).toBe(false);
    expect(clears(b('gte', 5, 1), 3.9)).toBe(true);
    expect(clears(b('gte', 5), 4.99)).toBe(true);
    expect(holds(b('lte', 5), 5)).toBe(true);
    expect(clears(b('lte', 5, 1), 6)).toBe(false);
    expect(clears(b('lte', 5, 1), 6.1)).toBe(true);
  });

  it('eq and ne clear as soon as the condition no longer holds', () => {
    expect(holds(b('eq', 0, 3), 0)).toBe(true);
    expect(clears(b('eq', 0, 3), 1)).toBe(true);
    expect(clears(b('eq', 0, 3), 0)).toBe(false);
    expect(holds(b('ne', 1), 0)).toBe(true);
    expect(clears(b('ne', 1), 1)).toBe(true);
    expect(clears(b('ne', 1), 2)).toBe(false);
  });

  it('between clears once outside the band by the threshold; notBetween once inside it by the threshold', () => {
    const between = b('between', 0, 2, 10);
    expect([-1, 0, 10, 11].map((x) => holds(between, x))).toEqual([false, true, true, false]);
    expect([-1, -2.1, 11, 12.1].map((x) => clears(between, x))).toEqual([false, true, false, true]);
    const outside = b('notBetween', 200, 5, 250);
    expect([199, 200, 250, 251].map((x) => holds(outside, x))).toEqual([true, false, false, true]);
    expect([202, 205, 240, 245, 248].map((x) => clears(outside, x))).toEqual([false, true, true, true, false]);
    // A band narrower than twice the threshold clears in its middle.
    const narrow = b('notBetween', 10, 10, 12);
    expect([10.5, 11, 11.5].map((x) => clears(narrow, x))).toEqual([false, true, false]);
  });
});
