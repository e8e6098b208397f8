import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { type FieldDef, OPERATORS, type ResourceDef, readableFields } from '@lampyr/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext, RouteEntry } from './context.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';

type Schema = Record<string, unknown>;

function fieldSchema(def: FieldDef, nullable = false): Schema {
  const type = (t: string) => (nullable ? [t, 'null'] : t);
  switch (def.kind) {
    case 'integer':
    case 'reference':
      return { type: type('integer'), minimum: def.min, maximum: def.max };
    case 'number':
      return { type: type('number'), minimum: def.min, maximum: def.max };
    case 'boolean':
      return { type: type('boolean') };
    case 'enum':
      return { type: type('string'), enum: nullable ? [...(def.options ?? []), null] : def.options };
    case 'date':
      return { type: type('string'), format: 'date' };
    case 'datetime':
      return { type: type('string'), format: 'date-time' };
    case 'time':
      return { type: type('string'), pattern: '^\\d{2}:\\d{2}(:\\d{2})?$' };
    case 'json':
      return {};
    case 'email':
      return { type: type('string'), format: 'email', maxLength: def.maxLength };
    default:
      return { type: type('string'), maxLength: def.maxLength, ...(def.kind === 'secret' ? { writeOnly: true } : {}) };
  }
}

/** A stored record as it leaves the server; also the response schema Fastify serializes with. */
export function recordSchema(resource: ResourceDef): Schema {
  const system: Schema = {
    id: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    ...(resource.scope === 'account' ? { accountId: { type: 'integer' } } : {}),
  };
  const fields = readableFields(resource).map((n) => [n, fieldSchema(resource.fields[n] as FieldDef, true)]);
  return { type: 'object', properties: { ...system, ...Object.fromEntries(fields) } };
}

export const pageSchema = (record: Schema): Schema => ({
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    data: {
      type: 'object',
      properties: { content: { type: 'array', items: record }, totalElements: { type: 'integer' } },
    },
  },
});

const envelope = (data: Schema): Schema => ({
  type: 'object',
  properties: { success: { type: 'boolean' }, data },
});

const errorResponse = { $ref: '#/components/schemas/Error' };

function recordSchemas(resource: ResourceDef) {
  const readable = readableFields(resource);
  const system: Schema = {
    id: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    ...(resource.scope === 'account' ? { accountId: { type: 'integer' } } : {}),
  };
  const writable = Object.entries(resource.fields).filter(([, f]) => !f.readOnly);
  return {
    record: {
      type: 'object',
      properties: {
        ...system,
        ...Object.fromEntries(readable.map((n) => [n, fieldSchema(resource.fields[n] as FieldDef)])),
      },
    },
    input: {
      type: 'object',
      required: writable.filter(([, f]) => f.required).map(([n]) => n),
      properties: Object.fromEntries(writable.map(([n, f]) => [n, fieldSchema(f)])),
    },
  };
}

const common = {
  Error: {
    type: 'object',
    properties: {
      success: { type: 'boolean', const: false },
      error: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          message: { type: 'string' },
          fields: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  },
  Condition: {
    type: 'object',
    required: ['field', 'operator'],
    properties: { field: { type: 'string' }, operator: { type: 'string', enum: OPERATORS }, value: {} },
  },
  ListBody: {
    type: 'object',
    required: ['pageable'],
    properties: {
      filter: { type: ['object', 'null'] },
      detailFilter: { type: ['array', 'null'], items: { $ref: '#/components/schemas/Condition' } },
      selectedColumns: { type: ['object', 'null'], additionalProperties: { type: 'boolean' } },
      pageable: {
        type: 'object',
        properties: {
          page: { type: 'integer' },
          size: { type: 'integer', minimum: 1, maximum: 1000 },
          sort: { type: 'array', items: { type: 'string', example: 'name,asc' } },
        },
      },
    },
  },
};

const security = [{ bearer: [] }];
const headers = [{ name: 'X-Account-Id', in: 'header', required: false, schema: { type: 'integer' } }];

function document(title: string, server: string, paths: Schema, schemas: Schema): Schema {
  return {
    openapi: '3.1.0',
    info: { title, version: '1' },
    servers: [{ url: server }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas: { ...common, ...schemas } },
    security,
    paths,
  };
}

/** OpenAPI documents of both APIs, made from the catalogue rather than written by hand. */
export function openApiDocuments(resources: readonly ResourceDef[]) {
  const queryPaths: Schema = {};
  const commandPaths: Schema = {};
  const schemas: Schema = {};
  for (const resource of resources) {
    const { record, input } = recordSchemas(resource);
    const key = resource.name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
    schemas[key] = record;
    schemas[`${key}Input`] = input;
    const ref = { $ref: `#/components/schemas/${key}` };
    const page = envelope({
      type: 'object',
      properties: { content: { type: 'array', items: ref }, totalElements: { type: 'integer' } },
    });
    const responses = (data: Schema) => ({
      200: { description: 'OK', content: { 'application/json': { schema: data } } },
      default: { description: 'Error', content: { 'application/json': { schema: errorResponse } } },
    });
    const body = (schema: Schema) => ({ required: true, content: { 'application/json': { schema } } });
    const tags = [resource.name];
    queryPaths[`/${resource.name}`] = {
      post: {
        tags,
        summary: 'List (page from 1)',
        parameters: headers,
        requestBody: body({ $ref: '#/components/schemas/ListBody' }),
        responses: responses(page),
      },
    };
    queryPaths[`/${resource.name}/search`] = {
      post: {
        tags,
        summary: 'Search (page from 0; pageable or filters/logic/page/size form)',
        parameters: headers,
        requestBody: body({ type: 'object' }),
        responses: responses(page),
      },
    };
    queryPaths[`/${resource.name}/aggregate`] = {
      post: {
        tags,
        summary: 'Aggregate with optional time buckets',
        parameters: headers,
        requestBody: body({ type: 'object' }),
        responses: responses(envelope({ type: 'object' })),
      },
    };
    queryPaths[`/${resource.name}/{id}`] = {
      get: {
        tags,
        summary: 'Fetch one',
        parameters: [...headers, { name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: responses(envelope(ref)),
      },
    };
    if (resource.readOnly) continue;
    const inputRef = { $ref: `#/components/schemas/${key}Input` };
    commandPaths[`/${resource.name}`] = {
      post: {
        tags,
        summary: 'Create',
        parameters: headers,
        requestBody: body(inputRef),
        responses: responses(envelope(ref)),
      },
      put: {
        tags,
        summary: 'Update (send id and the updatedAt you read)',
        parameters: headers,
        requestBody: body(inputRef),
        responses: responses(envelope(ref)),
      },
      delete: {
        tags,
        summary: 'Delete',
        parameters: headers,
        requestBody: body({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }),
        responses: responses(envelope({ type: 'object', properties: { id: { type: 'integer' } } })),
      },
    };
  }
  const auth = (summary: string, props: string[]) => ({
    post: {
      tags: ['auth'],
      summary,
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: props,
              properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
            },
          },
        },
      },
      responses: {
        200: { description: 'OK' },
        default: { description: 'Error', content: { 'application/json': { schema: errorResponse } } },
      },
    },
  });
  commandPaths['/auth/register'] = auth('Register; sends a one-time code', [
    'firstName',
    'lastName',
    'phoneNumber',
    'title',
    'email',
    'password',
  ]);
  commandPaths['/auth/verify-otp'] = auth('Verify the e-mailed code', ['email', 'code']);
  commandPaths['/auth/resend-otp'] = auth('Send a new code', ['email']);
  commandPaths['/auth/login'] = auth('Sign in: token, user, accounts', ['email', 'password']);
  commandPaths['/auth/forgot-password'] = auth('Send a password reset code', ['email']);
  commandPaths['/auth/reset-password'] = auth('Set a new password with the code', ['email', 'code', 'password']);
  commandPaths['/auth/change-password'] = {
    post: { ...auth('Change password', ['currentPassword', 'newPassword']).post, security },
  };
  queryPaths['/auth/me'] = {
    get: { tags: ['auth'], summary: 'The signed-in user and its accounts', responses: { 200: { description: 'OK' } } },
  };
  return {
    query: document('Lampyr query API', QUERY_PREFIX, queryPaths, schemas),
    command: document('Lampyr command API', COMMAND_PREFIX, commandPaths, schemas),
  };
}

/** An operation made from a route's own schema (tags, summary, body, query, responses) and its path. */
function operationOf(route: RouteEntry): Schema {
  const schema = (route.schema ?? {}) as {
    tags?: string[];
    summary?: string;
    body?: Schema;
    querystring?: { properties?: Record<string, Schema> };
    response?: Record<string, Schema>;
  };
  const path = [...route.url.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = Object.entries(schema.querystring?.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    schema: s,
  }));
  const responses: Schema = Object.fromEntries(
    Object.entries(schema.response ?? { 200: {} }).map(([code, s]) => [
      code,
      { description: code, content: { 'application/json': { schema: s } } },
    ]),
  );
  responses.default = { description: 'Error', content: { 'application/json': { schema: errorResponse } } };
  return {
    tags: schema.tags,
    summary: schema.summary,
    ...(route.access === 'public' ? { security: [] } : {}),
    parameters: [...(route.access === 'public' ? [] : headers), ...path, ...query],
    ...(schema.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schema.body } } } }
      : {}),
    responses,
  };
}

/** A Fastify route path as an OpenAPI path: `:id` → `{id}`, a trailing `*` → `{wildcard}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{wildcard}');

/**
 * The documents of every registered route: the catalogue's resource and auth paths, completed from
 * the route table with every other route (platform, credentials, import/export, stream, dashboard,
 * health, the console's files, these docs), each from its own schema. HEAD routes are GET's shadow.
 */
export function routeDocuments(resources: readonly ResourceDef[], routes: readonly RouteEntry[]) {
  const docs = { ...openApiDocuments(resources), service: document('Lampyr service routes', '/', {}, {}) };
  for (const route of routes) {
    const [doc, prefix] = route.url.startsWith(`${QUERY_PREFIX}/`)
      ? [docs.query, QUERY_PREFIX]
      : route.url.startsWith(`${COMMAND_PREFIX}/`)
        ? [docs.command, COMMAND_PREFIX]
        : [docs.service, ''];
    const paths = doc.paths as Record<string, Record<string, Schema>>;
    const key = openApiPath(route.url.slice(prefix.length));
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      paths[key] ??= {};
      const item = paths[key];
      item[method.toLowerCase()] ??= operationOf(route);
    }
  }
  return docs;
}

/** `/docs`: Swagger UI over the documents of the query API, the command API and the service routes. */
export async function registerDocs(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const resources = [...ctx.repositories.values()].map((r) => r.resource);
  // Made on first request, once every route is registered.
  let docs: ReturnType<typeof routeDocuments> | undefined;
  const documents = () => {
    docs ??= routeDocuments(resources, app.routeTable());
    return docs;
  };
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    await scope.register(swagger, {
      mode: 'static',
      specification: { document: openApiDocuments(resources).query as never },
    });
    await scope.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: {
        urls: [
          { url: '/docs/query.json', name: 'Query API' },
          { url: '/docs/command.json', name: 'Command API' },
          { url: '/docs/service.json', name: 'Service routes' },
        ],
      } as never,
    });
    scope.get('/docs/query.json', async () => documents().query);
    scope.get('/docs/command.json', async () => documents().command);
    scope.get('/docs/service.json', async () => documents().service);
  });
}
