import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { pickLanguage, translator } from '../i18n/translate.ts';
import type { AppContext, RouteAccess } from './context.ts';
import { ApiException } from './errors.ts';

/**
 * Routes are guarded by default. A route states `config.access`: `public` needs nothing, `user`
 * needs a valid token; the `X-Account-Id` header, when sent, must name an account the user may act
 * in. A route that states nothing cannot be registered.
 */
export function installGuard(app: FastifyInstance, ctx: AppContext): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  // Checked once every plugin has had its say, so a scope may mark its own routes public.
  app.addHook('onReady', async () => {
    for (const route of routes) {
      const access = route.config?.access;
      if (access !== 'public' && access !== 'user') {
        throw new Error(`Route ${route.method} ${route.url} must declare config.access ('public' or 'user')`);
      }
    }
  });
  app.decorate('routeTable', () =>
    routes.map((r) => ({ method: r.method, url: r.url, access: r.config?.access as RouteAccess })),
  );

  app.decorateRequest('actor');
  app.decorateRequest('t');

  app.addHook('onRequest', async (request) => {
    request.t = translator(pickLanguage(request.headers['accept-language']));
    const access = request.routeOptions.config?.access;
    if (access !== 'user') return;
    const fromQuery = request.routeOptions.config?.credentialsInQuery
      ? (request.query as Record<string, unknown> | undefined)
      : undefined;
    const userId = await authenticate(ctx, request, fromQuery?.token);
    const accounts = await ctx.access.accountsOf(userId);
    request.actor = {
      userId,
      accessibleAccountIds: [...accounts.keys()],
      accounts,
      isPlatformOperator: await ctx.access.isPlatformOperator(userId),
    };
    const header = request.headers['x-account-id'] ?? fromQuery?.accountId;
    if (header === undefined || header === '') return;
    const accountId = Number(header);
    if (!Number.isSafeInteger(accountId) || accountId < 1) throw new ApiException('ACCOUNT_FORBIDDEN');
    const account = accounts.get(accountId);
    if (!account) throw new ApiException('ACCOUNT_FORBIDDEN');
    request.actor.account = account;
  });
}

async function authenticate(ctx: AppContext, request: FastifyRequest, queryToken?: unknown): Promise<number> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ')
    ? header.slice(7).trim()
    : typeof queryToken === 'string'
      ? queryToken
      : undefined;
  const userId = token ? await ctx.tokens.verify(token) : undefined;
  if (!userId) throw new ApiException('UNAUTHENTICATED');
  return userId;
}
