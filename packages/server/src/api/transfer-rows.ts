import { Readable } from 'node:stream';
import type { FieldDef, ResourceDef } from '@lampyr/contract';
import ExcelJS from 'exceljs';
import type { TFunction } from 'i18next';
import { fieldLabel } from '../i18n/translate.ts';

export type TransferFormat = 'csv' | 'xlsx';
type Cell = string | number | boolean | Date | null;

/** Writes rows as CSV or XLSX; the header row holds field names, so an export imports back. */
export async function writeRows(
  format: TransferFormat,
  columns: string[],
  rows: Record<string, unknown>[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('data');
  sheet.columns = columns.map((key) => ({ header: key, key, width: Math.max(12, key.length + 2) }));
  for (const row of rows) {
    sheet.addRow(
      Object.fromEntries(
        columns.map((c) => {
          const v = row[c];
          return [c, v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v];
        }),
      ),
    );
  }
  if (format === 'xlsx') sheet.getRow(1).font = { bold: true };
  const buffer = format === 'csv' ? await workbook.csv.writeBuffer() : await workbook.xlsx.writeBuffer();
  return Buffer.from(buffer as ArrayBuffer);
}

const plain = (value: ExcelJS.CellValue): Cell => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date || typeof value !== 'object') return value as Cell;
  if ('text' in value && typeof value.text === 'string') return value.text;
  if ('result' in value) return plain(value.result as ExcelJS.CellValue);
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  return String(value);
};

/** Reads the first sheet of an XLSX file, or a CSV file, into a header row and data rows. */
export async function readRows(format: TransferFormat, content: Buffer): Promise<{ header: string[]; rows: Cell[][] }> {
  const workbook = new ExcelJS.Workbook();
  const sheet =
    format === 'xlsx'
      ? (await workbook.xlsx.load(content as unknown as ArrayBuffer)).worksheets[0]
      : await workbook.csv.read(Readable.from([content]));
  if (!sheet) return { header: [], rows: [] };
  const header: string[] = [];
  const rows: Cell[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const values = (row.values as ExcelJS.CellValue[]).slice(1).map(plain);
    if (number === 1) header.push(...values.map((v) => String(v ?? '').trim()));
    else rows.push(values);
  });
  return { header, rows };
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
  for (const name of Object.keys(resource.fields)) {
    if (resource.fields[name]?.readOnly) continue;
    names.set(name.toLowerCase(), name);
    for (const t of translators) names.set(fieldLabel(t, resource.name, name).toLowerCase(), name);
  }
  const fields = header.map((h) => names.get(h.toLowerCase()));
  const unknown = header.filter((h, i) => h && !fields[i] && h.toLowerCase() !== 'id');
  return { fields, unknown };
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
