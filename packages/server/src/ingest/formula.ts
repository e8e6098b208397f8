import type { Formula } from '@lampyr/contract';

/** The evaluator lives in the contract, so a template is checked on save exactly as it is decoded. */
export { compileFormula, type Formula, FormulaError, parseVariables } from '@lampyr/contract';

/**
 * Writes go the other way round: an engineering value back to the raw value. Only affine formulas
 * (`x * k + b`, the only kind a write channel has in practice) can be inverted; checked on three points.
 */
export function invertFormula(formula: Formula): ((value: number) => number) | undefined {
  try {
    const f0 = formula(0);
    const f1 = formula(1);
    const f7 = formula(7);
    const slope = f1 - f0;
    if (slope === 0 || Math.abs(f0 + 7 * slope - f7) > 1e-9 * Math.max(1, Math.abs(f7))) return undefined;
    return (value) => (value - f0) / slope;
  } catch {
    return undefined;
  }
}
