import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { accounts, roles, users, usersRoles } from '../db/schema/index.ts';

export type Action = 'read' | 'create' | 'update' | 'delete';
/** A role's permissions: resource name (or `*`) → the actions it allows. */
export type Permissions = Record<string, Action[]>;

export interface AccountAccess {
  accountId: number;
  roleId: number;
  permissions: Permissions;
  /**
   * A top-level integrator account: its members may manage the reference data all accounts share
   * (geography, roles, device types and models, channel templates).
   */
  managesSharedData: boolean;
}

/** Who is calling and, when the call names one, in which account. */
export interface Actor {
  userId: number;
  /** The token version of the caller's token (a stream ticket is bound to it). */
  tokenVersion?: number;
  account?: AccountAccess;
  /** Every account the user may act in. */
  accessibleAccountIds: number[];
}

export function allows(permissions: Permissions, resource: string, action: Action): boolean {
  return Boolean(permissions[resource]?.includes(action) || permissions['*']?.includes(action));
}

const TTL_MS = 5000;

/**
 * Which accounts a user may act in: those it is a member of, and the sub-accounts of integrator
 * accounts it is a member of (with the integrator membership's role). Cached for a few seconds per
 * user, and dropped whenever accounts, memberships or roles change.
 */
export class AccessResolver {
  private cache = new Map<number, { at: number; accounts: Promise<Map<number, AccountAccess>> }>();

  constructor(private readonly db: Db) {}

  invalidate(): void {
    this.cache.clear();
  }

  accountsOf(userId: number): Promise<Map<number, AccountAccess>> {
    const hit = this.cache.get(userId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.accounts;
    const loading = this.load(userId);
    this.cache.set(userId, { at: Date.now(), accounts: loading });
    loading.catch(() => this.cache.delete(userId));
    return loading;
  }

  private async load(userId: number): Promise<Map<number, AccountAccess>> {
    const memberships = await this.db
      .select({
        accountId: usersRoles.accountId,
        roleId: usersRoles.roleId,
        permissions: roles.permissions,
        isIntegrator: accounts.isIntegrator,
        parentId: accounts.accountId,
      })
      .from(usersRoles)
      .innerJoin(roles, eq(roles.id, usersRoles.roleId))
      .innerJoin(accounts, eq(accounts.id, usersRoles.accountId))
      .where(eq(usersRoles.userId, userId));
    const result = new Map<number, AccountAccess>();
    for (const m of memberships) {
      result.set(m.accountId, {
        accountId: m.accountId,
        roleId: m.roleId,
        permissions: m.permissions as Permissions,
        managesSharedData: m.parentId === null && m.isIntegrator,
      });
    }
    const integrators = memberships.filter((m) => m.isIntegrator);
    if (integrators.length) {
      const children = await this.db
        .select({ id: accounts.id, parentId: accounts.accountId })
        .from(accounts)
        .where(
          inArray(
            accounts.accountId,
            integrators.map((m) => m.accountId),
          ),
        );
      for (const child of children) {
        const parent = result.get(child.parentId as number);
        if (parent && !result.has(child.id))
          result.set(child.id, { ...parent, accountId: child.id, managesSharedData: false });
      }
    }
    return result;
  }

  async userExists(userId: number): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    return rows.length > 0;
  }
}
