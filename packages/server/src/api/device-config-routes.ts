import { getResource } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Actor } from '../access/access.ts';
import {
  configTargets,
  programBuilder,
  type QueuedCommand,
  queueConfigCommands,
  settleGroups,
} from '../data/config-commands.ts';
import { ApiException, badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX } from './prefixes.ts';
import { authorize, scopeOf } from './resource-routes.ts';

/** The console's four device actions (SPEC: Manuel Config Request, Clear Device Data, Reset Device Config, Config Deploy). */
export const DEVICE_ACTIONS = {
  'config-request': 'config-request',
  'clear-device-data': 'clear-device-data',
  'reset-device-config': 'reset-device-config',
  'config-deploy': 'deploy',
} as const;

const actionBody = z
  .object({
    action: z.enum(Object.keys(DEVICE_ACTIONS) as [keyof typeof DEVICE_ACTIONS, ...(keyof typeof DEVICE_ACTIONS)[]]),
    deviceIds: z.array(z.number().int().positive()).min(1).max(500),
    profileId: z.number().int().positive().optional(),
  })
  .strict();

const groupBody = z.object({ profileId: z.number().int().positive().optional() }).strict();

const rowsOf = <T = Record<string, unknown>>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Configuration commands to controllers that keep a schedule (docs/device-config.md): each request
 * is checked whole first (every device found, of a model that supports tasks, reachable; a profile
 * that makes a program that fits), then one deploy response log row per device is queued for the
 * deployment engine, which sends, confirms and resends them. Progress: the rows and `deploy` events.
 */
export function registerDeviceConfigRoutes(app: FastifyInstance, ctx: AppContext): void {
  const logs = getResource('deploy-response-logs');
  const devices = getResource('devices');
  const accountOf = (actor: Actor) => {
    if (!actor.account) throw new ApiException('ACCOUNT_REQUIRED');
    return { userId: actor.userId, accountId: actor.account.accountId };
  };
  const announce = (queued: QueuedCommand[]) =>
    ctx.commands.emit({
      resource: logs.name,
      action: 'create',
      record: { ids: queued.map((q) => q.logId) },
    });
  const authorizeAction = (request: FastifyRequest) => {
    // Sending a command changes the device, and writes its log.
    authorize(request, devices, 'update');
    return authorize(request, logs, 'read');
  };

  app.post(
    `${COMMAND_PREFIX}/devices/config-actions`,
    {
      config: { access: 'user' },
      schema: {
        tags: ['devices'],
        summary: 'Send a configuration command (config request, clear data, reset config, deploy) to devices',
      },
    },
    async (request) => {
      const actor = authorizeAction(request);
      const body = parseBody(actionBody, request.body);
      const operation = DEVICE_ACTIONS[body.action];
      if (operation === 'deploy' && body.profileId === undefined)
        throw badValue('profileId', request.t('errors.profileRequired'));
      const targets = await configTargets(ctx.db, scopeOf(ctx, actor, devices.name), body.deviceIds, request.t);
      const builder =
        operation === 'deploy'
          ? await programBuilder(ctx.db, scopeOf(ctx, actor, 'profiles'), body.profileId as number, request.t)
          : undefined;
      const at = new Date();
      const { batchId, queued } = await queueConfigCommands(ctx.db, {
        operation,
        targets,
        argsFor: builder ? (target, version) => ({ program: builder.build(target, version, at) }) : undefined,
        taskProfileId: builder?.profileId,
        actor: accountOf(actor),
        at,
      });
      announce(queued);
      return { success: true, data: { batchId, results: queued } };
    },
  );

  app.post<{ Params: { id: string } }>(
    `${COMMAND_PREFIX}/task-groups/:id/deploy`,
    {
      config: { access: 'user' },
      schema: { tags: ['task-groups'], summary: "Deploy a task group's schedule to its member controllers" },
    },
    async (request) => {
      const actor = authorizeAction(request);
      authorize(request, getResource('task-groups'), 'update');
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id < 1) throw badValue('id', 'expected a positive whole number');
      const body = parseBody(groupBody, request.body ?? {});
      const group = rowsOf<{ id: number; model: number | null; region: number | null }>(
        await ctx.db.execute(sql`
          SELECT task_groups.id::int AS id, device_type_model_id::int AS model, region_id::int AS region FROM task_groups
          WHERE ${scopeOf(ctx, actor, 'task-groups')} AND task_groups.id = ${id}`),
      )[0];
      if (!group) throw new ApiException('NOT_FOUND');
      const refuse = (key: string) => new ApiException('VALIDATION', key, {}, { id: request.t(key) });
      // The pairing of highest priority names the profile, unless the request names one.
      const profileId =
        body.profileId ??
        rowsOf<{ id: number }>(
          await ctx.db.execute(sql`
            SELECT task_profile_id::int AS id FROM task_group_profiles WHERE task_group_id = ${id}
            ORDER BY priority DESC, id LIMIT 1`),
        )[0]?.id;
      if (profileId === undefined) throw refuse('errors.noGroupProfile');
      // Its listed members when it lists any (a street, a map selection), else its model's and region's
      // devices — the schedule's own rule (engines/schedules/members.ts).
      const members = rowsOf<{ id: number }>(
        await ctx.db.execute(sql`
          SELECT devices.id::int AS id FROM devices
          WHERE ${scopeOf(ctx, actor, devices.name)} AND devices.is_active
            AND CASE WHEN EXISTS (SELECT 1 FROM task_group_members WHERE task_group_id = ${id})
              THEN devices.id IN (SELECT device_id FROM task_group_members WHERE task_group_id = ${id})
              ELSE (${group.model}::bigint IS NOT NULL OR ${group.region}::bigint IS NOT NULL)
                AND (${group.model}::bigint IS NULL OR devices.device_type_model_id = ${group.model}::bigint)
                AND (${group.region}::bigint IS NULL OR devices.region_id = ${group.region}::bigint)
            END
          ORDER BY devices.id LIMIT 5001`),
      ).map((r) => r.id);
      if (!members.length) throw refuse('errors.noGroupMembers');
      if (members.length > 5000) throw refuse('errors.groupTooLarge');
      const targets = await configTargets(ctx.db, scopeOf(ctx, actor, devices.name), members, request.t);
      const builder = await programBuilder(ctx.db, scopeOf(ctx, actor, 'profiles'), profileId, request.t);
      const at = new Date();
      const { batchId, queued } = await queueConfigCommands(ctx.db, {
        operation: 'deploy',
        targets,
        argsFor: (target, version) => ({ program: builder.build(target, version, at) }),
        taskProfileId: profileId,
        taskGroupId: id,
        actor: accountOf(actor),
        at,
      });
      // Worked out from the rows, as each confirmation does: a row the sweep sends (and its device
      // confirms) before this statement runs is counted, not overwritten with 0/N.
      await settleGroups(ctx.db, [batchId]);
      announce(queued);
      return { success: true, data: { batchId, taskGroupId: id, profileId, results: queued } };
    },
  );
}
