import { getResource, pushSubscriptionSchema, pushUnsubscribeSchema, resendSchema } from '@lampyr/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api-exception.ts';
import type { AppContext, NotificationDesk } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

const tags = ['notifications'];
/**
 * The body schemas below document the routes; the bodies are checked by the contract's zod schemas
 * alone (no coercion: `"ids": 7` is not `[7]`).
 */
const documentedOnly = { validatorCompiler: () => (value: unknown) => ({ value }) };
const user = { access: 'user' as const };
const list = getResource('alert-notification-list');
/** Web Push carries alarms: a browser subscribes for what its user may read. */
const alarms = getResource('alert-logs');

/**
 * Web Push subscriptions (the VAPID public key, subscribe, unsubscribe) and the resend command of the
 * notification list. Each acts in the selected account only.
 */
export function registerNotificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const desk = (): NotificationDesk => {
    if (!ctx.notifications) throw new ApiException('NOT_FOUND');
    return ctx.notifications;
  };
  const who = (request: FastifyRequest, resource = alarms, action: 'read' | 'update' = 'read') => {
    const actor = authorize(request, resource, action);
    return { accountId: actor.account?.accountId ?? -1, userId: actor.userId };
  };

  app.get(
    `${QUERY_PREFIX}/notifications/vapid-public-key`,
    {
      config: user,
      schema: {
        tags,
        summary: 'The VAPID public key browsers subscribe to Web Push with',
        response: {
          200: {
            type: 'object',
            properties: {
              success: { type: 'boolean' },
              data: { type: 'object', properties: { publicKey: { type: 'string' } } },
            },
          },
        },
      },
    },
    async () => ({ success: true, data: { publicKey: desk().vapidPublicKey() } }),
  );

  app.post(
    `${COMMAND_PREFIX}/notifications/push-subscriptions`,
    {
      config: user,
      ...documentedOnly,
      schema: {
        tags,
        summary: "Subscribe this browser to the account's alarm notifications (Web Push)",
        body: {
          type: 'object',
          required: ['endpoint', 'keys'],
          properties: {
            endpoint: { type: 'string' },
            keys: { type: 'object', properties: { p256dh: { type: 'string' }, auth: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const caller = who(request);
      const input = parseBody(pushSubscriptionSchema, request.body);
      if (!(await desk().subscribe(caller, input))) throw new ApiException('CONFLICT', 'errors.pushSubscriptionLimit');
      return reply.status(201).send({ success: true, data: { endpoint: input.endpoint } });
    },
  );

  app.delete(
    `${COMMAND_PREFIX}/notifications/push-subscriptions`,
    {
      config: user,
      ...documentedOnly,
      schema: {
        tags,
        summary: "Unsubscribe this browser from the account's alarm notifications",
        body: { type: 'object', required: ['endpoint'], properties: { endpoint: { type: 'string' } } },
      },
    },
    async (request) => {
      const caller = who(request);
      const { endpoint } = parseBody(pushUnsubscribeSchema, request.body);
      return { success: true, data: { removed: await desk().unsubscribe(caller, endpoint) } };
    },
  );

  app.post(
    `${COMMAND_PREFIX}/notifications/resend`,
    {
      config: user,
      ...documentedOnly,
      schema: {
        tags,
        summary: 'Queue notifications again (sent, failed or undeliverable ones)',
        body: { type: 'object', required: ['ids'], properties: { ids: { type: 'array', items: { type: 'integer' } } } },
      },
    },
    async (request) => {
      const caller = who(request, list, 'update');
      const { ids } = parseBody(resendSchema, request.body);
      return { success: true, data: await desk().resend(caller, ids) };
    },
  );
}
