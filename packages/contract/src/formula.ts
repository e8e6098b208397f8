import { Parser } from 'expr-eval-fork';
import type { FieldError } from './validation.ts';

/**
 * Channel formulas: arithmetic, comparisons and `min max abs round`, nothing else — no member
 * access, no functions that loop, allocate or reach outside the expression. The raw value is `x`;
 * `variables` name further constants. Pure (no I/O), so the server checks a template with it on
 * save, the ingest decodes with it, and the console's form gives the same verdict.
 */
const parser = new Parser({
  allowMemberAccess: false,
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

/** What is wrong with a formula or its variables, as a translation key (`validation.*`) and its values. */
export class FormulaError extends Error {
  constructor(
    message: string,
    readonly field: 'formula' | 'variables' = 'formula',
    readonly problem: FieldError = { key: 'validation.formulaSyntax', vars: { detail: message } },
  ) {
    super(message);
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_FORMULA = 255;

/** `"k=0.1; offset=-40"` or `"k=0.1,offset=-40"` → `{k: 0.1, offset: -40}`. */
export function parseVariables(text: string | null | undefined): Record<string, number> {
  const variables: Record<string, number> = Object.create(null);
  for (const part of (text ?? '').split(/[;,]/)) {
    const item = part.trim();
    if (!item) continue;
    const [name, value, extra] = item.split('=').map((s) => s.trim());
    const number = Number(value);
    if (!name || !NAME.test(name) || name === 'x' || value === undefined || value === '' || extra !== undefined) {
      throw new FormulaError(`bad variable "${item}"`, 'variables', {
        key: 'validation.variablesSyntax',
        vars: { item },
      });
    }
    if (!Number.isFinite(number)) {
      throw new FormulaError(`variable ${name} is not a number`, 'variables', {
        key: 'validation.variablesSyntax',
        vars: { item },
      });
    }
    variables[name] = number;
  }
  return variables;
}

export type Formula = (x: number) => number;

interface Instruction {
  type: string;
  value: unknown;
}

/**
 * Walks the parsed instructions as the evaluator would run them: numbers, `x`, the declared
 * variables, unary and binary operators and calls of `min`/`max` only, giving exactly one number.
 * Names are looked up with `Object.hasOwn`, so `constructor`, `__proto__` or `toString` (names every
 * object inherits) are unknown names, not variables.
 */
function checkShape(source: string, tokens: Instruction[], variables: Record<string, number>): void {
  const unknown = new Set<string>();
  const stack: ('value' | 'function')[] = [];
  let shape = true;
  const take = (n: number) => {
    for (let i = 0; i < n; i++) if (stack.pop() !== 'value') shape = false;
  };
  for (const item of tokens) {
    switch (item.type) {
      case 'INUMBER':
        if (typeof item.value !== 'number') shape = false;
        stack.push('value');
        break;
      case 'IVAR': {
        const name = String(item.value);
        if (ALLOWED_FUNCTIONS.has(name)) stack.push('function');
        else {
          if (name !== 'x' && !Object.hasOwn(variables, name)) unknown.add(name);
          stack.push('value');
        }
        break;
      }
      case 'IOP1':
        if (!ALLOWED_UNARY.has(String(item.value))) unknown.add(String(item.value));
        take(1);
        stack.push('value');
        break;
      case 'IOP2':
        take(2);
        stack.push('value');
        break;
      case 'IFUNCALL':
        take(Number(item.value));
        if (stack.pop() !== 'function') shape = false;
        stack.push('value');
        break;
      default: // arrays, statements, member access, function definitions
        shape = false;
    }
  }
  if (unknown.size) {
    const names = [...unknown].join(', ');
    throw new FormulaError(`unknown name ${names} in "${source}"`, 'formula', {
      key: 'validation.formulaUnknown',
      vars: { names },
    });
  }
  if (!shape || stack.length !== 1 || stack[0] !== 'value') {
    throw new FormulaError(`"${source}" is not a single number`, 'formula', { key: 'validation.formulaShape' });
  }
}

/** Compiles a formula once; the result maps a raw value to the engineering value. */
export function compileFormula(formula: string | null | undefined, variablesText?: string | null): Formula {
  const source = (formula ?? '').trim() || 'x';
  if (source === 'x') return (x) => x;
  const variables = parseVariables(variablesText);
  if (source.length > MAX_FORMULA) {
    throw new FormulaError(`longer than ${MAX_FORMULA} characters`, 'formula', {
      key: 'validation.maxLength',
      vars: { maxLength: MAX_FORMULA },
    });
  }
  let expression: ReturnType<Parser['parse']>;
  try {
    expression = parser.parse(source);
  } catch (error) {
    const message = (error as Error).message;
    if (/member access/i.test(message)) {
      throw new FormulaError(`member access in "${source}"`, 'formula', { key: 'validation.formulaMember' });
    }
    throw new FormulaError(`cannot parse "${source}": ${message}`, 'formula', {
      key: 'validation.formulaSyntax',
      vars: { detail: message.replace(/^parse error /, '') },
    });
  }
  checkShape(source, (expression as unknown as { tokens: Instruction[] }).tokens, variables);
  return (x) => {
    const result: unknown = expression.evaluate({ ...variables, x });
    const value = typeof result === 'boolean' ? Number(result) : result;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new FormulaError(`"${source}" gave no finite number`);
    return value;
  };
}

/**
 * A channel template's `formula` with its `variables`, as a resource rule: parsed exactly as the
 * ingest will parse it, so a bad one is refused on save with a field message naming the problem.
 */
export function formulaRule(record: Record<string, unknown>): Record<string, FieldError> | undefined {
  const formula = record.formula;
  const variables = record.variables;
  if (formula !== undefined && formula !== null && typeof formula !== 'string') return undefined;
  if (variables !== undefined && variables !== null && typeof variables !== 'string') return undefined;
  try {
    compileFormula(formula, variables);
    return undefined;
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    return { [error.field]: error.problem };
  }
}
