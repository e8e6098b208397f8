import type { FaultRule } from '@lampyr/contract';

/**
 * The lamp fault rules (issue 13, DEVICES.md "Alarms"): what each one checks, and how long it waits.
 * Every rule is judged on one sample — a device's values at one reading time — against the level the
 * lamp was commanded to then. `settleMs` is how long after a state change (a new commanded level, or
 * the lamp lighting up / going dark) the rule looks away; `persistMs` how long its condition must hold
 * without a break before it latches (raises its alarm and opens a fault report); `clearMs` how long it
 * must stay false before the alarm clears.
 *
 * Values and where they come from (see the report of the branch `faults` for the full notes):
 * - 5 min settling for power-related rules: HID lamps (HPS, metal halide) need 3–5 min to run up to
 *   their rated power (IEC 60662 / IEC 61167 run-up), and an LED driver may fade over up to 90.5 s
 *   (IEC 62386-102, the largest DALI fade time) before its meter shows the new level.
 * - 10 min persistence for voltage: EN 50160 judges supply voltage on 10-minute mean values.
 * - 10–15 min persistence elsewhere: several reporting periods (a street light reports every few
 *   minutes), the order of the delays CMS vendors ship for lamp-failure and day-burning alarms.
 * - ±15 % voltage: beyond the ±10 % supply tolerance of IEC 60038 / EN 50160 with margin.
 * - power factor 0.65: well below the ≥ 0.9 that Ecodesign (EU) 2019/2020 asks of LED drivers above
 *   25 W; a driver reading below 0.65 is failing (capacitor wear), not merely dimmed.
 * - 6 W day burning: above a controller's own stand-by draw (< 1 W to a few W) and any driver's no-load
 *   loss (Ecodesign: ≤ 0.5 W stand-by), below the smallest street lamp.
 */
export interface RuleTiming {
  settleMs: number;
  persistMs: number;
  clearMs: number;
}

const MINUTE = 60_000;

export const RULE_TIMINGS: Record<FaultRule, RuleTiming> = {
  lampFailure: { settleMs: 5 * MINUTE, persistMs: 10 * MINUTE, clearMs: 5 * MINUTE },
  dayBurning: { settleMs: 5 * MINUTE, persistMs: 15 * MINUTE, clearMs: 5 * MINUTE },
  // Cycling counts flips over its own hour: no settling (each flip is a state change), no persistence.
  cycling: { settleMs: 0, persistMs: 0, clearMs: 0 },
  overVoltage: { settleMs: 1 * MINUTE, persistMs: 10 * MINUTE, clearMs: 5 * MINUTE },
  underVoltage: { settleMs: 1 * MINUTE, persistMs: 10 * MINUTE, clearMs: 5 * MINUTE },
  lowPowerFactor: { settleMs: 5 * MINUTE, persistMs: 15 * MINUTE, clearMs: 5 * MINUTE },
  powerMismatch: { settleMs: 5 * MINUTE, persistMs: 15 * MINUTE, clearMs: 5 * MINUTE },
};

/** The window in which cycling counts its flips, and how many on→off flips make it a fault. */
export const CYCLING_WINDOW_MS = 60 * MINUTE;
export const CYCLING_FLIPS = 3;

export const THRESHOLDS = {
  /** Lamp failure: below this share of the expected power while commanded on. */
  failureShare: 0.2,
  /** Day burning: above this many watts while commanded off (or by day). */
  dayBurningWatts: 6,
  /** Voltage: this far from nominal, either way. */
  voltageShare: 0.15,
  /** The nominal supply voltage when the model states none (IEC 60038). */
  nominalVoltage: 230,
  /** Power factor: below this while on. */
  powerFactor: 0.65,
  /** Power mismatch: this far from rated power × commanded level. */
  mismatchShare: 0.15,
} as const;

/** The alarm level each rule raises at. */
export const RULE_LEVELS: Record<FaultRule, 'low' | 'medium' | 'high'> = {
  lampFailure: 'high',
  dayBurning: 'medium',
  cycling: 'medium',
  overVoltage: 'high',
  underVoltage: 'medium',
  lowPowerFactor: 'low',
  powerMismatch: 'low',
};

/** The fault-report type each rule files (FAULT_TYPES). */
export const RULE_FAULT_TYPES: Record<FaultRule | 'communicationLoss', string> = {
  lampFailure: 'lamp_failure',
  dayBurning: 'day_burning',
  cycling: 'cycling',
  overVoltage: 'over_voltage',
  underVoltage: 'under_voltage',
  lowPowerFactor: 'low_power_factor',
  powerMismatch: 'power_mismatch',
  communicationLoss: 'communication',
};

/** What the engine knows of a device's lamp. */
export interface LampModel {
  /** Watts at level 100; null when neither device nor model says (power rules then wait). */
  ratedPower: number | null;
  nominalVoltage: number;
}

/** A device's values at one reading time (the newest known of each, up to that time). */
export interface Sample {
  at: number;
  power?: number;
  voltage?: number;
  current?: number;
  /** A power-factor channel when the model has one; else P / (V · I). */
  powerFactor?: number;
}

/** The level the lamp is to be at: 0 off, 1–100 on; `explicit` for an operator's write or override. */
export interface Commanded {
  level: number;
  /** When it took this level (a state change: settling starts then). */
  since: number;
  /** `write`, `override`, `plan`, or `reported` (the device's own state when nothing commands it). */
  source: 'write' | 'override' | 'plan' | 'reported';
}

/** What a rule found in one sample: true holds, false clear, undefined cannot tell (frozen). */
export type Verdict = { holds: boolean; value: number; unit: string; figures: Record<string, number> } | undefined;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The power factor of a sample: its own channel, else P / (V · I) when all three are known. */
export function powerFactorOf(s: Sample): number | undefined {
  if (s.powerFactor !== undefined) return s.powerFactor;
  if (s.power === undefined || s.voltage === undefined || s.current === undefined) return undefined;
  const apparent = s.voltage * s.current;
  return apparent > 0 ? Math.min(1, s.power / apparent) : undefined;
}

/** The power a lamp should draw at a level (a linear driver, as the energy engine assumes). */
export const expectedPower = (model: LampModel, level: number) =>
  model.ratedPower === null ? undefined : (model.ratedPower * level) / 100;

/** Whether the lamp is lit, by what it draws (a lamp switched on may still be dark: it failed). */
export function isLit(power: number | undefined): boolean | undefined {
  if (power === undefined) return undefined;
  return power > THRESHOLDS.dayBurningWatts;
}

/**
 * The verdict of every instantaneous rule (all but cycling) on one sample. `isDay` is whether the sun
 * is up at the sample's time at the device's place (undefined when it has no place).
 */
export function judge(
  rule: Exclude<FaultRule, 'cycling'>,
  model: LampModel,
  s: Sample,
  commanded: Commanded | undefined,
  isDay: boolean | undefined,
): Verdict {
  const level = commanded?.level;
  switch (rule) {
    case 'lampFailure': {
      const expected = level === undefined ? undefined : expectedPower(model, level);
      if (s.power === undefined || level === undefined || level <= 0 || !expected) return undefined;
      return {
        holds: s.power < THRESHOLDS.failureShare * expected,
        value: s.power,
        unit: 'W',
        figures: { power: round(s.power), expected: round(expected), level },
      };
    }
    case 'dayBurning': {
      if (s.power === undefined) return undefined;
      // Commanded off, or by day unless an operator asked for light (a test, works at night's end).
      const explicitOn = (commanded?.source === 'write' || commanded?.source === 'override') && (level ?? 0) > 0;
      const shouldBeOff = level === 0 || (isDay === true && !explicitOn);
      if (!shouldBeOff && level === undefined) return undefined;
      return {
        holds: shouldBeOff && s.power > THRESHOLDS.dayBurningWatts,
        value: s.power,
        unit: 'W',
        figures: { power: round(s.power) },
      };
    }
    case 'overVoltage':
    case 'underVoltage': {
      if (s.voltage === undefined || s.voltage <= 0) return undefined;
      const nominal = model.nominalVoltage;
      const holds =
        rule === 'overVoltage'
          ? s.voltage > nominal * (1 + THRESHOLDS.voltageShare)
          : s.voltage < nominal * (1 - THRESHOLDS.voltageShare);
      return { holds, value: s.voltage, unit: 'V', figures: { voltage: round(s.voltage), nominal } };
    }
    case 'lowPowerFactor': {
      const pf = powerFactorOf(s);
      // Only while on and lit: an unlit lamp's tiny draw has any power factor at all.
      if (pf === undefined || level === undefined || level <= 0 || !isLit(s.power)) return undefined;
      return {
        holds: pf < THRESHOLDS.powerFactor,
        value: round(pf, 2),
        unit: '',
        figures: { powerFactor: round(pf, 2) },
      };
    }
    case 'powerMismatch': {
      const expected = level === undefined ? undefined : expectedPower(model, level);
      if (s.power === undefined || level === undefined || level <= 0 || !expected) return undefined;
      // A lamp that draws (almost) nothing is a lamp failure, not a mismatch: that rule has it.
      if (s.power < THRESHOLDS.failureShare * expected) return undefined;
      return {
        holds: Math.abs(s.power - expected) > THRESHOLDS.mismatchShare * expected,
        value: s.power,
        unit: 'W',
        figures: { power: round(s.power), expected: round(expected), level },
      };
    }
  }
}
