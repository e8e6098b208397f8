import { energyReportRequestSchema, getResource } from '@lampyr/contract';
import type { FastifyInstance } from 'fastify';
import { energyReport } from '../data/energy-report.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

/** Reports computed in the database over rollups: `POST /query/api/reports/energy`. */
export function registerReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const devices = getResource('devices');
  app.post(
    `${QUERY_PREFIX}/reports/energy`,
    {
      config: { access: 'user' },
      schema: { tags: ['reports'], summary: 'Energy used, baseline and savings over a period, grouped' },
    },
    async (request) => {
      const actor = authorize(request, devices, 'read');
      const body = parseBody(energyReportRequestSchema, request.body);
      const scope = ctx.repositories.get(devices.name)?.scope(actor);
      if (!scope) throw new Error('devices are account-scoped');
      return { success: true, data: await energyReport(ctx.db, scope, body) };
    },
  );
}
