import { Parser } from 'expr-eval-fork';

/**
 * Channel formulas: arithmetic, comparisons and `min max abs round`, nothing else — no functions
 * that loop, allocate or reach outside the expression. The raw value is `x`; `variables` name
 * further constants.
 */
const parser = new Parser({
  operators: {
    add: true,
    subtract: true,
    multiply: true,
    divide: true,
    remainder: true,
    power: true,
    comparison: true,
    concatenate: false,
    conditional: false,
    factorial: false,
    logical: false,
    in: false,
    assignment: false,
    fndef: false,
    random: false,
    length: false,
  },
});
const ALLOWED_UNARY = new Set(['-', '+', 'abs', 'round']);
const ALLOWED_FUNCTIONS = new Set(['min', 'max']);
for (const name of Object.keys(parser.unaryOps)) if (!ALLOWED_UNARY.has(name)) delete parser.unaryOps[name];
for (const name of Object.keys(parser.functions)) if (!ALLOWED_FUNCTIONS.has(name)) delete parser.functions[name];
for (const name of Object.keys(parser.consts)) delete parser.consts[name];

export class FormulaError extends Error {}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `"k=0.1; offset=-40"` or `"k=0.1,offset=-40"` → `{k: 0.1, offset: -40}`. */
export function parseVariables(text: string | null | undefined): Record<string, number> {
  const variables: Record<string, number> = {};
  for (const part of (text ?? '').split(/[;,]/)) {
    const item = part.trim();
    if (!item) continue;
    const [name, value, extra] = item.split('=').map((s) => s.trim());
    const number = Number(value);
    if (!name || !NAME.test(name) || name === 'x' || value === undefined || value === '' || extra !== undefined) {
      throw new FormulaError(`bad variable "${item}"`);
    }
    if (!Number.isFinite(number)) throw new FormulaError(`variable ${name} is not a number`);
    variables[name] = number;
  }
  return variables;
}

export type Formula = (x: number) => number;

/** Compiles a formula once; the result maps a raw value to the engineering value. */
export function compileFormula(formula: string | null | undefined, variablesText?: string | null): Formula {
  const source = (formula ?? '').trim() || 'x';
  if (source === 'x') return (x) => x;
  const variables = parseVariables(variablesText);
  let expression: ReturnType<Parser['parse']>;
  try {
    expression = parser.parse(source);
  } catch (error) {
    throw new FormulaError(`cannot parse "${source}": ${(error as Error).message}`);
  }
  const unknown = expression.variables().filter((name) => name !== 'x' && !(name in variables));
  if (unknown.length) throw new FormulaError(`unknown name ${unknown.join(', ')} in "${source}"`);
  return (x) => {
    const result: unknown = expression.evaluate({ ...variables, x });
    const value = typeof result === 'boolean' ? Number(result) : result;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new FormulaError(`"${source}" gave no finite number`);
    return value;
  };
}

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
