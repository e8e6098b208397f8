import { PassThrough } from 'node:stream';
import { type FieldDef, listBodySchema } from '@lampyr/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fieldLabel, translator } from '../i18n/translate.ts';
import type { AppContext } from './context.ts';
import { ApiException, constraintConflict } from './errors.ts';
import { parseBody } from './parse-body.ts';
import type { ResourceRepository } from './resource-repository.ts';
import { authorize, COMMAND_PREFIX, QUERY_PREFIX } from './resource-routes.ts';
import { cellValue, matchColumns, readRows, type TransferFormat, writeRows } from './transfer-rows.ts';

const EXPORT_LIMIT = 100_000;
const IMPORT_LIMIT = 20_000;
const IMPORT_BYTES = 15 * 1024 * 1024;

const exportSchema = listBodySchema.extend({
  format: z.enum(['csv', 'xlsx']),
  pageable: listBodySchema.shape.pageable.optional(),
});
const importSchema = z.object({
  fileName: z.string().regex(/\.(csv|xlsx)$/i, 'must end in .csv or .xlsx'),
  content: z
    .string()
    .min(1)
    .max(Math.ceil((IMPORT_BYTES * 4) / 3)),
});

const MIME: Record<TransferFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Export of any list (CSV, XLSX), and import of records from such a file with a report per row. */
export function registerTransferRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const repo of ctx.repositories.values()) {
    const { resource } = repo;
    app.post(
      `${QUERY_PREFIX}/${resource.name}/export`,
      {
        config: { access: 'user' },
        schema: { tags: [resource.name], summary: 'Export the filtered list (CSV or XLSX)' },
      },
      async (request, reply) => {
        const actor = authorize(request, resource, 'read');
        const body = parseBody(exportSchema, request.body);
        const rows = await repo.listAll(
          actor,
          { ...body, pageable: { page: 1, size: 1, sort: body.pageable?.sort ?? [] } },
          EXPORT_LIMIT,
        );
        const columns = body.selectedColumns
          ? ['id', ...Object.keys(body.selectedColumns).filter((c) => body.selectedColumns?.[c] && c !== 'id')]
          : [...repo.fields.keys()];
        const file = await writeRows(body.format, columns, rows);
        return reply
          .header('content-type', MIME[body.format])
          .header('content-disposition', `attachment; filename="${resource.name}.${body.format}"`)
          .send(file);
      },
    );

    if (resource.readOnly) continue;
    app.post(
      `${COMMAND_PREFIX}/${resource.name}/import`,
      {
        config: { access: 'user' },
        bodyLimit: Math.ceil((IMPORT_BYTES * 4) / 3) + 4096,
        schema: {
          tags: [resource.name],
          summary: 'Import records from CSV or XLSX; streams progress, then the report',
        },
      },
      async (request, reply) => {
        const actor = authorize(request, resource, 'create');
        const { fileName, content } = parseBody(importSchema, request.body);
        const format: TransferFormat = fileName.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv';
        let table: Awaited<ReturnType<typeof readRows>>;
        try {
          table = await readRows(format, Buffer.from(content, 'base64'));
        } catch {
          throw new ApiException('BAD_REQUEST', 'errors.badValue', {
            field: 'content',
            reason: `not a readable ${format} file`,
          });
        }
        const { t } = request;
        const { fields, unknown } = matchColumns(resource, table.header, [translator('en'), translator('tr')]);
        if (unknown.length)
          throw new ApiException('INVALID_FIELD', 'errors.INVALID_FIELD', { field: unknown.join(', ') });
        if (table.rows.length > IMPORT_LIMIT) {
          throw new ApiException('BAD_REQUEST', 'errors.badValue', {
            field: 'content',
            reason: `more than ${IMPORT_LIMIT} rows`,
          });
        }
        const stream = new PassThrough();
        reply.header('content-type', 'application/x-ndjson; charset=utf-8').send(stream);
        const send = (line: unknown) => stream.write(`${JSON.stringify(line)}\n`);
        const lookup = new ReferenceLookup(ctx, actor);
        const refused: { row: number; errors: Record<string, string> }[] = [];
        let imported = 0;
        const total = table.rows.length;
        try {
          for (const [index, cells] of table.rows.entries()) {
            const row = index + 2; // the header is row 1
            const record: Record<string, unknown> = {};
            const errors: Record<string, string> = {};
            for (const [i, name] of fields.entries()) {
              const def = name ? (resource.fields[name] as FieldDef) : undefined;
              if (!name || !def) continue;
              const value = cellValue(def, cells[i] ?? null);
              if (value === undefined) continue;
              if (def.kind === 'reference' && typeof value === 'string') {
                const id = await lookup.find(def.ref as string, value);
                if (id === undefined)
                  errors[name] = t('validation.notFound', { field: fieldLabel(t, resource.name, name) });
                else record[name] = id;
              } else record[name] = value;
            }
            if (Object.keys(errors).length === 0) {
              try {
                await repo.create(actor, record, t);
                imported++;
              } catch (thrown) {
                const error = thrown instanceof ApiException ? thrown : constraintConflict(thrown);
                if (!error) throw thrown;
                Object.assign(
                  errors,
                  error.fields ?? { row: t(error.messageKey ?? `errors.${error.code}`, error.vars) },
                );
              }
            }
            if (Object.keys(errors).length) refused.push({ row, errors });
            if ((index + 1) % 25 === 0 || index + 1 === total) send({ progress: { done: index + 1, total } });
          }
          send({ report: { total, imported, refused } });
        } catch (error) {
          request.log.error({ err: error }, 'import failed');
          send({ error: { code: 'INTERNAL', message: t('errors.INTERNAL') }, report: { total, imported, refused } });
        } finally {
          stream.end();
        }
        return reply;
      },
    );
  }
}

/** Finds a referenced record by its display value (a model's name, a region's name), once per value. */
class ReferenceLookup {
  private cache = new Map<string, number | undefined>();

  constructor(
    private readonly ctx: AppContext,
    private readonly actor: Parameters<ResourceRepository['list']>[0],
  ) {}

  async find(resourceName: string, text: string): Promise<number | undefined> {
    const key = `${resourceName}:${text}`;
    if (this.cache.has(key)) return this.cache.get(key);
    const repo = this.ctx.repositories.get(resourceName);
    let id: number | undefined;
    if (repo) {
      const page = await repo.list(
        this.actor,
        {
          filter: { [repo.resource.display]: text },
          detailFilter: null,
          selectedColumns: null,
          pageable: { page: 1, size: 2, sort: [] },
        },
        1,
      );
      id = page.totalElements === 1 ? (page.content[0]?.id as number) : undefined;
    }
    this.cache.set(key, id);
    return id;
  }
}
