import { catalogue } from '@lampyr/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { accounts, roles, users, usersRoles } from '../db/schema/index.ts';

export type Action = 'read' | 'create' | 'update' | 'delete';
/** A role's permissions: resource name (or `*`) → the actions it allows. */
export type Permissions = Record<string, Action[]>;

export interface AccountAccess {
  accountId: number;
  roleId: number;
  permissions: Permissions;
  /** Whether this account is an integrator (its members also act in its sub-accounts). */
  isIntegrator: boolean;
}

/** Who is calling and, when the call names one, in which account. */
export interface Actor {
  userId: number;
  /** The token version of the caller's token (a stream ticket is bound to it). */
  tokenVersion?: number;
  account?: AccountAccess;
  /** Every account the user may act in. */
  accessibleAccountIds: number[];
  /** The user's access per account (a write to an `accounts` record is checked against that account). */
  accounts?: Map<number, AccountAccess>;
  /** Owns the account tree and the shared reference data. */
  isPlatformOperator?: boolean;
}

export function allows(permissions: Permissions, resource: string, action: Action): boolean {
  return Boolean(permissions[resource]?.includes(action) || permissions['*']?.includes(action));
}

export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete'];
const RESOURCE_NAMES = new Set(catalogue.map((r) => r.name));

export type PermissionProblem =
  | { key: 'validation.permissionsShape' }
  | { key: 'validation.permissionsResource' | 'validation.permissionsAction'; resource: string };

/**
 * What is wrong with a role's permissions, or nothing: an object of resource name (of the
 * catalogue, or `*`) → a list of distinct actions among read, create, update, delete.
 */
export function permissionsProblem(value: unknown): PermissionProblem | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { key: 'validation.permissionsShape' };
  for (const [resource, actions] of Object.entries(value)) {
    if (resource !== '*' && !RESOURCE_NAMES.has(resource)) return { key: 'validation.permissionsResource', resource };
    if (
      !Array.isArray(actions) ||
      actions.some((a) => !ACTIONS.includes(a as Action)) ||
      new Set(actions).size !== actions.length
    )
      return { key: 'validation.permissionsAction', resource };
  }
  return undefined;
}

/** Stored permissions as the checks use them: anything malformed (written around the API) grants nothing. */
export function storedPermissions(value: unknown): Permissions {
  return permissionsProblem(value) ? {} : (value as Permissions);
}

const TTL_MS = 5000;

interface UserAccess {
  accounts: Map<number, AccountAccess>;
  isPlatformOperator: boolean;
}

/**
 * Which accounts a user may act in: the active accounts it is a member of, and the active
 * sub-accounts of active integrator accounts it is a member of (with the integrator membership's
 * role). A deactivated integrator takes its sub-accounts' implicit access with it; their own
 * members keep theirs. Cached for a few seconds per user, and dropped whenever accounts,
 * memberships, roles or operators change.
 */
export class AccessResolver {
  private cache = new Map<number, { at: number; access: Promise<UserAccess> }>();

  constructor(private readonly db: Db) {}

  invalidate(): void {
    this.cache.clear();
  }

  async accountsOf(userId: number): Promise<Map<number, AccountAccess>> {
    return (await this.of(userId)).accounts;
  }

  async isPlatformOperator(userId: number): Promise<boolean> {
    return (await this.of(userId)).isPlatformOperator;
  }

  private of(userId: number): Promise<UserAccess> {
    const hit = this.cache.get(userId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.access;
    const loading = this.load(userId);
    this.cache.set(userId, { at: Date.now(), access: loading });
    loading.catch(() => this.cache.delete(userId));
    return loading;
  }

  private async load(userId: number): Promise<UserAccess> {
    const [user] = await this.db
      .select({ isPlatformOperator: users.isPlatformOperator })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
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
      .where(and(eq(usersRoles.userId, userId), eq(accounts.isActive, true)));
    const result = new Map<number, AccountAccess>();
    for (const m of memberships) {
      result.set(m.accountId, {
        accountId: m.accountId,
        roleId: m.roleId,
        permissions: storedPermissions(m.permissions),
        isIntegrator: m.isIntegrator,
      });
    }
    const integrators = memberships.filter((m) => m.isIntegrator);
    if (integrators.length) {
      const children = await this.db
        .select({ id: accounts.id, parentId: accounts.accountId, isIntegrator: accounts.isIntegrator })
        .from(accounts)
        .where(
          and(
            inArray(
              accounts.accountId,
              integrators.map((m) => m.accountId),
            ),
            eq(accounts.isActive, true),
          ),
        );
      for (const child of children) {
        const parent = result.get(child.parentId as number);
        if (parent && !result.has(child.id))
          result.set(child.id, { ...parent, accountId: child.id, isIntegrator: child.isIntegrator });
      }
    }
    return { accounts: result, isPlatformOperator: user?.isPlatformOperator ?? false };
  }

  async userExists(userId: number): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    return rows.length > 0;
  }
}
