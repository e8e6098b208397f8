import { PassThrough } from 'node:stream';
import {
  exportBodySchema,
  type FieldDef,
  type FieldKind,
  IMPORT_MAX_BYTES,
  type ImportLine,
  importBodySchema,
  type RefusedRow,
  type ResourceDef,
  type TransferFormat,
} from '@lampyr/contract';
import type { FastifyInstance } from 'fastify';
import type { ResourceRepository } from '../data/resource-repository.ts';
import { ApiException } from '../errors/api-exception.ts';
import { fieldLabel, translator } from '../i18n/translate.ts';
import type { AppContext } from './context.ts';
import { constraintConflict } from './errors.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';
import { cellValue, matchColumns, optionLabels, optionValues, readRows, rowWriter } from './transfer-rows.ts';
import { FileRefused } from './xlsx-guard.ts';

const EXPORT_LIMIT = 100_000;
/** Rows read from the repository per query while an export streams. */
const EXPORT_PAGE = 1000;
const IMPORT_LIMIT = 20_000;

/**
 * One import or export at a time per user. In-process is enough: the limit is there so one user
 * cannot take a process's memory and database time with parallel files, and each process
 * protects itself (with N replicas a user can run at most N, one per process, which the memory
 * bounds of each already allow). A process that dies takes its slots with it, so nothing can stay
 * stuck the way a lock row could.
 */
const busy = new Set<number>();

function takeSlot(userId: number): () => void {
  if (busy.has(userId)) throw new ApiException('RATE_LIMITED', 'errors.transferBusy');
  busy.add(userId);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    busy.delete(userId);
  };
}

const refused = (error: FileRefused) => new ApiException('BAD_REQUEST', error.key, error.vars);

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
        const body = parseBody(exportBodySchema, request.body);
        const release = takeSlot(actor.userId);
        try {
          const sort = body.pageable?.sort ?? [];
          const pageOf = (page: number) =>
            repo.list(actor, { ...body, pageable: { page, size: EXPORT_PAGE, sort } }, 1);
          // The first page before the answer starts, so a bad filter or column is still a 4xx.
          const first = await pageOf(1);
          const total = Math.min(first.totalElements, EXPORT_LIMIT);
          const columns = body.selectedColumns
            ? ['id', ...Object.keys(body.selectedColumns).filter((c) => body.selectedColumns?.[c] && c !== 'id')]
            : [...repo.fields.keys()];
          const kinds = new Map<string, FieldKind>();
          for (const c of columns) {
            const kind = (resource.fields[c] as FieldDef | undefined)?.kind;
            if (kind) kinds.set(c, kind);
          }
          const stream = new PassThrough();
          reply
            .header('content-type', MIME[body.format])
            .header('content-disposition', `attachment; filename="${resource.name}.${body.format}"`)
            .send(stream);
          // The screen's column labels in the caller's language; the import reads them back.
          const header = columns.map((c) => (c === 'id' ? 'ID' : fieldLabel(request.t, resource.name, c)));
          const writer = rowWriter(body.format, columns, kinds, stream, header);
          const names = new ReferenceNames(ctx, actor);
          try {
            let written = 0;
            for (let page = 1, rows = first.content; ; ) {
              // References by name and options by label, as the screen shows them.
              const chunk = optionLabels(
                resource,
                columns,
                await names.resolve(resource, columns, rows.slice(0, total - written)),
                request.t,
              );
              await writer.write(chunk);
              written += chunk.length;
              if (stream.destroyed || written >= total || rows.length < EXPORT_PAGE) break;
              page += 1;
              rows = (await pageOf(page)).content;
            }
            if (!stream.destroyed) await writer.end();
          } catch (error) {
            // The answer has started: it can only be cut short, and the log says why.
            request.log.error({ err: error }, 'export failed');
            stream.destroy(error as Error);
          }
          return reply;
        } finally {
          release();
        }
      },
    );

    if (resource.readOnly) continue;
    app.post(
      `${COMMAND_PREFIX}/${resource.name}/import`,
      {
        config: { access: 'user' },
        bodyLimit: Math.ceil((IMPORT_MAX_BYTES * 4) / 3) + 4096,
        schema: {
          tags: [resource.name],
          summary: 'Import records from CSV or XLSX; streams progress, then the report',
        },
      },
      async (request, reply) => {
        const actor = authorize(request, resource, 'create');
        const { fileName, content } = parseBody(importBodySchema, request.body);
        const format: TransferFormat = fileName.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv';
        const importFile = async (file: Buffer) => {
          // A first streamed pass reads the header and counts rows, stopping past the limit: a file
          // with too many rows is refused before anything is written, and nothing is held.
          let header: string[] = [];
          let total = -1;
          try {
            for await (const cells of readRows(format, file)) {
              if (total < 0) header = cells.map((v) => String(v ?? '').trim());
              total += 1;
              if (total > IMPORT_LIMIT) break;
            }
          } catch (error) {
            if (error instanceof FileRefused) throw refused(error);
            throw error;
          }
          total = Math.max(total, 0);
          if (total > IMPORT_LIMIT)
            throw new ApiException('BAD_REQUEST', 'errors.tooManyRows', { limit: IMPORT_LIMIT });
          const { t } = request;
          const translators = [translator('en'), translator('tr')];
          const { fields, unknown } = matchColumns(resource, header, translators);
          const options = optionValues(resource, translators);
          if (unknown.length)
            throw new ApiException('INVALID_FIELD', 'errors.INVALID_FIELD', { field: unknown.join(', ') });
          const stream = new PassThrough();
          reply.header('content-type', 'application/x-ndjson; charset=utf-8').send(stream);
          const send = (line: ImportLine) => stream.write(`${JSON.stringify(line)}\n`);
          const lookup = new ReferenceLookup(ctx, actor);
          const refusedRows: RefusedRow[] = [];
          let imported = 0;
          let index = -1;
          try {
            for await (const cells of readRows(format, file)) {
              if (index++ < 0) continue; // the header
              if (index > total) break;
              const row = index + 1; // the header is row 1
              const record: Record<string, unknown> = {};
              const errors: Record<string, string> = {};
              for (const [i, name] of fields.entries()) {
                const def = name ? (resource.fields[name] as FieldDef) : undefined;
                if (!name || !def) continue;
                const value = cellValue(def, cells[i] ?? null);
                if (value === undefined) continue;
                if (def.kind === 'enum' && typeof value === 'string') {
                  // An option by its label in either language (what an export writes), or its value.
                  record[name] = options.get(name)?.get(value.toLowerCase()) ?? value;
                } else if (def.kind === 'reference' && typeof value === 'string') {
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
              if (Object.keys(errors).length) refusedRows.push({ row, errors });
              if (index % 25 === 0 || index === total) send({ progress: { done: index, total } });
            }
            send({ report: { total, imported, refused: refusedRows } });
          } catch (error) {
            request.log.error({ err: error }, 'import failed');
            send({
              error: { code: 'INTERNAL', message: t('errors.INTERNAL') },
              report: { total, imported, refused: refusedRows },
            });
          } finally {
            stream.end();
          }
          return reply;
        };
        const release = takeSlot(actor.userId);
        try {
          return await importFile(Buffer.from(content, 'base64'));
        } finally {
          release();
        }
      },
    );
  }
}

/**
 * References written as the names the screen shows (a region's name, not `regionId=1`): each page's
 * ids are read once per referenced resource, through its repository (so the caller's scope holds);
 * an id the caller may not see stays an id.
 */
class ReferenceNames {
  private cache = new Map<string, Map<number, unknown>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly actor: Parameters<ResourceRepository['list']>[0],
  ) {}

  async resolve(
    resource: ResourceDef,
    columns: string[],
    rows: Record<string, unknown>[],
  ): Promise<Record<string, unknown>[]> {
    // The owning account (a column of every account resource) reads as the account's name too.
    const refOf = (c: string) =>
      resource.fields[c]?.kind === 'reference' ? resource.fields[c]?.ref : c === 'accountId' ? 'accounts' : undefined;
    const refs = columns.filter((c) => refOf(c));
    if (!refs.length || !rows.length) return rows;
    for (const c of refs)
      await this.load(
        refOf(c) as string,
        rows.map((r) => r[c]),
      );
    return rows.map((row) => {
      const named = { ...row };
      for (const c of refs) {
        const id = row[c];
        if (typeof id !== 'number') continue;
        const name = this.cache.get(refOf(c) as string)?.get(id);
        if (name !== undefined && name !== null && name !== '') named[c] = String(name);
      }
      return named;
    });
  }

  private async load(prefix: string, values: unknown[]): Promise<void> {
    const known = this.cache.get(prefix) ?? new Map<number, unknown>();
    this.cache.set(prefix, known);
    const ids = [...new Set(values.filter((v): v is number => typeof v === 'number' && !known.has(v)))];
    const repo = this.ctx.repositories.get(prefix);
    if (!repo || !ids.length) return;
    const display = repo.resource.display;
    for (let at = 0; at < ids.length; at += 1000) {
      const slice = ids.slice(at, at + 1000);
      const page = await repo.list(
        this.actor,
        {
          filter: { id: slice },
          detailFilter: null,
          selectedColumns: { [display]: true },
          pageable: { page: 1, size: slice.length, sort: [] },
        },
        1,
      );
      for (const record of page.content) known.set(record.id as number, record[display]);
      for (const id of slice) if (!known.has(id)) known.set(id, undefined);
    }
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
