/**
 * A list page's rows, turned from the driver's arrays into records by a mapper made once per
 * prepared statement. Drizzle's own mapper walks every cell's field path and class on every row and
 * reads a timestamp through `new Date(text)` (V8's slow fallback parser for PostgreSQL's
 * `2026-11-25 14:30:00.123456+00`): together about 6 % of a list call's CPU in bench:api.
 */
import { is } from 'drizzle-orm';
import { PgColumn, PgTimestamp } from 'drizzle-orm/pg-core';

type Decode = (value: unknown) => unknown;

/** The value of the digits from..to of `text`, or NaN if any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/** `YYYY-MM-DD HH:MM:SS` at the start of the text, by its separators (the digits are read after). */
function hasDateTimeShape(text: string): boolean {
  return (
    text.length >= 19 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 32 &&
    text.charCodeAt(13) === 58 &&
    text.charCodeAt(16) === 58
  );
}

/** How Drizzle reads a timestamp's text. */
function drizzleReads(text: string, withTimezone: boolean): Date {
  return new Date(withTimezone ? text : `${text}+0000`);
}

/**
 * A timestamp in PostgreSQL's ISO output (`YYYY-MM-DD HH:MM:SS[.ffffff][±HH[:MM[:SS]]]`) as the
 * instant `new Date(text)` gives (milliseconds truncated, as V8 does). Anything else (a year before
 * 100 or after 9999, BC, infinity, another DateStyle) goes to `new Date`, as Drizzle reads it; a
 * timestamp without time zone is read as UTC, as Drizzle does.
 */
export function parseTimestamp(text: string, withTimezone: boolean): Date {
  const n = text.length;
  if (!hasDateTimeShape(text)) return drizzleReads(text, withTimezone);
  const year = digits(text, 0, 4);
  let i = 19;
  let ms = 0;
  if (i < n && text.charCodeAt(i) === 46) {
    i++;
    let scale = 100;
    while (i < n) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      ms += d * scale;
      scale = scale === 1 ? 0 : scale / 10;
      i++;
    }
  }
  let offset = 0;
  if (i < n) {
    const sign = text.charCodeAt(i);
    if (sign !== 43 && sign !== 45) return drizzleReads(text, withTimezone);
    let seconds = digits(text, i + 1, i + 3) * 3600;
    i += 3;
    if (i < n && text.charCodeAt(i) === 58) {
      seconds += digits(text, i + 1, i + 3) * 60;
      i += 3;
    }
    if (i < n && text.charCodeAt(i) === 58) {
      seconds += digits(text, i + 1, i + 3);
      i += 3;
    }
    if (i !== n) return drizzleReads(text, withTimezone);
    offset = sign === 43 ? seconds : -seconds;
  } else if (withTimezone) return drizzleReads(text, withTimezone);
  const time =
    Date.UTC(
      year,
      digits(text, 5, 7) - 1,
      digits(text, 8, 10),
      digits(text, 11, 13),
      digits(text, 14, 16),
      digits(text, 17, 19),
      ms,
    ) -
    offset * 1000;
  // NaN from a non-digit; Date.UTC reads years 0-99 as 1900-1999.
  if (Number.isNaN(time) || year < 100) return drizzleReads(text, withTimezone);
  return new Date(time);
}

/**
 * A timestamp's text as a JSON answer writes its instant (`toISOString`: UTC, milliseconds), cut
 * straight from the text when PostgreSQL wrote it in UTC (`+00`, the session zone Lampyr's servers
 * run in); from its Date otherwise. A text no Date can hold stays a Date, which the answer treats
 * as it always did.
 */
export function isoTimestamp(text: string, withTimezone: boolean): string | Date {
  const n = text.length;
  const end = withTimezone ? n - 3 : n;
  const utc =
    !withTimezone || (text.charCodeAt(n - 3) === 43 && text.charCodeAt(n - 2) === 48 && text.charCodeAt(n - 1) === 48);
  if (
    utc &&
    end >= 19 &&
    text.charCodeAt(0) !== 48 &&
    hasDateTimeShape(text) &&
    !Number.isNaN(digits(text, 0, 4) + digits(text, 5, 7) + digits(text, 8, 10)) &&
    !Number.isNaN(digits(text, 11, 13) + digits(text, 14, 16) + digits(text, 17, 19))
  ) {
    if (end === 19) return `${text.slice(0, 10)}T${text.slice(11, 19)}.000Z`;
    if (text.charCodeAt(19) === 46 && end > 20 && !Number.isNaN(digits(text, 20, end))) {
      const ms = end >= 23 ? text.slice(20, 23) : text.slice(20, end).padEnd(3, '0');
      return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
    }
  }
  const date = parseTimestamp(text, withTimezone);
  return Number.isNaN(date.getTime()) ? date : date.toISOString();
}

function decoder(field: unknown, isoTimestamps: boolean): Decode | undefined {
  if (!is(field, PgColumn)) return undefined;
  if (is(field, PgTimestamp)) {
    const withTimezone = field.withTimezone;
    const read = isoTimestamps ? isoTimestamp : parseTimestamp;
    return (value) => (typeof value === 'string' ? read(value, withTimezone) : field.mapFromDriverValue(value as Date));
  }
  return (value) => field.mapFromDriverValue(value);
}

interface PreparedWithRows {
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/**
 * Gives a prepared select of plain columns (no joins, no SQL expressions) the fast mapper. Returns
 * whether it did: a statement it cannot read (another shape, or a Drizzle whose internals moved)
 * keeps Drizzle's own mapping, which gives the same records. With `isoTimestamps` (records bound for
 * a JSON answer, nowhere else) a timestamp is the ISO text the answer would write for its Date.
 */
export function withFastRows(statement: unknown, { isoTimestamps = false } = {}): boolean {
  const prepared = statement as PreparedWithRows;
  const fields = prepared.fields;
  if (!Array.isArray(fields) || !('customResultMapper' in prepared) || prepared.customResultMapper) return false;
  const keys: string[] = [];
  const decoders: Decode[] = [];
  for (const { path, field } of fields) {
    const decode = decoder(field, isoTimestamps);
    if (path.length !== 1 || !decode) return false;
    keys.push(path[0] as string);
    decoders.push(decode);
  }
  const width = keys.length;
  prepared.customResultMapper = (rows) => {
    const records = new Array<Record<string, unknown>>(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as unknown[];
      const record: Record<string, unknown> = {};
      for (let c = 0; c < width; c++) {
        const value = row[c];
        record[keys[c] as string] = value === null ? null : (decoders[c] as Decode)(value);
      }
      records[r] = record;
    }
    return records;
  };
  return true;
}
