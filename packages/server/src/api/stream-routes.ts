import type { FastifyInstance } from 'fastify';
import type { LiveEvent } from '../stream/live-events.ts';
import type { AppContext } from './context.ts';
import { ApiException } from './errors.ts';
import { QUERY_PREFIX } from './resource-routes.ts';

const HEARTBEAT_MS = 15_000;

/**
 * `GET /query/api/stream`: server-sent events of the selected account — `value` (a channel's new
 * latest value), `status` (a device's connection status), `write` (a channel write's progress).
 * The account comes from `X-Account-Id` or `?accountId=`, the token from `Authorization` or
 * `?token=` (EventSource cannot set headers); both are checked by the guard like any call.
 */
export function registerStreamRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    `${QUERY_PREFIX}/stream`,
    {
      config: { access: 'user', credentialsInQuery: true },
      schema: { tags: ['stream'], summary: 'Live events (SSE)' },
    },
    async (request, reply) => {
      const account = request.actor.account;
      if (!account) throw new ApiException('ACCOUNT_REQUIRED');
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write(': connected\nretry: 3000\n\n');
      const write = (events: readonly LiveEvent[]) => {
        let chunk = '';
        for (const event of events) {
          const { type, ...data } = event;
          chunk += `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
        }
        raw.write(chunk);
      };
      const unsubscribe = ctx.live.subscribe(account.accountId, write);
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.raw.once('close', end);
      raw.once('close', end);
    },
  );
}
