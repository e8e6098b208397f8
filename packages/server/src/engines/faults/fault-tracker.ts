import type { RuleTiming } from './fault-rules.ts';

/** One rule's state on one device: small, kept in memory. */
export interface RuleState {
  /** Since when its condition has held without a break (outside settling). */
  holdingSince?: number;
  /** Since when it has been false, while latched. */
  clearSince?: number;
  /** Latched: its alarm is raised (the alert log id once known; 0 while being raised). */
  latched: boolean;
  alertId?: number;
}

export type Step = 'latch' | 'clear' | undefined;

/**
 * One sample's step of a rule: settling (the sample is within `settleMs` of the last state change)
 * neither advances nor clears anything and breaks a run of holding samples; a verdict that cannot
 * tell (undefined) freezes the state; a condition that has held for `persistMs` latches; a latched
 * one false for `clearMs` clears.
 */
export function step(
  state: RuleState,
  timing: RuleTiming,
  at: number,
  changedAt: number,
  holds: boolean | undefined,
): Step {
  if (at < changedAt + timing.settleMs) {
    state.holdingSince = undefined;
    return undefined;
  }
  if (holds === undefined) return undefined;
  if (holds) {
    state.clearSince = undefined;
    state.holdingSince ??= at;
    if (!state.latched && at - state.holdingSince >= timing.persistMs) {
      state.latched = true;
      return 'latch';
    }
    return undefined;
  }
  state.holdingSince = undefined;
  if (!state.latched) return undefined;
  state.clearSince ??= at;
  if (at - state.clearSince >= timing.clearMs) {
    state.latched = false;
    state.clearSince = undefined;
    state.alertId = undefined;
    return 'clear';
  }
  return undefined;
}
