import {
  getResource,
  type Language,
  REPORT_KINDS,
  type ReportKind,
  reportExportRequestSchema,
  reportTemplateInputSchema,
  templateRunRequestSchema,
} from '@lampyr/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badValue } from '../errors/api-exception.ts';
import { pickLanguage, translator } from '../i18n/translate.ts';
import { reportDocument } from '../reports/report-document.ts';
import { exportReport } from '../reports/report-export.ts';
import { chooseColumns, parseReportRequest, runReport, runWholeReport } from '../reports/report-runner.ts';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  toWire,
  updateTemplate,
} from '../reports/report-templates.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

/** What a report reads, so who may read that may run it: devices (energy, assets), the alarm log or the work orders. */
const SOURCE: Record<ReportKind, string> = {
  energy: 'devices',
  alarms: 'alert-logs',
  assets: 'devices',
  maintenance: 'report-a-fault',
};

const kindParam = (raw: string): ReportKind => {
  if (!(REPORT_KINDS as readonly string[]).includes(raw)) throw badValue('kind', `expected ${REPORT_KINDS.join(', ')}`);
  return raw as ReportKind;
};
const idParam = (raw: string) => {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw badValue('id', 'expected a positive whole number');
  return id;
};

/** The caller's account, after checking they may read what `kind` reads. */
function accountFor(request: FastifyRequest, kind: ReportKind): number {
  const actor = authorize(request, getResource(SOURCE[kind]), 'read');
  return actor.account?.accountId as number;
}

/** RFC 6266: an ASCII fallback name and the UTF-8 one. */
function sendFile(reply: FastifyReply, file: { filename: string; contentType: string; content: Buffer }) {
  const ascii = file.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .header('content-type', file.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    )
    .header('cache-control', 'no-store')
    .send(file.content);
}

/**
 * Reports computed in the database (never rows loaded into memory): energy and savings, alarms,
 * device assets; each exported as CSV, XLSX or PDF by one export module; and report templates
 * (saved kind, filters and columns; rerun, or e-mailed on a schedule by the engines' leader).
 */
export function registerReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const kind of REPORT_KINDS) {
    app.post(
      `${QUERY_PREFIX}/reports/${kind}`,
      {
        config: { access: 'user' },
        schema: {
          tags: ['reports'],
          summary: {
            energy: 'Energy used, baseline and savings over a period, grouped',
            alarms: 'Alarms over a period by level, device, region or day, with mean times to acknowledge and clear',
            assets: 'The device inventory by model, status, region or age, with online share, faults and health',
            maintenance:
              'Fault and maintenance KPIs over a period by fault type or region: open work orders, mean time to repair',
          }[kind],
        },
      },
      async (request) => {
        const accountId = accountFor(request, kind);
        const body = parseReportRequest(kind, request.body);
        return { success: true, data: (await runReport(ctx.db, kind, accountId, body)).report };
      },
    );
  }

  app.post(
    `${QUERY_PREFIX}/reports/:kind/export`,
    {
      config: { access: 'user' },
      schema: { tags: ['reports'], summary: 'A whole report as a CSV, XLSX or PDF file (chart and table)' },
    },
    async (request, reply) => {
      const kind = kindParam((request.params as { kind: string }).kind);
      const accountId = accountFor(request, kind);
      const body = parseBody(reportExportRequestSchema, request.body);
      const reportRequest = parseReportRequest(kind, body.request);
      const columns = chooseColumns(kind, body.columns);
      const language: Language = body.language ?? pickLanguage(request.headers['accept-language']);
      const result = await runWholeReport(ctx.db, kind, accountId, reportRequest);
      const document = reportDocument(result, columns, translator(language), language);
      return sendFile(reply, await exportReport(document, body.format));
    },
  );

  // ─── templates ──────────────────────────────────────────────────────────────
  const templateAccount = (request: FastifyRequest) => {
    const actor = authorize(request, getResource('devices'), 'read');
    return { accountId: actor.account?.accountId as number, userId: actor.userId };
  };

  app.get(
    `${QUERY_PREFIX}/report-templates`,
    { config: { access: 'user' }, schema: { tags: ['reports'], summary: "The account's report templates" } },
    async (request) => ({ success: true, data: await listTemplates(ctx.db, templateAccount(request).accountId) }),
  );
  app.get(
    `${QUERY_PREFIX}/report-templates/:id`,
    { config: { access: 'user' }, schema: { tags: ['reports'], summary: 'One report template' } },
    async (request) => {
      const id = idParam((request.params as { id: string }).id);
      return { success: true, data: toWire(await getTemplate(ctx.db, templateAccount(request).accountId, id)) };
    },
  );
  app.post(
    `${COMMAND_PREFIX}/report-templates`,
    { config: { access: 'user' }, schema: { tags: ['reports'], summary: 'Save a report template' } },
    async (request, reply) => {
      const { accountId, userId } = templateAccount(request);
      const input = parseBody(reportTemplateInputSchema, request.body);
      accountFor(request, input.kind);
      reply.status(201);
      return { success: true, data: await createTemplate(ctx.db, accountId, userId, input) };
    },
  );
  app.put(
    `${COMMAND_PREFIX}/report-templates/:id`,
    { config: { access: 'user' }, schema: { tags: ['reports'], summary: 'Change a report template' } },
    async (request) => {
      const id = idParam((request.params as { id: string }).id);
      const { accountId } = templateAccount(request);
      const input = parseBody(reportTemplateInputSchema, request.body);
      accountFor(request, input.kind);
      return { success: true, data: await updateTemplate(ctx.db, accountId, id, input) };
    },
  );
  app.delete(
    `${COMMAND_PREFIX}/report-templates/:id`,
    { config: { access: 'user' }, schema: { tags: ['reports'], summary: 'Delete a report template' } },
    async (request) => {
      const id = idParam((request.params as { id: string }).id);
      await deleteTemplate(ctx.db, templateAccount(request).accountId, id);
      return { success: true, data: { id } };
    },
  );
  app.post(
    `${QUERY_PREFIX}/report-templates/:id/export`,
    {
      config: { access: 'user' },
      schema: { tags: ['reports'], summary: 'Rerun a report template over a period, as a file' },
    },
    async (request, reply) => {
      const id = idParam((request.params as { id: string }).id);
      const template = await getTemplate(ctx.db, templateAccount(request).accountId, id);
      const kind = template.kind as ReportKind;
      const accountId = accountFor(request, kind);
      const body = parseBody(templateRunRequestSchema, request.body);
      const reportRequest = parseReportRequest(kind, {
        ...(template.filters as Record<string, unknown>),
        from: body.from,
        to: body.to,
      });
      const language: Language = body.language ?? pickLanguage(request.headers['accept-language']);
      const result = await runWholeReport(ctx.db, kind, accountId, reportRequest);
      const document = reportDocument(
        result,
        chooseColumns(kind, template.columns as string[] | null),
        translator(language),
        language,
      );
      return sendFile(reply, await exportReport(document, body.format ?? (template.format as 'pdf')));
    },
  );
}
