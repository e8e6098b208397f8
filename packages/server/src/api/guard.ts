import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { TokenClaims } from '../auth/tokens.ts';
import { ApiException } from '../errors/api-exception.ts';
import { pickLanguage, translator } from '../i18n/translate.ts';
import type { AppContext, RouteAccess } from './context.ts';

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
    routes.map((r) => ({ method: r.method, url: r.url, access: r.config?.access as RouteAccess, schema: r.schema })),
  );

  app.decorateRequest('actor');
  app.decorateRequest('t');

  app.addHook('onRequest', async (request) => {
    request.t = translator(pickLanguage(request.headers['accept-language']));
    const access = request.routeOptions.config?.access;
    if (access !== 'user') return;
    const { userId, version } = await authenticate(ctx, request);
    const accounts = await ctx.access.accountsOf(userId);
    request.actor = {
      userId,
      tokenVersion: version,
      accessibleAccountIds: [...accounts.keys()],
      accounts,
      isPlatformOperator: await ctx.access.isPlatformOperator(userId),
    };
    const header = request.headers['x-account-id'];
    if (header === undefined || header === '') return;
    const accountId = Number(header);
    if (!Number.isSafeInteger(accountId) || accountId < 1) throw new ApiException('ACCOUNT_FORBIDDEN');
    const account = accounts.get(accountId);
    if (!account) throw new ApiException('ACCOUNT_FORBIDDEN');
    request.actor.account = account;
  });
}

/**
 * The token comes only in the Authorization header (never in a URL, where it would be logged): a
 * valid signature, unexpired, and of the user's current token version.
 */
async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<TokenClaims> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  const claims = token ? await ctx.tokens.verify(token) : undefined;
  if (!claims || !(await ctx.tokenVersions.isCurrent(claims.userId, claims.version)))
    throw new ApiException('UNAUTHENTICATED');
  return claims;
}
