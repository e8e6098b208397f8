import type { FastifyInstance } from 'fastify';
import { allows, type Permissions } from '../access/access.ts';
import { onTokenRevoked } from '../auth/token-versions.ts';
import { ApiException } from '../errors/api-exception.ts';
import type { LiveEvent } from '../events/live-events.ts';
import { issueStreamTicket, redeemStreamTicket, TICKET_TTL_SECONDS } from '../stream/stream-tickets.ts';
import type { AppContext } from './context.ts';
import { QUERY_PREFIX } from './prefixes.ts';

const HEARTBEAT_MS = 15_000;
/** How often an open stream re-checks its user's token version, membership and permissions. */
export const RECHECK_MS = 5_000;
/** Bytes a connection may leave unsent before it is dropped as a slow consumer. */
export const MAX_BUFFERED_BYTES = 512 * 1024;

/** The resources whose read permission each event needs. */
const EVENT_RESOURCES: Record<LiveEvent['type'], string[]> = {
  value: ['channel-values', 'channel-read-values'],
  status: ['device-connection-status'],
  write: ['channel-write-values'],
  notification: ['alert-logs'],
  alarm: ['alert-logs'],
  deploy: ['deploy-response-logs'],
};

const readable = (permissions: Permissions) =>
  new Set(
    (Object.keys(EVENT_RESOURCES) as LiveEvent['type'][]).filter((type) =>
      EVENT_RESOURCES[type].every((resource) => allows(permissions, resource, 'read')),
    ),
  );

/**
 * The live stream, server-sent events of one account — `value` (a channel's new latest value),
 * `status` (a device's connection status), `write` (a channel write's progress), `alarm` (an alarm
 * raised, acknowledged, cleared or shelved), `notification` (an alarm notification for the consoles,
 * or an audio broadcast) — each only when
 * the caller's role may read its resources there.
 *
 * The browser's EventSource cannot send an Authorization header, and a token never travels in a
 * URL (URLs are logged), so a stream is opened in two steps: `POST /query/api/stream/ticket` (with
 * the token and `X-Account-Id`) answers a single-use ticket valid for 30 seconds; `GET
 * /query/api/stream?ticket=…` redeems it. An open stream ends when its user's token version is
 * bumped (logout, password change or reset, an administrator's security edit), when the membership
 * ends, or when the client reads too slowly.
 */
export function registerStreamRoutes(app: FastifyInstance, ctx: AppContext): void {
  const streams = new Set<{ userId: number; recheck: () => void }>();
  const stopListening = onTokenRevoked((userId) => {
    for (const stream of streams) if (stream.userId === userId) stream.recheck();
  });
  app.addHook('onClose', async () => stopListening());

  app.post(
    `${QUERY_PREFIX}/stream/ticket`,
    { config: { access: 'user' }, schema: { tags: ['stream'], summary: 'A single-use ticket to open the stream' } },
    async (request) => {
      const account = request.actor.account;
      if (!account) throw new ApiException('ACCOUNT_REQUIRED');
      const ticket = await issueStreamTicket(ctx.db, {
        userId: request.actor.userId,
        accountId: account.accountId,
        tokenVersion: request.actor.tokenVersion ?? -1,
      });
      return { success: true, data: { ticket, expiresIn: TICKET_TTL_SECONDS } };
    },
  );

  app.get<{ Querystring: { ticket?: string } }>(
    `${QUERY_PREFIX}/stream`,
    {
      // The ticket is the credential, checked here (it is not a token).
      config: { access: 'public' },
      schema: { tags: ['stream'], summary: 'Live events (SSE), opened with a stream ticket' },
    },
    async (request, reply) => {
      const presented = request.query.ticket;
      const grant =
        typeof presented === 'string' && presented ? await redeemStreamTicket(ctx.db, presented) : undefined;
      if (!grant || !(await ctx.tokenVersions.isCurrent(grant.userId, grant.tokenVersion)))
        throw new ApiException('UNAUTHENTICATED');
      const access = (await ctx.access.accountsOf(grant.userId)).get(grant.accountId);
      if (!access) throw new ApiException('ACCOUNT_FORBIDDEN');
      let allowed = readable(access.permissions);

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write(': connected\nretry: 3000\n\n');

      let open = true;
      const send = (chunk: string) => {
        if (!open) return;
        // A reader that cannot keep up is let go before its backlog costs unbounded memory.
        if (raw.writableLength > MAX_BUFFERED_BYTES) {
          request.log.warn({ userId: grant.userId }, 'live stream dropped: the client reads too slowly');
          end(true);
          return;
        }
        raw.write(chunk);
      };
      const write = (events: readonly LiveEvent[]) => {
        let chunk = '';
        for (const event of events) {
          if (!allowed.has(event.type)) continue;
          const { type, ...data } = event;
          chunk += `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
        }
        if (chunk) send(chunk);
      };
      const recheck = () => {
        void (async () => {
          const current = await ctx.tokenVersions.isCurrent(grant.userId, grant.tokenVersion);
          const now = current ? (await ctx.access.accountsOf(grant.userId)).get(grant.accountId) : undefined;
          if (!now) return end(false);
          allowed = readable(now.permissions);
        })().catch((error: unknown) => request.log.warn({ err: error }, 'live stream check failed'));
      };
      const stream = { userId: grant.userId, recheck };
      streams.add(stream);
      const unsubscribe = ctx.live.subscribe(grant.accountId, write);
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      const checker = setInterval(recheck, RECHECK_MS);
      function end(destroy: boolean) {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        clearInterval(checker);
        unsubscribe();
        streams.delete(stream);
        if (destroy) raw.destroy();
        else raw.end();
      }
      request.raw.once('close', () => end(false));
      raw.once('close', () => end(false));
    },
  );
}
