import { Readable, type Writable } from 'node:stream';
import type { FieldDef, FieldKind, ResourceDef, TransferFormat } from '@lampyr/contract';
import { NUMERIC_KINDS } from '@lampyr/contract';
import ExcelJS from 'exceljs';
import { parse as parseCsv } from 'fast-csv';
import type { TFunction } from 'i18next';
import { fieldLabel, optionLabel } from '../i18n/translate.ts';
import { checkedXlsx, FileRefused } from './xlsx-guard.ts';

type Cell = string | number | boolean | Date | null;

// ─── formula injection ──────────────────────────────────────────────────────

/** What a spreadsheet would run as a formula (or hide a formula behind), per OWASP "CSV injection". */
const FORMULA_START = /^[=+\-@\t\r]/;
const QUOTED_FORMULA_START = /^'[=+\-@\t\r]/;

/**
 * A text that a spreadsheet would take for a formula gets a leading `'`, so `=HYPERLINK(...)` is
 * shown, never run. Numbers stay numbers (a number field's -5 is written as the number -5).
 */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The import's side of `neutralise`: one leading `'` before `= + - @` tab or CR is dropped again. */
export function unneutralise(text: string): string {
  return QUOTED_FORMULA_START.test(text) ? text.slice(1) : text;
}

/** A stored value as an exported cell. */
function exportCell(kind: FieldKind | undefined, value: unknown, format: TransferFormat): Cell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return format === 'csv' ? value.toISOString() : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'object') return neutralise(JSON.stringify(value));
  const text = String(value);
  // Numeric columns the driver returns as text (numeric, bigint) are written as numbers.
  if (kind && NUMERIC_KINDS.includes(kind) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return neutralise(text);
}

// ─── export ─────────────────────────────────────────────────────────────────

/** Resolves once `out` has room again (or is gone: a client that hung up). */
function room(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

function closed(out: Writable): Promise<void> {
  if (out.closed || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => out.once('close', () => resolve()));
}

const csvField = (cell: Cell): string => {
  if (cell === null) return '';
  const text = cell instanceof Date ? cell.toISOString() : String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export interface RowWriter {
  /** Writes one page of rows; resolves when `out` can take more. */
  write(rows: Record<string, unknown>[]): Promise<void>;
  end(): Promise<void>;
}

/**
 * Writes rows as CSV or XLSX to `out` as they come (the header row holds field names, so an export
 * imports back). XLSX goes through exceljs' streaming writer: a row is committed, then forgotten.
 */
export function rowWriter(
  format: TransferFormat,
  columns: string[],
  kinds: Map<string, FieldKind>,
  out: Writable,
  header: string[] = columns,
): RowWriter {
  // A reference resolved to its name is text, whatever the id column's kind.
  const cells = (row: Record<string, unknown>) =>
    columns.map((c) => exportCell(typeof row[c] === 'string' ? 'text' : kinds.get(c), row[c], format));
  if (format === 'csv') {
    out.write(`${header.map(csvField).join(',')}\n`);
    return {
      async write(rows) {
        for (const row of rows) out.write(`${cells(row).map(csvField).join(',')}\n`);
        await room(out);
      },
      async end() {
        out.end();
      },
    };
  }
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('data');
  sheet.columns = columns.map((key, i) => {
    const title = header[i] ?? key;
    return { header: title, key, width: Math.max(12, title.length + 2) };
  });
  sheet.getRow(1).font = { bold: true };
  return {
    async write(rows) {
      for (const row of rows) sheet.addRow(cells(row)).commit();
      await room(out);
    },
    async end() {
      sheet.commit();
      // A client that hung up never lets the zip finish: stop waiting when the answer is gone.
      await Promise.race([workbook.commit(), closed(out)]);
    },
  };
}

// ─── import ─────────────────────────────────────────────────────────────────

const plain = (value: ExcelJS.CellValue): Cell => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return unneutralise(value);
  if (value instanceof Date || typeof value !== 'object') return value as Cell;
  if ('text' in value && typeof value.text === 'string') return unneutralise(value.text);
  if ('result' in value) return plain(value.result as ExcelJS.CellValue);
  if ('richText' in value) return unneutralise(value.richText.map((r) => r.text).join(''));
  return String(value);
};

const PIECE = 16 * 1024;

function* pieces(buffers: Buffer[]): Generator<Buffer> {
  for (const buffer of buffers) for (let at = 0; at < buffer.length; at += PIECE) yield buffer.subarray(at, at + PIECE);
}

/**
 * The rows of a CSV file or of an XLSX file's first sheet, header first, read as a stream: the
 * caller stops when it has enough, and the rest is never parsed. An XLSX is checked against
 * XLSX_LIMITS first (`FileRefused`); an unreadable file throws `FileRefused` too.
 */
export async function* readRows(format: TransferFormat, content: Buffer): AsyncGenerator<Cell[]> {
  const bytes =
    format === 'xlsx'
      ? await checkedXlsx(content)
      : [content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? content.subarray(3) : content];
  // Bytes, not objects, in small pieces pulled as the parser wants them: a parser given one large
  // chunk would turn all of it into rows at once, whatever the consumer has asked for.
  const source = Readable.from(pieces(bytes), { objectMode: false });
  try {
    if (format === 'csv') {
      const parser = source.pipe(parseCsv({ ignoreEmpty: true }));
      source.on('error', (error) => parser.destroy(error));
      try {
        for await (const row of parser as AsyncIterable<string[]>) {
          yield row.map((cell) => (cell === '' ? null : unneutralise(cell)));
        }
      } finally {
        parser.destroy();
      }
      return;
    }
    const workbook = new ExcelJS.stream.xlsx.WorkbookReader(source, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    for await (const sheet of workbook) {
      for await (const row of sheet) yield (row.values as ExcelJS.CellValue[]).slice(1).map(plain);
      break; // the first sheet only
    }
  } catch (error) {
    if (error instanceof FileRefused) throw error;
    throw new FileRefused('errors.fileUnreadable', { format: format.toUpperCase() });
  } finally {
    source.destroy();
  }
}

/**
 * Maps a file's header to fields: a column may be named by the field (`serialNumber`) or by its
 * English or Turkish label (`Serial number`, `Seri numarası`), in any letter case.
 */
export function matchColumns(
  resource: ResourceDef,
  header: string[],
  translators: TFunction[],
): { fields: (string | undefined)[]; unknown: string[] } {
  const names = new Map<string, string>();
  // What an export writes but a new record does not take (read-only fields, the record's audit
  // times, its account — an import writes into the account it is made in): recognised, so an
  // exported file imports back, and left out.
  const skipped = new Set<string>(['id']);
  for (const name of [...Object.keys(resource.fields), 'createdAt', 'updatedAt', 'accountId']) {
    const writable = Boolean(resource.fields[name]) && !resource.fields[name]?.readOnly;
    const spellings = [name, ...translators.map((t) => fieldLabel(t, resource.name, name))].map((n) => n.toLowerCase());
    for (const spelling of spellings) {
      if (writable) names.set(spelling, name);
      else skipped.add(spelling);
    }
  }
  const fields = header.map((h) => names.get(h.toLowerCase()));
  const unknown = header.filter((h, i) => h && !fields[i] && !skipped.has(h.toLowerCase()));
  return { fields, unknown };
}

/**
 * An export writes an enum option as the screen's label in the exporter's language; an import takes
 * it back in any language (and the value itself): per enum field, each spelling in lower case → its
 * option. Where two options read alike in a language, the first keeps the spelling.
 */
export function optionValues(resource: ResourceDef, translators: TFunction[]): Map<string, Map<string, string>> {
  const byField = new Map<string, Map<string, string>>();
  for (const [name, def] of Object.entries(resource.fields)) {
    if (def.kind !== 'enum' || !def.options) continue;
    const spellings = new Map<string, string>();
    for (const option of def.options) spellings.set(option.toLowerCase(), option);
    for (const t of translators)
      for (const option of def.options) {
        const label = optionLabel(t, resource.name, name, option).toLowerCase();
        if (!spellings.has(label)) spellings.set(label, option);
      }
    byField.set(name, spellings);
  }
  return byField;
}

/** The enum options of rows as labels in the language of `t` (codes stay as they are). */
export function optionLabels(
  resource: ResourceDef,
  columns: string[],
  rows: Record<string, unknown>[],
  t: TFunction,
): Record<string, unknown>[] {
  const enums = columns.filter((c) => resource.fields[c]?.kind === 'enum' && !resource.fields[c]?.codes);
  if (!enums.length) return rows;
  return rows.map((row) => {
    const labelled = { ...row };
    for (const c of enums)
      if (typeof row[c] === 'string' && row[c]) labelled[c] = optionLabel(t, resource.name, c, row[c] as string);
    return labelled;
  });
}

const TRUE = new Set(['true', 'yes', 'evet', '1', 'x']);
const FALSE = new Set(['false', 'no', 'hayır', 'hayir', '0', '']);

/** A cell as the field's JSON value; a reference given by name is left as text for the caller. */
export function cellValue(def: FieldDef, cell: Cell): unknown {
  if (cell === null || cell === '') return undefined;
  switch (def.kind) {
    case 'integer':
    case 'number': {
      const n = typeof cell === 'number' ? cell : Number(String(cell).trim().replace(',', '.'));
      return Number.isFinite(n) ? n : cell;
    }
    case 'boolean': {
      if (typeof cell === 'boolean') return cell;
      const text = String(cell).trim().toLowerCase();
      return TRUE.has(text) ? true : FALSE.has(text) ? false : cell;
    }
    case 'reference':
      return typeof cell === 'number' ? cell : /^\d+$/.test(String(cell).trim()) ? Number(cell) : String(cell).trim();
    case 'datetime':
      return cell instanceof Date ? cell.toISOString() : String(cell).trim();
    case 'date':
      return cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell).trim();
    case 'json':
      try {
        return JSON.parse(String(cell));
      } catch {
        return cell;
      }
    default:
      return String(cell).trim();
  }
}
