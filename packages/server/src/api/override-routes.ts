import { getResource, overrideRequestSchema } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../access/access.ts';
import { type ConfigTarget, queueConfigCommands } from '../data/config-commands.ts';
import { activeOverrides } from '../data/overrides.ts';
import { transactionLogs } from '../db/schema/index.ts';
import { ApiException, badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

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
  const scopeOf = (actor: Actor, name: string) => {
    const repository = ctx.repositories.get(name);
    if (!repository) throw new Error(`no repository for ${name}`);
    return repository.scope(actor) ?? sql`true`;
  };

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
      const deviceScope = scopeOf(actor, devices.name);
      const where =
        'deviceIds' in target
          ? sql`devices.id = ANY(${`{${[...new Set(target.deviceIds)].join(',')}}`}::bigint[])`
          : 'street' in target
            ? sql`lower(devices.street) = lower(${target.street}) AND (${target.regionId ?? null}::bigint IS NULL OR devices.region_id = ${target.regionId ?? null}::bigint)`
            : sql`devices.region_id = ${target.regionId}`;
      const covered = rowsOf<Covered>(
        await ctx.db.execute(sql`
          SELECT devices.id::int AS id, devices.account_id::int AS "accountId", devices.name, devices.dev_eui AS "devEui",
                 devices.uid, devices.latitude, devices.longitude, m.support_task AS "supportTask",
                 devices.region_id::int AS "regionId"
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

      const controllers = covered.filter((d) => d.supportTask && (d.devEui || d.uid));
      const serverTimed = covered.filter((d) => !controllers.includes(d));
      // Each server-timed light's write channel for a level: off through `lamp`, a level through `dim`.
      const channels = serverTimed.length
        ? rowsOf<{ device_id: number; template_id: number; code: string }>(
            await ctx.db.execute(sql`
              SELECT d.id::int AS device_id, t.id::int AS template_id, t.channel_code AS code
              FROM devices d JOIN device_channel_templates t ON t.device_type_model_id = d.device_type_model_id
              WHERE d.id = ANY(${`{${serverTimed.map((d) => d.id).join(',')}}`}::bigint[])
                AND t.channel_type IN ('write', 'readwrite')
              ORDER BY t.mqtt_package_order`),
          )
        : [];
      const writeOf = (deviceId: number) => {
        const own = channels.filter((c) => c.device_id === deviceId);
        const preferred = body.level === 0 ? ['lamp', 'dim'] : ['dim', 'lamp'];
        const pick = preferred.map((code) => own.find((c) => c.code === code)).find(Boolean) ?? own[0];
        if (!pick) return undefined;
        return { templateId: pick.template_id, value: pick.code === 'lamp' ? (body.level > 0 ? 1 : 0) : body.level };
      };

      const record = await ctx.db.transaction(async (tx) => {
        const [row] = rowsOf<{ id: number }>(
          await tx.execute(sql`
            INSERT INTO overrides (account_id, level, until, reason, status, street, region_id, device_ids, device_count)
            VALUES (${account.accountId}, ${body.level}, ${until.toISOString()}::timestamptz, ${body.reason}, 'active',
              ${'street' in target ? target.street : null}, ${'regionId' in target ? (target.regionId ?? null) : null},
              ${JSON.stringify(covered.map((d) => d.id))}::jsonb, ${covered.length})
            RETURNING id::int AS id`),
        );
        const writes: { deviceId: number; writeId: number }[] = [];
        for (const device of serverTimed) {
          const write = writeOf(device.id);
          if (!write) continue;
          const [w] = rowsOf<{ id: number }>(
            await tx.execute(sql`
              INSERT INTO channel_write_values (account_id, device_id, device_channel_template_id, value, status, operation_source)
              VALUES (${device.accountId}, ${device.id}, ${write.templateId}, ${write.value}, 'pending', 'override')
              RETURNING id::int AS id`),
          );
          writes.push({ deviceId: device.id, writeId: (w as { id: number }).id });
        }
        await tx.insert(transactionLogs).values({
          accountId: account.accountId,
          userId: actor.userId,
          resource: resource.name,
          action: 'create',
          recordId: row?.id,
          before: null,
          after: { level: body.level, until: until.toISOString(), reason: body.reason, devices: covered.length },
        });
        return { id: (row as { id: number }).id, writes };
      });
      const queued = controllers.length
        ? await queueConfigCommands(ctx.db, {
            operation: 'override',
            targets: controllers,
            argsFor: () => ({ level: body.level, until: until.toISOString() }),
            actor: { userId: actor.userId, accountId: account.accountId },
          })
        : undefined;
      if (queued)
        ctx.commands.emit({
          resource: 'deploy-response-logs',
          action: 'create',
          record: { ids: queued.queued.map((q) => q.logId) },
        });
      for (const w of record.writes)
        ctx.commands.emit({ resource: 'channel-write-values', action: 'create', record: { id: w.writeId } });
      return {
        success: true,
        data: {
          id: record.id,
          level: body.level,
          until: until.toISOString(),
          reason: body.reason,
          deviceCount: covered.length,
          controllers: queued?.queued ?? [],
          writes: record.writes,
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
          sql`SELECT devices.id FROM devices WHERE ${scopeOf(actor, devices.name)} AND devices.id = ${id}`,
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
      const [cancelled] = rowsOf<{ id: number; device_ids: number[] }>(
        await ctx.db.execute(sql`
          UPDATE overrides SET status = 'cancelled', cancelled_at = now(), updated_at = now()
          WHERE ${scopeOf(actor, resource.name)} AND overrides.id = ${id} AND overrides.status = 'active'
          RETURNING overrides.id::int AS id, overrides.device_ids`),
      );
      if (!cancelled) throw new ApiException('NOT_FOUND');
      const ids = (cancelled.device_ids ?? []).map(Number);
      const controllers = ids.length
        ? rowsOf<ConfigTarget>(
            await ctx.db.execute(sql`
              SELECT devices.id::int AS id, devices.account_id::int AS "accountId", devices.name, devices.dev_eui AS "devEui",
                     devices.uid, devices.latitude, devices.longitude, m.support_task AS "supportTask"
              FROM devices JOIN device_models m ON m.id = devices.device_type_model_id
              WHERE devices.id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND m.support_task
                AND (devices.dev_eui IS NOT NULL OR devices.uid IS NOT NULL)`),
          )
        : [];
      const queued = controllers.length
        ? await queueConfigCommands(ctx.db, {
            operation: 'cancel-override',
            targets: controllers,
            actor: { userId: actor.userId, accountId: account.accountId },
          })
        : undefined;
      if (queued)
        ctx.commands.emit({
          resource: 'deploy-response-logs',
          action: 'create',
          record: { ids: queued.queued.map((q) => q.logId) },
        });
      return { success: true, data: { id, status: 'cancelled', controllers: queued?.queued ?? [] } };
    },
  );
}
