import { sql } from 'drizzle-orm';

/**
 * One array parameter, written as PostgreSQL's array literal here: node-postgres would escape every
 * element through its generic value preparation, the largest single cost of a flush. Numbers go as
 * they print; a text goes bare when it holds only characters an array literal leaves alone.
 */
const BARE = /^[A-Za-z0-9_:.+-]+$/;
const element = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return BARE.test(text) && text.toUpperCase() !== 'NULL' ? text : `"${text.replace(/[\\"]/g, '\\$&')}"`;
};
/**
 * The array literal of one column of `rows`, written in one pass; a value equal to the one before
 * it (the five readings of an uplink share device, time and frame) reuses its text.
 */
export function columnLiteral<T>(rows: readonly T[], pick: (row: T) => unknown): string {
  let out = '{';
  let last: unknown;
  let lastText = '';
  for (let i = 0; i < rows.length; i++) {
    const value = pick(rows[i] as T);
    if (i === 0 || value !== last) {
      last = value;
      lastText = element(value);
    }
    out += i === 0 ? lastText : `,${lastText}`;
  }
  return `${out}}`;
}
export const arrayLiteral = (values: readonly unknown[]): string => columnLiteral(values, (v) => v);

/** One column of `rows` as one array parameter. */
export const column = <T>(rows: readonly T[], pick: (row: T) => unknown) => sql.param(columnLiteral(rows, pick));
/** ISO text of a time; the readings of one uplink share one Date, so the last answer is kept. */
export function isoOf(): (d: Date) => string {
  let last: Date | undefined;
  let text = '';
  return (d) => {
    if (d !== last) {
      last = d;
      text = d.toISOString();
    }
    return text;
  };
}
export const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
