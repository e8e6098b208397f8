import { setActiveSchema, setIntegratorSchema, setOperatorSchema, setParentSchema } from '@lampyr/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Executor } from '../data/resource-repository.ts';
import { accounts, transactionLogs, users } from '../db/schema/index.ts';
import { ApiException, notFound } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';

type AccountRow = typeof accounts.$inferSelect;

const treeColumns = {
  id: accounts.id,
  name: accounts.name,
  companyName: accounts.companyName,
  accountId: accounts.accountId,
  isSubAccount: accounts.isSubAccount,
  isIntegrator: accounts.isIntegrator,
  isActive: accounts.isActive,
  updatedAt: accounts.updatedAt,
};

/** Only a platform operator passes; everyone else gets 403 and learns nothing more. */
function requireOperator(request: FastifyRequest): void {
  if (!request.actor.isPlatformOperator) throw new ApiException('FORBIDDEN', 'errors.notPlatformOperator');
}

/**
 * The platform operators' operations: the account tree (integrator, parent, active) and who is a
 * platform operator. Nothing else in the API can change these.
 */
export function registerPlatformRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const options = { config: { access: 'user' as const }, schema: { tags: ['platform'] } };
  const command = `${COMMAND_PREFIX}/platform`;

  app.get(`${QUERY_PREFIX}/platform/accounts`, options, async (request) => {
    requireOperator(request);
    const rows = await db.select(treeColumns).from(accounts).orderBy(asc(accounts.name), asc(accounts.id));
    return { success: true, data: rows };
  });

  app.get(`${QUERY_PREFIX}/platform/users`, options, async (request) => {
    requireOperator(request);
    const rows = await db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        isPlatformOperator: users.isPlatformOperator,
      })
      .from(users)
      .orderBy(asc(users.email))
      .limit(1000);
    return { success: true, data: rows };
  });

  /** Changes one account's tree fields in a transaction, logged like any command. */
  const changeAccount = async (
    request: FastifyRequest,
    accountId: number,
    change: (tx: Executor, before: AccountRow) => Promise<Partial<AccountRow>>,
  ) => {
    const after = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for('update');
      if (!before) throw notFound();
      const set = await change(tx, before);
      const [updated] = await tx
        .update(accounts)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(accounts.id, accountId))
        .returning(treeColumns);
      await tx.insert(transactionLogs).values({
        accountId,
        userId: request.actor.userId,
        resource: 'accounts',
        action: 'update',
        recordId: accountId,
        before: Object.fromEntries(Object.keys(set).map((k) => [k, before[k as keyof AccountRow]])),
        after: set,
      });
      return updated;
    });
    ctx.access.invalidate();
    return { success: true, data: after };
  };

  app.post(`${command}/accounts/integrator`, options, async (request) => {
    requireOperator(request);
    const { accountId, isIntegrator } = parseBody(setIntegratorSchema, request.body);
    return changeAccount(request, accountId, async () => ({ isIntegrator }));
  });

  app.post(`${command}/accounts/active`, options, async (request) => {
    requireOperator(request);
    const { accountId, isActive } = parseBody(setActiveSchema, request.body);
    return changeAccount(request, accountId, async () => ({ isActive }));
  });

  app.post(`${command}/accounts/parent`, options, async (request) => {
    requireOperator(request);
    const { accountId, parentId } = parseBody(setParentSchema, request.body);
    return changeAccount(request, accountId, async (tx) => {
      if (parentId !== null) {
        // Walk up from the new parent: meeting the account itself would close a loop.
        let cursor: number | null = parentId;
        let parent: { accountId: number | null; isIntegrator: boolean } | undefined;
        for (let depth = 0; cursor !== null && depth < 100; depth++) {
          if (cursor === accountId) throw new ApiException('CONFLICT', 'errors.treeCycle');
          const [row] = await tx
            .select({ accountId: accounts.accountId, isIntegrator: accounts.isIntegrator })
            .from(accounts)
            .where(eq(accounts.id, cursor));
          if (!row) throw notFound();
          if (depth === 0) parent = row;
          cursor = row.accountId;
        }
        if (!parent?.isIntegrator) throw new ApiException('CONFLICT', 'errors.parentNotIntegrator');
      }
      return { accountId: parentId, isSubAccount: parentId !== null };
    });
  });

  app.post(`${command}/operators`, options, async (request) => {
    requireOperator(request);
    const { userId, isPlatformOperator } = parseBody(setOperatorSchema, request.body);
    const updated = await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ id: users.id, isPlatformOperator: users.isPlatformOperator })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!before) throw notFound();
      if (!isPlatformOperator) {
        // Locking every operator row makes two revocations at once wait for each other.
        const operators = await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.isPlatformOperator, true))
          .for('update');
        if (!operators.some((o) => o.id !== userId)) throw new ApiException('CONFLICT', 'errors.lastOperator');
      }
      const [row] = await tx
        .update(users)
        .set({ isPlatformOperator, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning({ id: users.id, email: users.email, isPlatformOperator: users.isPlatformOperator });
      await tx.insert(transactionLogs).values({
        accountId: request.actor.account?.accountId ?? 0,
        userId: request.actor.userId,
        resource: 'users',
        action: 'update',
        recordId: userId,
        before: { isPlatformOperator: before.isPlatformOperator },
        after: { isPlatformOperator },
      });
      return row;
    });
    ctx.access.invalidate();
    await ctx.onSecurityEdit(userId);
    return { success: true, data: updated };
  });
}
