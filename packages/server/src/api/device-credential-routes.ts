import { getResource } from '@lampyr/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TFunction } from 'i18next';
import { devicePassword } from '../auth/device-credentials.ts';
import type { Executor } from '../data/resource-repository.ts';
import { accounts, devices, transactionLogs } from '../db/schema/index.ts';
import { ApiException, badValue, notFound } from '../errors/api-exception.ts';
import { fieldLabel } from '../i18n/translate.ts';
import type { AppContext } from './context.ts';
import { COMMAND_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

const resource = getResource('devices');

/**
 * An IP device's broker login, for an operator who may update the device: `reveal` shows it (making
 * the password on first use), `rotate` replaces the password, which closes the device's open
 * connections. Both answer `{username, password}` and are written to the transaction log (without
 * the password).
 */
export function registerDeviceCredentialRoutes(app: FastifyInstance, ctx: AppContext): void {
  const repo = ctx.repositories.get('devices');
  if (!repo) return;
  for (const action of ['reveal', 'rotate'] as const) {
    app.post<{ Params: { id: string } }>(
      `${COMMAND_PREFIX}/devices/:id/credentials/${action}`,
      { config: { access: 'user' }, schema: { tags: ['devices'], summary: `${action} an IP device's broker login` } },
      async (request, reply) => {
        const actor = authorize(request, resource, 'update');
        const id = Number(request.params.id);
        if (!Number.isSafeInteger(id) || id < 1) throw badValue('id', 'expected a positive whole number');
        // The device must be one of the selected account's.
        const device = await repo.get(actor, id).catch(() => {
          throw notFound();
        });
        if (!device.uid)
          throw new ApiException(
            'VALIDATION',
            'errors.noDeviceUid',
            {},
            {
              uid: request.t('validation.required', { field: fieldLabel(request.t, 'devices', 'uid') }),
            },
          );
        const login = await devicePassword(ctx.db, ctx.secretBox, { id }, action === 'rotate');
        if (!login) throw notFound();
        await ctx.db.insert(transactionLogs).values({
          accountId: actor.account?.accountId ?? 0,
          userId: actor.userId,
          resource: 'devices',
          action: `credentials-${action}`,
          recordId: id,
          before: null,
          after: { uid: login.username },
        });
        // The embedded broker reloads its credentials (and closes the device's old connections).
        ctx.commands.emit({
          resource: 'devices',
          action: 'update',
          record: device,
          accountId: actor.account?.accountId,
        });
        return reply.header('cache-control', 'no-store').send({ success: true, data: login });
      },
    );
  }
}

/** A command to a deactivated device, or to a device of a deactivated account, is refused. */
export async function refuseInactiveDevice(executor: Executor, record: Record<string, unknown>, t: TFunction) {
  const deviceId = record.deviceId;
  if (typeof deviceId !== 'number') return;
  const [row] = await executor
    .select({ device: devices.isActive, account: accounts.isActive })
    .from(devices)
    .innerJoin(accounts, eq(accounts.id, devices.accountId))
    .where(eq(devices.id, deviceId))
    .limit(1);
  if (row?.device && row.account) return;
  throw new ApiException(
    'VALIDATION',
    undefined,
    {},
    {
      deviceId: t('validation.deviceInactive', { field: fieldLabel(t, 'channel-write-values', 'deviceId') }),
    },
  );
}
