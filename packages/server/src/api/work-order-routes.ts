import {
  FAULT_PHOTO_MAX_BYTES,
  getResource,
  reportFaultBodySchema,
  WORK_ORDER_BODIES,
  WORK_ORDER_TRANSITIONS,
  type WorkOrderTransition,
} from '@lampyr/contract';
import type { FastifyInstance } from 'fastify';
import { assignees, photoOf, reportFault, type TransitionInput, takeTransition } from '../data/work-orders.ts';
import { ApiException, badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

/**
 * The maintenance workflow (contract work-orders.ts):
 * - `POST /command/api/work-orders/report`: a person reports a fault (photo, location);
 * - `POST /command/api/work-orders/{assign,plan,start,resolve,close,reopen}` `{id, …}`: one transition
 *   of the state machine; an illegal one is a 409 saying what is allowed, another account's id a 404;
 * - `GET /query/api/work-orders/{id}/photo`: the report's photo;
 * - `GET /query/api/work-orders/assignees`: who may be given the account's work orders.
 * The maintenance KPIs are a report (`POST /query/api/reports/maintenance`, report-routes.ts).
 * Each answers the work order as the fault report list shows it.
 */
export function registerWorkOrderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const resource = getResource('report-a-fault');
  const repository = ctx.repositories.get(resource.name);
  if (!repository) throw new Error('no repository for report-a-fault');
  const tags = ['work-orders'];

  app.post(
    `${COMMAND_PREFIX}/work-orders/report`,
    {
      config: { access: 'user' },
      // A 2 MB photo is 2.7 MB as base64.
      bodyLimit: Math.ceil((FAULT_PHOTO_MAX_BYTES * 4) / 3) + 64 * 1024,
      schema: { tags, summary: 'Report a fault (with a photo and a location)' },
    },
    async (request, reply) => {
      const actor = authorize(request, resource, 'create');
      const body = parseBody(reportFaultBodySchema, request.body);
      const result = await reportFault(ctx.db, actor, body, request.t, new Date());
      const record = await repository.get(actor, result.id);
      return reply.status(201).send({ success: true, data: { ...result, record } });
    },
  );

  for (const transition of WORK_ORDER_TRANSITIONS) {
    app.post(
      `${COMMAND_PREFIX}/work-orders/${transition}`,
      { config: { access: 'user' }, schema: { tags, summary: `Work order: ${transition}` } },
      async (request) => {
        // Reading is the least a transition needs; who may take which is decided on the work order.
        const actor = authorize(request, resource, 'read');
        const body = parseBody(WORK_ORDER_BODIES[transition as WorkOrderTransition], request.body);
        const input = { ...body, transition } as TransitionInput;
        const id = await takeTransition(ctx.db, actor, input, request.t, new Date());
        return { success: true, data: await repository.get(actor, id) };
      },
    );
  }

  app.get<{ Params: { id: string } }>(
    `${QUERY_PREFIX}/work-orders/:id/photo`,
    { config: { access: 'user' }, schema: { tags, summary: "A fault report's photo" } },
    async (request, reply) => {
      const actor = authorize(request, resource, 'read');
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id < 1) throw badValue('id', 'expected a positive whole number');
      const photo = await photoOf(ctx.db, actor.account?.accountId ?? -1, id);
      if (!photo) throw new ApiException('NOT_FOUND');
      return reply
        .header('content-type', photo.contentType)
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', `inline; filename="fault-${id}"`)
        .header('x-content-type-options', 'nosniff')
        .send(photo.data);
    },
  );

  app.get(
    `${QUERY_PREFIX}/work-orders/assignees`,
    { config: { access: 'user' }, schema: { tags, summary: 'Who work orders can be assigned to' } },
    async (request) => {
      const actor = authorize(request, resource, 'read');
      return { success: true, data: await assignees(ctx.db, actor.account?.accountId ?? -1) };
    },
  );
}
