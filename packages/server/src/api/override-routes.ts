import { getResource, overrideRequestSchema } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { CONFIG_TARGET_COLUMNS, type ConfigTarget } from '../data/config-commands.ts';
import { cancelOverrides, holdLights } from '../data/override-commands.ts';
import { activeOverrides } from '../data/overrides.ts';
import { ApiException, badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';
import { authorize, scopeOf } from './resource-routes.ts';

const MAX_DAYS = 30;
const MAX_DEVICES = 5000;

const rowsOf = <T = Record<string, unknown>>(result: unknown) => (result as { rows: T[] }).rows;

interface Covered extends ConfigTarget {
  regionId: number | null;
}

/**
 * Overrides: a level held on some lights until a time. Controllers that keep a schedule get the
 * override command (they drop it at `until` by themselves); other lights get the channel write now,
 * and the scheduler's plan holds them there while `activeOverrides` lists it. Cancelling sends the
 * controllers `cancel-override`.
 */
export function registerOverrideRoutes(app: FastifyInstance, ctx: AppContext): void {
  const resource = getResource('overrides');
  const devices = getResource('devices');

  app.post(
    `${COMMAND_PREFIX}/overrides`,
    { config: { access: 'user' }, schema: { tags: ['overrides'], summary: 'Hold lights at a level until a time' } },
    async (request) => {
      authorize(request, devices, 'update');
      const actor = authorize(request, resource, 'read');
      const account = actor.account;
      if (!account) throw new ApiException('ACCOUNT_REQUIRED');
      const body = parseBody(overrideRequestSchema, request.body);
      const until = new Date(body.until);
      const now = new Date();
      if (until <= now || until.getTime() > now.getTime() + MAX_DAYS * 86_400_000)
        throw badValue('until', request.t('errors.overrideUntil', { days: MAX_DAYS }));
      const target = body.target;
      const deviceScope = scopeOf(ctx, actor, devices.name);
      const where =
        'deviceIds' in target
          ? sql`devices.id = ANY(${`{${[...new Set(target.deviceIds)].join(',')}}`}::bigint[])`
          : 'street' in target
            ? sql`lower(devices.street) = lower(${target.street}) AND (${target.regionId ?? null}::bigint IS NULL OR devices.region_id = ${target.regionId ?? null}::bigint)`
            : sql`devices.region_id = ${target.regionId}`;
      const covered = rowsOf<Covered>(
        await ctx.db.execute(sql`
          SELECT ${CONFIG_TARGET_COLUMNS}, devices.region_id::int AS "regionId"
          FROM devices JOIN device_models m ON m.id = devices.device_type_model_id
          WHERE ${deviceScope} AND devices.is_active AND ${where}
          ORDER BY devices.id LIMIT ${MAX_DEVICES + 1}`),
      );
      const refuse = (key: string, vars: Record<string, string | number> = {}) =>
        new ApiException('VALIDATION', key, vars, { target: request.t(key, vars) });
      if ('deviceIds' in target) {
        const found = new Set(covered.map((d) => d.id));
        const missing = [...new Set(target.deviceIds)].filter((id) => !found.has(id));
        if (missing.length) throw refuse('errors.devicesNotFound', { ids: missing.slice(0, 10).join(', ') });
      }
      if (!covered.length) throw refuse('errors.noOverrideDevices');
      if (covered.length > MAX_DEVICES) throw refuse('errors.groupTooLarge');

      const held = await holdLights(ctx.db, ctx.commands, {
        accountId: account.accountId,
        userId: actor.userId,
        level: body.level,
        until,
        reason: body.reason,
        street: 'street' in target ? target.street : null,
        regionId: 'regionId' in target ? (target.regionId ?? null) : null,
        covered,
      });
      return {
        success: true,
        data: {
          id: held.id,
          level: body.level,
          until: until.toISOString(),
          reason: body.reason,
          deviceCount: covered.length,
          controllers: held.controllers,
          writes: held.writes,
        },
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    `${QUERY_PREFIX}/devices/:id/active-overrides`,
    {
      config: { access: 'user' },
      schema: { tags: ['overrides'], summary: 'The overrides holding a device now, newest first' },
    },
    async (request) => {
      const actor = authorize(request, devices, 'read');
      authorize(request, resource, 'read');
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id < 1) throw badValue('id', 'expected a positive whole number');
      const [visible] = rowsOf(
        await ctx.db.execute(
          sql`SELECT devices.id FROM devices WHERE ${scopeOf(ctx, actor, devices.name)} AND devices.id = ${id}`,
        ),
      );
      if (!visible) throw new ApiException('NOT_FOUND');
      const active = await activeOverrides(ctx.db, id, new Date());
      return { success: true, data: active.map((o) => ({ ...o, until: o.until.toISOString() })) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    `${COMMAND_PREFIX}/overrides/:id`,
    { config: { access: 'user' }, schema: { tags: ['overrides'], summary: 'Cancel an override' } },
    async (request) => {
      authorize(request, devices, 'update');
      const actor = authorize(request, resource, 'read');
      const account = actor.account;
      if (!account) throw new ApiException('ACCOUNT_REQUIRED');
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id < 1) throw badValue('id', 'expected a positive whole number');
      const cancelled = await cancelOverrides(ctx.db, ctx.commands, {
        where: sql`${scopeOf(ctx, actor, resource.name)} AND overrides.id = ${id}`,
        accountId: account.accountId,
        userId: actor.userId,
      });
      if (!cancelled.ids.length) throw new ApiException('NOT_FOUND');
      return { success: true, data: { id, status: 'cancelled', controllers: cancelled.controllers } };
    },
  );
}
