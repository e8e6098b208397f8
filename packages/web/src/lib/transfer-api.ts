import type {
  Condition,
  ExportBody,
  ImportBody,
  ImportLine,
  ImportProgress,
  ImportReport,
  TransferFormat,
} from '@lampyr/contract';
import { send } from './api-client.ts';
import { type FilterObject, normalizeFilter } from './resource-api.ts';

export interface ExportParams {
  filter?: FilterObject | null;
  detailFilter?: Condition[] | null;
  selectedColumns?: Record<string, boolean> | null;
  sort?: string[];
}

/** An import may take a while on the server before the first line: wait longer than for a list. */
const TRANSFER_TIMEOUT_MS = 120_000;

function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/** Export: `POST {query}/{prefix}/export` with the list's filters, columns and sort; answers the file. */
export async function exportList(
  prefix: string,
  params: ExportParams,
  format: TransferFormat,
): Promise<{ blob: Blob; fileName: string }> {
  const selected = params.selectedColumns ? Object.entries(params.selectedColumns).filter(([, on]) => on) : [];
  const body: ExportBody = {
    filter: normalizeFilter(params.filter),
    detailFilter: params.detailFilter ?? [],
    selectedColumns: selected.length ? Object.fromEntries(selected) : null,
    pageable: { page: 1, size: 1, sort: params.sort ?? [] },
    format,
  };
  const response = await send('query', `${prefix}/export`, {
    method: 'POST',
    body,
    timeoutMs: TRANSFER_TIMEOUT_MS,
  });
  return { blob: await response.blob(), fileName: fileNameOf(response, `${prefix}.${format}`) };
}

/** Hands a file to the browser's downloads through a temporary link. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function toBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

export interface ImportOutcome {
  report?: ImportReport;
  /** The server stopped part-way (`{"error": ..., "report": ...}`). */
  error?: { code?: string; message?: string };
}

/** The lines of an NDJSON body as they arrive, however the network cuts the chunks. */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = done ? '' : (lines.pop() ?? '');
      for (const line of lines) if (line.trim() !== '') yield JSON.parse(line);
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Folds the import stream's lines: progress lines to `onProgress`, the last report and error kept. */
export async function readImportStream(
  body: ReadableStream<Uint8Array>,
  onProgress: (progress: ImportProgress) => void,
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = {};
  for await (const line of ndjsonLines(body)) {
    if (typeof line !== 'object' || line === null) continue;
    const item = line as Partial<Extract<ImportLine, { progress: unknown }> & Extract<ImportLine, { error: unknown }>>;
    if (item.progress) onProgress(item.progress);
    if (item.report) outcome.report = item.report;
    if (item.error) outcome.error = item.error;
  }
  return outcome;
}

/**
 * Import: `POST {command}/{prefix}/import` with `{fileName, content}` (base64). A 4xx (unknown
 * columns, an unreadable file) is thrown as an HttpError; otherwise the NDJSON answer is read.
 */
export async function importFile(
  prefix: string,
  file: File,
  onProgress: (progress: ImportProgress) => void,
  signal?: AbortSignal,
): Promise<ImportOutcome> {
  const body: ImportBody = { fileName: file.name, content: await toBase64(file) };
  const response = await send('command', `${prefix}/import`, {
    method: 'POST',
    body,
    signal,
    timeoutMs: TRANSFER_TIMEOUT_MS,
  });
  if (!response.body) return {};
  return readImportStream(response.body, onProgress);
}
