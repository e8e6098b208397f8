/**
 * Exports and imports of any list (`POST {QUERY_URL}/{prefix}/export`,
 * `POST {COMMAND_URL}/{prefix}/import`): the bodies and the import's NDJSON answer.
 */
import { z } from 'zod';
import { listBodySchema } from './wire.ts';

export const TRANSFER_FORMATS = ['csv', 'xlsx'] as const;
export type TransferFormat = (typeof TRANSFER_FORMATS)[number];

/** The largest file an import takes (before base64). */
export const IMPORT_MAX_BYTES = 15 * 1024 * 1024;

/** The list's body (filters, columns, sort) and the file's format; the page is ignored. */
export const exportBodySchema = listBodySchema.extend({
  format: z.enum(TRANSFER_FORMATS),
  pageable: listBodySchema.shape.pageable.optional(),
});
export type ExportBody = z.input<typeof exportBodySchema>;

/** The file, base64. */
export const importBodySchema = z.object({
  fileName: z.string().regex(/\.(csv|xlsx)$/i, 'must end in .csv or .xlsx'),
  content: z
    .string()
    .min(1)
    .max(Math.ceil((IMPORT_MAX_BYTES * 4) / 3)),
});
export type ImportBody = z.infer<typeof importBodySchema>;

/** A row the import refused (the header is row 1), with the message of each field. */
export interface RefusedRow {
  row: number;
  errors: Record<string, string>;
}

export interface ImportReport {
  total: number;
  imported: number;
  refused: RefusedRow[];
}

export interface ImportProgress {
  done: number;
  total: number;
}

/**
 * One line of the import's answer: progress as rows go in, then the report; a server stopped
 * part-way answers the error with the report of what it did.
 */
export type ImportLine =
  | { progress: ImportProgress }
  | { report: ImportReport }
  | { error: { code: string; message: string }; report: ImportReport };
