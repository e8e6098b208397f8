/**
 * A template's condition and its hysteresis (DEVICES.md "Alarms"): `holds` raises an alarm, `clears`
 * ends it. `threshold` widens the way back: raised by `gt 240` with threshold 5, the alarm clears at
 * 235 or below, so a value hovering around 240 does not raise and clear it over and over.
 */
export type Condition = 'gt' | 'lt' | 'eq' | 'ne' | 'gte' | 'lte' | 'between' | 'notBetween';

export interface Bounds {
  condition: Condition;
  value: number;
  /** The upper bound of `between` and `notBetween`. */
  value2: number;
  /** The hysteresis, ≥ 0. */
  threshold: number;
}

export const CONDITION_NAMES: readonly Condition[] = ['gt', 'lt', 'eq', 'ne', 'gte', 'lte', 'between', 'notBetween'];

export function holds(b: Bounds, x: number): boolean {
  switch (b.condition) {
    case 'gt':
      return x > b.value;
    case 'lt':
      return x < b.value;
    case 'gte':
      return x >= b.value;
    case 'lte':
      return x <= b.value;
    case 'eq':
      return x === b.value;
    case 'ne':
      return x !== b.value;
    case 'between':
      return x >= b.value && x <= b.value2;
    case 'notBetween':
      return x < b.value || x > b.value2;
  }
}

export function clears(b: Bounds, x: number): boolean {
  const h = b.threshold;
  switch (b.condition) {
    case 'gt':
      return x <= b.value - h;
    case 'gte':
      return x < b.value - h;
    case 'lt':
      return x >= b.value + h;
    case 'lte':
      return x > b.value + h;
    // Equality has no side to widen: the alarm clears when the condition no longer holds.
    case 'eq':
      return x !== b.value;
    case 'ne':
      return x === b.value;
    // Back outside the band by the threshold.
    case 'between':
      return x < b.value - h || x > b.value2 + h;
    // Back inside the band by the threshold; a band narrower than twice the threshold clears in its middle.
    case 'notBetween': {
      const middle = (b.value + b.value2) / 2;
      return x >= Math.min(b.value + h, middle) && x <= Math.max(b.value2 - h, middle);
    }
  }
}
