import {
  aggregateSchema,
  getResource,
  type ListBody,
  listBodySchema,
  type ResourceDef,
  serviceSearchSchema,
} from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action, Actor } from '../access/access.ts';
import { permits } from '../access/console-permissions.ts';
import type { ResourceRepository } from '../data/resource-repository.ts';
import { ApiException, badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { pageSchema, recordSchema } from './openapi.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';

/** Resources whose changes alter who may act where. */
const ACCESS_RESOURCES = new Set(['accounts', 'users-roles', 'roles', 'users']);

/**
 * The account and role checks every resource call passes before it touches data. Shared reference
 * data (`global` resources) is read by everyone and written by platform operators alone, whatever
 * their role in the account they act in. Writes to `accounts` records are checked once more
 * against the record's own account (tenancy-policy.ts).
 */
export function authorize(request: FastifyRequest, resource: ResourceDef, action: Action): Actor {
  const actor = request.actor;
  if (permits(actor, resource, action)) return actor;
  if (resource.scope === 'global') throw new ApiException('FORBIDDEN', 'errors.notPlatformOperator');
  if (!actor.account) throw new ApiException('ACCOUNT_REQUIRED');
  throw new ApiException('FORBIDDEN');
}

/**
 * The records of a resource this actor may see, as the SQL condition its lists use (the account
 * scope of the resource repository); `true` for shared reference data. For hand-written queries
 * that must see what the generic list sees.
 */
export function scopeOf(ctx: AppContext, actor: Actor, name: string): SQL {
  const repository = ctx.repositories.get(name);
  if (!repository) throw new Error(`no repository for ${name}`);
  return repository.scope(actor) ?? sql`true`;
}

/** The devices the caller may read (after the read check on devices), as the devices list scopes them. */
export function deviceScope(request: FastifyRequest, ctx: AppContext): SQL {
  return scopeOf(ctx, authorize(request, getResource('devices'), 'read'), 'devices');
}

const idParam = (raw: string) => {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw badValue('id', 'expected a positive whole number');
  return id;
};

const isServiceSearch = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  !('pageable' in body) &&
  ('filters' in body || 'logic' in body || 'page' in body);

/**
 * Other names a resource's search answers to, as SPEC §7 calls it: the sub-channel pairing search
 * `channel-read-values1/search` is the readings' search, with the same access check.
 */
const SEARCH_ALIASES: Partial<Record<string, string[]>> = { 'channel-read-values': ['channel-read-values1'] };

const ok = <T>(data: T) => ({ success: true as const, data });
/** Pages answered as JSON at once: their timestamps may come as the answer's ISO text. */
const JSON_ANSWER = { forJson: true };

export function registerResourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = { access: 'user' as const };
  for (const repo of ctx.repositories.values()) {
    const { resource } = repo;
    const base = `${QUERY_PREFIX}/${resource.name}`;
    const tags = [resource.name];
    // Response schemas let Fastify serialize with a compiled serializer, and drop any stray column.
    const record = recordSchema(resource);
    const list = { 200: pageSchema(record) };

    app.post(
      base,
      { config: user, schema: { tags, summary: 'List (page from 1)', response: list } },
      async (request) => {
        const actor = authorize(request, resource, 'read');
        return ok(await repo.list(actor, parseBody(listBodySchema, request.body), 1, JSON_ANSWER));
      },
    );

    const search = async (request: FastifyRequest) => {
      const actor = authorize(request, resource, 'read');
      if (isServiceSearch(request.body))
        return ok(await repo.search(actor, parseBody(serviceSearchSchema, request.body), JSON_ANSWER));
      return ok(await repo.list(actor, parseBody(listBodySchema, request.body) as ListBody, 0, JSON_ANSWER));
    };
    for (const name of [resource.name, ...(SEARCH_ALIASES[resource.name] ?? [])]) {
      app.post(
        `${QUERY_PREFIX}/${name}/search`,
        { config: user, schema: { tags, summary: 'Search (page from 0)', response: list } },
        search,
      );
    }

    app.post(`${base}/aggregate`, { config: user, schema: { tags, summary: 'Aggregate' } }, async (request) => {
      const actor = authorize(request, resource, 'read');
      return ok(await repo.aggregate(actor, parseBody(aggregateSchema, request.body)));
    });

    app.get<{ Params: { id: string } }>(
      `${base}/:id`,
      { config: user, schema: { tags, summary: 'Fetch one' } },
      async (request) => {
        const actor = authorize(request, resource, 'read');
        return ok(await repo.get(actor, idParam(request.params.id)));
      },
    );

    if (resource.readOnly) registerRefusals(app, resource);
    else registerCommands(app, ctx, repo);
  }
}

/**
 * Records only the server writes (computed sun times, logs): every write is refused with a 403 that
 * says why, after the same sign-in check as any call — unless a route of its own already takes that
 * write (overrides are made and cancelled through theirs).
 */
function registerRefusals(app: FastifyInstance, resource: ResourceDef): void {
  const url = `${COMMAND_PREFIX}/${resource.name}`;
  const options = {
    config: { access: 'user' as const },
    schema: { tags: [resource.name], summary: 'Refused: written by the server alone' },
  };
  const refuse = async (request: FastifyRequest) => {
    const label = request.t(`resources:${resource.name}.title`);
    throw new ApiException('FORBIDDEN', 'errors.readOnlyResource', { resource: label });
  };
  for (const method of ['POST', 'PUT', 'DELETE'] as const)
    if (!app.hasRoute({ method, url })) app.route({ method, url, ...options, handler: refuse });
}

function registerCommands(app: FastifyInstance, ctx: AppContext, repo: ResourceRepository): void {
  const { resource } = repo;
  const url = `${COMMAND_PREFIX}/${resource.name}`;
  const options = { config: { access: 'user' as const }, schema: { tags: [resource.name] } };
  const body = (request: FastifyRequest) => {
    if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
      throw badValue('body', 'expected a JSON object');
    }
    return request.body as Record<string, unknown>;
  };
  const changed = () => {
    if (ACCESS_RESOURCES.has(resource.name)) ctx.access.invalidate();
  };

  app.post(url, options, async (request, reply) => {
    const actor = authorize(request, resource, 'create');
    const record = await repo.create(actor, body(request), request.t);
    changed();
    ctx.commands.emit({ resource: resource.name, action: 'create', record, accountId: actor.account?.accountId });
    return reply.status(201).send(ok(record));
  });

  app.put(url, options, async (request) => {
    const actor = authorize(request, resource, 'update');
    const record = await repo.update(actor, body(request), request.t);
    changed();
    ctx.commands.emit({ resource: resource.name, action: 'update', record, accountId: actor.account?.accountId });
    return ok(record);
  });

  app.delete(url, options, async (request) => {
    const actor = authorize(request, resource, 'delete');
    const result = await repo.delete(actor, body(request).id, request.t);
    changed();
    ctx.commands.emit({
      resource: resource.name,
      action: 'delete',
      record: result,
      accountId: actor.account?.accountId,
    });
    return ok(result);
  });
}
