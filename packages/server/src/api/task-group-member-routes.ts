import { getResource, type MembersAdded, memberSourceSchema } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { transactionLogs } from '../db/schema/index.ts';
import { ApiException, badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX } from './prefixes.ts';
import { authorize, scopeOf } from './resource-routes.ts';

/** The most devices one call adds (a group larger than this is built in several calls). */
const MAX_DEVICES = 5000;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * `POST /command/api/task-groups/{id}/members/add` `{street, regionId?} | {regionId} | {bounds} |
 * {deviceIds}`: adds the devices of a street, a region, a rectangle drawn on the map or a list to
 * a task group's member list (engines/schedules/members.ts: listed members alone are the group).
 * Only devices of the group's own account that the caller may see; those already listed stay.
 */
export function registerTaskGroupMemberRoutes(app: FastifyInstance, ctx: AppContext): void {
  const groups = getResource('task-groups');
  const members = getResource('task-group-members');
  const devices = getResource('devices');

  app.post<{ Params: { id: string } }>(
    `${COMMAND_PREFIX}/task-groups/:id/members/add`,
    {
      config: { access: 'user' },
      schema: { tags: ['schedules'], summary: 'Add the devices of a street, a region or a map area to a task group' },
    },
    async (request) => {
      authorize(request, devices, 'read');
      authorize(request, groups, 'read');
      const actor = authorize(request, members, 'create');
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id < 1) throw badValue('id', 'expected a positive whole number');
      const source = parseBody(memberSourceSchema, request.body);
      const [group] = rowsOf<{ id: number; accountId: number }>(
        await ctx.db.execute(sql`
          SELECT id::int AS id, account_id::int AS "accountId" FROM task_groups
          WHERE id = ${id} AND ${scopeOf(ctx, actor, groups.name)}`),
      );
      if (!group) throw new ApiException('NOT_FOUND');

      const where =
        'deviceIds' in source
          ? sql`devices.id = ANY(${`{${[...new Set(source.deviceIds)].join(',')}}`}::bigint[])`
          : 'street' in source
            ? sql`lower(btrim(devices.street)) = lower(${source.street})
                AND (${source.regionId ?? null}::bigint IS NULL OR devices.region_id = ${source.regionId ?? null}::bigint)`
            : 'bounds' in source
              ? sql`devices.latitude BETWEEN ${source.bounds.south} AND ${source.bounds.north}
                  AND devices.longitude BETWEEN ${source.bounds.west} AND ${source.bounds.east}`
              : sql`devices.region_id = ${source.regionId}`;
      const matched = rowsOf<{ id: number }>(
        await ctx.db.execute(sql`
          SELECT devices.id::int AS id FROM devices
          WHERE ${scopeOf(ctx, actor, devices.name)} AND devices.account_id = ${group.accountId} AND ${where}
          ORDER BY devices.id LIMIT ${MAX_DEVICES + 1}`),
      );
      const refuse = (key: string, vars: Record<string, string | number> = {}) =>
        new ApiException('VALIDATION', key, vars, { source: request.t(key, vars) });
      if ('deviceIds' in source) {
        const found = new Set(matched.map((d) => d.id));
        const missing = [...new Set(source.deviceIds)].filter((d) => !found.has(d));
        if (missing.length) throw refuse('errors.memberDevicesNotFound', { ids: missing.slice(0, 10).join(', ') });
      }
      if (!matched.length) throw refuse('errors.noMemberDevices');
      if (matched.length > MAX_DEVICES) throw refuse('errors.tooManyMembers', { max: MAX_DEVICES });

      const added = await ctx.db.transaction(async (tx) => {
        const inserted = rowsOf<{ deviceId: number }>(
          await tx.execute(sql`
            INSERT INTO task_group_members (account_id, task_group_id, device_id)
            SELECT ${group.accountId}, ${group.id}, d FROM unnest(${`{${matched.map((m) => m.id).join(',')}}`}::bigint[]) AS d
            ON CONFLICT (task_group_id, device_id) DO NOTHING
            RETURNING device_id::int AS "deviceId"`),
        );
        if (inserted.length)
          await tx.insert(transactionLogs).values({
            accountId: group.accountId,
            userId: actor.userId,
            resource: members.name,
            action: 'create',
            recordId: group.id,
            before: null,
            after: { taskGroupId: group.id, source, deviceIds: inserted.map((r) => r.deviceId) },
          });
        return inserted.length;
      });
      const data: MembersAdded = { matched: matched.length, added };
      return { success: true, data };
    },
  );
}
