import type { ReportExportRequest, ReportFormat, ReportKind, TemplateRunRequest } from '@lampyr/contract';
import { send } from './api-client.ts';
import { saveFile } from './transfer-api.ts';

/** A report over a long period is computed whole before the file comes: wait longer than for a page. */
const EXPORT_TIMEOUT_MS = 120_000;

function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (utf8) return decodeURIComponent(utf8);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/** `POST reports/{kind}/export`: the whole report as a file, handed to the browser's downloads. */
export async function downloadReport(kind: ReportKind, body: ReportExportRequest): Promise<void> {
  const response = await send('query', `reports/${kind}/export`, {
    method: 'POST',
    body,
    timeoutMs: EXPORT_TIMEOUT_MS,
  });
  saveFile(await response.blob(), fileNameOf(response, `${kind}-report.${body.format}`));
}

/** `POST report-templates/{id}/export`: a saved report rerun over a period, as a file. */
export async function downloadTemplate(id: number, body: TemplateRunRequest, fallback: ReportFormat): Promise<void> {
  const response = await send('query', `report-templates/${id}/export`, {
    method: 'POST',
    body,
    timeoutMs: EXPORT_TIMEOUT_MS,
  });
  saveFile(await response.blob(), fileNameOf(response, `report.${body.format ?? fallback}`));
}
