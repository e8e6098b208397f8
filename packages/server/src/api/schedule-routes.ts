import {
  checkPreviewRequest,
  getResource,
  type RunningSchedules,
  type SchedulePreview,
  type SchedulePreviewRequest,
} from '@lampyr/contract';
import type { FastifyInstance } from 'fastify';
import { ApiException } from '../errors/api-exception.ts';
import { fieldLabel } from '../i18n/translate.ts';
import type { AppContext } from './context.ts';
import { QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

/** What the schedule routes need from the schedule engines (wired by the composition root). */
export interface ScheduleService {
  preview(accountId: number, request: SchedulePreviewRequest, now: Date): Promise<SchedulePreview | undefined>;
  running(accountId: number, now: Date): Promise<RunningSchedules>;
}

/**
 * `POST /query/api/schedules/preview` `{target: {taskGroupId} | {deviceId} | {street, regionId?},
 * nights 1–60 (30), from?}`: per night, the switch points with the rule behind each, burn hours and
 * an energy estimate. Needs read access to task groups; only the caller's account is planned.
 */
export function registerScheduleRoutes(app: FastifyInstance, _ctx: AppContext, schedules: ScheduleService): void {
  const taskGroups = getResource('task-groups');
  app.post(
    `${QUERY_PREFIX}/schedules/preview`,
    { config: { access: 'user' }, schema: { tags: ['schedules'], summary: 'Preview the plan of the next nights' } },
    async (request) => {
      const actor = authorize(request, taskGroups, 'read');
      const checked = checkPreviewRequest(request.body);
      if (!checked.ok) {
        const fields = Object.fromEntries(
          Object.entries(checked.errors).map(([name, e]) => [
            name,
            request.t(e.key, { ...e.vars, field: fieldLabel(request.t, 'schedules', name) }),
          ]),
        );
        throw new ApiException('VALIDATION', undefined, {}, fields);
      }
      const accountId = actor.account?.accountId as number;
      const preview = await schedules.preview(accountId, checked.value, new Date());
      if (!preview) throw new ApiException('NOT_FOUND');
      return { success: true, data: preview };
    },
  );

  // `?at=<ISO time>` asks what was or will be running then (default: now).
  app.get<{ Querystring: { at?: string } }>(
    `${QUERY_PREFIX}/schedules/running`,
    { config: { access: 'user' }, schema: { tags: ['schedules'], summary: 'Running tasks and task history' } },
    async (request) => {
      const actor = authorize(request, taskGroups, 'read');
      const raw = request.query.at;
      const at = raw === undefined || raw === '' ? new Date() : new Date(raw);
      if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 2000 || at.getUTCFullYear() > 2100) {
        const field = fieldLabel(request.t, 'schedules', 'at');
        throw new ApiException('VALIDATION', undefined, {}, { at: request.t('validation.datetime', { field }) });
      }
      return { success: true, data: await schedules.running(actor.account?.accountId as number, at) };
    },
  );
}
