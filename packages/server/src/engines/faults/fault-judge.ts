import { FAULT_RULES, type FaultRule } from '@lampyr/contract';
import {
  type Commanded,
  CYCLING_FLIPS,
  CYCLING_WINDOW_MS,
  isLit,
  judge,
  type LampModel,
  RULE_TIMINGS,
  type RuleTiming,
  type Sample,
  type Verdict,
} from './fault-rules.ts';
import { type RuleState, type Step, step } from './fault-tracker.ts';

/** The channels the rules read, by channel code. */
export type FaultCode = 'lamp' | 'dim' | 'power' | 'voltage' | 'current' | 'powerFactor';
export const FAULT_CHANNEL_CODES: Record<string, FaultCode> = {
  lamp: 'lamp',
  dim: 'dim',
  power: 'power',
  voltage: 'voltage',
  current: 'current',
  pf: 'powerFactor',
  power_factor: 'powerFactor',
  powerFactor: 'powerFactor',
};

/** A sample with the device's own lamp and dim channels, when it reported them. */
export type LampSample = Sample & { lamp?: number; dim?: number };

/** What is kept per device between samples: a few numbers per rule. */
export interface DeviceState {
  lastAt: number;
  /** The device's own reported level (lamp and dim channels), for when nothing commands it. */
  lamp?: boolean;
  dim?: number;
  reportedSince: number;
  lit?: boolean;
  litChangedAt: number;
  commandedLevel?: number;
  changedAt: number;
  /** On→off flips while commanded on, within the cycling window. */
  flips: number[];
  rules: Partial<Record<FaultRule, RuleState>>;
}

/** One rule's step on one sample that changed something: it latched (raise) or cleared. */
export interface RuleNote {
  rule: FaultRule;
  result: Exclude<Step, undefined>;
  verdict: Verdict;
}

export interface JudgeTimings {
  rules: Record<FaultRule, RuleTiming>;
  cyclingWindowMs: number;
}

/** The rules' settling, persistence and clearing times and the cycling window, multiplied by `scale` (tests). */
export function scaledTimings(scale = 1): JudgeTimings {
  const rules = Object.fromEntries(
    Object.entries(RULE_TIMINGS).map(([rule, t]) => [
      rule,
      { settleMs: t.settleMs * scale, persistMs: t.persistMs * scale, clearMs: t.clearMs * scale },
    ]),
  ) as Record<FaultRule, RuleTiming>;
  return { rules, cyclingWindowMs: CYCLING_WINDOW_MS * scale };
}

const INSTANT_RULES = FAULT_RULES.filter((r): r is Exclude<FaultRule, 'cycling'> => r !== 'cycling');

export const newDeviceState = (): DeviceState => ({
  lastAt: 0,
  reportedSince: 0,
  litChangedAt: 0,
  changedAt: 0,
  flips: [],
  rules: {},
});

export function ruleOf(s: DeviceState, rule: FaultRule): RuleState {
  let r = s.rules[rule];
  if (!r) {
    r = { latched: false };
    s.rules[rule] = r;
  }
  return r;
}

/**
 * Takes in what the device says it does (its lamp and dim channels) and answers the level it is at,
 * as a command when nothing else commands it: a change of it is a state change.
 */
export function reportedCommand(s: DeviceState, sample: LampSample): Commanded | undefined {
  const lampBefore = s.lamp;
  const dimBefore = s.dim;
  if (sample.lamp !== undefined) s.lamp = sample.lamp > 0;
  if (sample.dim !== undefined) s.dim = sample.dim;
  if ((lampBefore !== undefined && lampBefore !== s.lamp) || (dimBefore !== undefined && dimBefore !== s.dim))
    s.reportedSince = sample.at;
  const level = s.lamp === undefined ? s.dim : s.lamp ? (s.dim && s.dim > 0 ? s.dim : 100) : 0;
  return level === undefined ? undefined : { level, since: s.reportedSince, source: 'reported' };
}

/**
 * One sample of one device judged by every rule (fault-rules.ts) against the level the lamp was
 * commanded to then; `isDay` is whether the sun is up over it. Updates the device's state and
 * answers the rules that latched or cleared. Pure: the fault engine and the demo's history share it.
 */
export function judgeSample(
  s: DeviceState,
  model: LampModel,
  sample: LampSample,
  commanded: Commanded | undefined,
  isDay: boolean | undefined,
  timings: JudgeTimings,
): RuleNote[] {
  const at = sample.at;
  if (commanded && commanded.level !== s.commandedLevel) {
    s.commandedLevel = commanded.level;
    s.changedAt = Math.max(s.changedAt, Math.min(commanded.since, at));
  }
  // Lit or dark by what it draws; going dark while commanded on is a flip (cycling).
  const lit = isLit(sample.power);
  if (lit !== undefined && s.lit !== undefined && lit !== s.lit) {
    s.litChangedAt = at;
    if (!lit && (commanded?.level ?? 0) > 0) s.flips.push(at);
  }
  if (lit !== undefined) s.lit = lit;
  while (s.flips.length && (s.flips[0] as number) <= at - timings.cyclingWindowMs) s.flips.shift();
  const notes: RuleNote[] = [];
  const note = (rule: FaultRule, result: Step, verdict: Verdict) => {
    if (result) notes.push({ rule, result, verdict });
  };
  for (const rule of INSTANT_RULES) {
    const verdict = judge(rule, model, sample, commanded, isDay);
    // A lamp lighting up or going dark settles the power rules too (run-up, fade); voltage only
    // follows the commanded level.
    const changedAt =
      rule === 'overVoltage' || rule === 'underVoltage' ? s.changedAt : Math.max(s.changedAt, s.litChangedAt);
    note(rule, step(ruleOf(s, rule), timings.rules[rule], at, changedAt, verdict?.holds), verdict);
  }
  // Cycling: flips within its hour while commanded on; judged whenever the commanded level is known.
  const verdict: Verdict =
    commanded === undefined
      ? undefined
      : { holds: s.flips.length >= CYCLING_FLIPS, value: s.flips.length, unit: '', figures: { flips: s.flips.length } };
  note('cycling', step(ruleOf(s, 'cycling'), timings.rules.cycling, at, 0, verdict?.holds), verdict);
  return notes;
}
