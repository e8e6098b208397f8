import { and, eq, inArray } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import { CODE_TTL_MINUTES, issueCode } from '../auth/one-time-codes.ts';
import type { Executor, VirtualField, WritePolicy } from '../data/resource-repository.ts';
import type { Db } from '../db/connect.ts';
import { accounts, usersRoles } from '../db/schema/index.ts';
import { ApiException } from '../errors/api-exception.ts';
import { fieldLabel } from '../i18n/translate.ts';
import type { Mailer } from '../mail/mailer.ts';
import { type AccountAccess, type Actor, allows, permissionsProblem } from './access.ts';

type Row = Record<string, unknown>;

export interface TenancyHooks {
  db: Db;
  mailer: Mailer;
  /** A change to who a user is or what they may do (role, membership): their sessions must end. */
  onSecurityEdit(userId: number): Promise<void> | void;
}

/** The account tree: not ordinary fields; set by the server on create, by platform operators after. */
const TREE_FIELDS = ['accountId', 'isSubAccount', 'isActive', 'isIntegrator'] as const;

const fieldError = (t: TFunction, resource: string, field: string, key: string, vars: Row = {}) =>
  new ApiException(
    'VALIDATION',
    undefined,
    {},
    { [field]: t(key, { ...vars, field: fieldLabel(t, resource, field) }) },
  );

const given = (value: unknown) => value !== undefined && value !== null;

/** A tree field sent in a generic write must equal what it already is (or what the server sets). */
function keepTree(t: TFunction, input: Row, current: Row): void {
  for (const name of TREE_FIELDS) {
    if (input[name] !== undefined && input[name] !== current[name])
      throw fieldError(t, 'accounts', name, 'validation.treeField');
  }
}

/** The account a caller acts in and, when it is an integrator, its sub-accounts. */
async function treeOf(tx: Executor, account: AccountAccess): Promise<Set<number>> {
  const tree = new Set([account.accountId]);
  if (account.isIntegrator) {
    const children = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.accountId, account.accountId));
    for (const c of children) tree.add(c.id);
  }
  return tree;
}

/**
 * An administrator manages a person only when every membership of that person lies inside the
 * administrator's tree: a customer cannot edit the integrator's staff who also belong to it.
 */
async function requireInsideTree(tx: Executor, actor: Actor, userIds: number[]): Promise<void> {
  if (actor.isPlatformOperator) return;
  const account = actor.account;
  if (!account) throw new ApiException('ACCOUNT_REQUIRED');
  const tree = await treeOf(tx, account);
  const memberships = await tx
    .select({ accountId: usersRoles.accountId })
    .from(usersRoles)
    .where(inArray(usersRoles.userId, userIds));
  if (memberships.some((m) => !tree.has(m.accountId))) throw new ApiException('FORBIDDEN', 'errors.outsideTree');
}

/** The members of the account the caller acts in, among these users. */
async function membersHere(tx: Executor, actor: Actor, userIds: number[]): Promise<Set<number>> {
  const accountId = actor.account?.accountId ?? -1;
  const rows = await tx
    .select({ userId: usersRoles.userId })
    .from(usersRoles)
    .where(and(eq(usersRoles.accountId, accountId), inArray(usersRoles.userId, userIds)));
  return new Set(rows.map((r) => r.userId));
}

/**
 * A sub-account lists the integrator's staff who act there (the users' scope), but they are not its
 * members: they are edited and removed in the integrator's account, never from here.
 */
async function refuseIntegratorStaff(tx: Executor, actor: Actor, user: Row): Promise<void> {
  if ((await membersHere(tx, actor, [user.id as number])).size) return;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || String(user.email ?? user.id);
  throw new ApiException('FORBIDDEN', 'errors.integratorStaff', { name });
}

/** The users' virtual fields: `integratorStaff`, someone who acts here only as a member of the integrator. */
export function tenancyFields(): Record<string, Record<string, VirtualField>> {
  return {
    users: {
      async integratorStaff(executor, actor, rows, name) {
        const members = await membersHere(
          executor,
          actor,
          rows.map((r) => r.id as number),
        );
        for (const row of rows) row[name] = !members.has(row.id as number);
      },
    },
  };
}

function checkPermissions(t: TFunction, value: Row): void {
  if (!('permissions' in value)) return;
  const problem = permissionsProblem(value.permissions);
  if (problem) throw fieldError(t, 'roles', 'permissions', problem.key, 'resource' in problem ? problem : {});
}

/** Who may write accounts, users, memberships and roles beyond what a role's permissions say. */
export function tenancyPolicies(hooks: TenancyHooks): Record<string, WritePolicy> {
  const securityEdit =
    (...userIds: number[]) =>
    async () => {
      for (const id of new Set(userIds)) await hooks.onSecurityEdit(id);
    };

  const invite = (actor: Actor, t: TFunction) => async (record: Row) => {
    const userId = record.id as number;
    const [account] = await hooks.db
      .select({ name: accounts.name })
      .from(accounts)
      .where(eq(accounts.id, actor.account?.accountId ?? -1))
      .limit(1);
    // A reset code: the invited person chooses a password with it (and so proves the mailbox).
    const code = await issueCode(hooks.db, userId, 'reset');
    await hooks.mailer.send({
      to: record.email as string,
      subject: t('mail.inviteSubject'),
      text: t('mail.inviteBody', { code, minutes: CODE_TTL_MINUTES, account: account?.name ?? 'Lampyr' }),
    });
  };

  return {
    accounts: {
      // A new account is a sub-account of the integrator account the caller acts in.
      async create({ actor, input, value, t }) {
        const parent = actor.account;
        if (!parent?.isIntegrator) throw new ApiException('FORBIDDEN', 'errors.integratorOnly');
        const chosen = { accountId: parent.accountId, isSubAccount: true, isActive: true, isIntegrator: false };
        keepTree(t, input, chosen);
        Object.assign(value, chosen);
        return undefined;
      },
      // Authorised by the caller's role in the account being written, not in the one it acts in.
      async update({ actor, input, before, t }) {
        const own = actor.accounts?.get(before.id as number);
        if (!own || !allows(own.permissions, 'accounts', 'update')) throw new ApiException('FORBIDDEN');
        keepTree(t, input, before);
        return undefined;
      },
      // Removing an account is a tree operation: its integrator's staff, or a platform operator.
      async delete({ actor, before }) {
        if (actor.isPlatformOperator) return undefined;
        const parent = before.accountId === null ? undefined : actor.accounts?.get(before.accountId as number);
        if (!parent || !allows(parent.permissions, 'accounts', 'delete')) throw new ApiException('FORBIDDEN');
        return undefined;
      },
    },
    users: {
      // Identity belongs to the person: an administrator never sets a password or changes an address.
      refuse(input, t) {
        if ('password' in input) throw fieldError(t, 'users', 'password', 'validation.passwordByOwner');
      },
      async create({ actor, value, t }) {
        value.email = String(value.email).toLowerCase();
        return invite(actor, t);
      },
      async update({ tx, actor, value, before, t }) {
        await refuseIntegratorStaff(tx, actor, before);
        if (given(value.email) && String(value.email).toLowerCase() !== before.email)
          throw fieldError(t, 'users', 'email', 'validation.emailByOwner');
        await requireInsideTree(tx, actor, [before.id as number]);
        const roleChanged = given(value.roleId) && value.roleId !== before.roleId;
        return roleChanged ? securityEdit(before.id as number) : undefined;
      },
      async delete({ tx, actor, before }) {
        await refuseIntegratorStaff(tx, actor, before);
        return securityEdit(before.id as number);
      },
    },
    'users-roles': {
      async create({ actor, value }) {
        await requireInsideTree(hooks.db, actor, [value.userId as number]);
        return securityEdit(value.userId as number);
      },
      async update({ tx, actor, value, before }) {
        const users = [before.userId as number, ...(given(value.userId) ? [value.userId as number] : [])];
        await requireInsideTree(tx, actor, users);
        return securityEdit(...users);
      },
      async delete({ before }) {
        return securityEdit(before.userId as number);
      },
    },
    roles: {
      async create({ value, t }) {
        checkPermissions(t, value);
        return undefined;
      },
      async update({ value, t }) {
        checkPermissions(t, value);
        return undefined;
      },
    },
  };
}
