import type { FieldDef } from './fields.ts';
import type { TypedResource } from './record.ts';
import type { FieldError } from './validation.ts';

/** A rule across fields (two bounds, a time window); answers errors by field, or nothing. */
export type RecordRule = (record: Record<string, unknown>) => Record<string, FieldError> | undefined;

/**
 * How a resource's records are tied to accounts:
 * - `account`: each record has `accountId`; calls see the selected account's records only;
 * - `global`: shared reference data (geography, roles), readable by every signed-in user;
 * - `accounts`: the accounts themselves, visible when the user may act in them;
 * - `members`: users, visible when paired with the selected account.
 */
export type ResourceScope = 'account' | 'global' | 'accounts' | 'members';

export interface ResourceDef {
  /** API prefix: the last segment of its SPEC §2 route. */
  name: string;
  /**
   * Console route under the layout, when it has one; the console lists it in the menu group named
   * by the route's first segment (or `menuGroup`), labelled `resources:<name>.menu` (else `.title`).
   */
  route?: string;
  /** Menu group of a route that does not start with its group's segment (SPEC §2's `users`). */
  menuGroup?: string;
  scope: ResourceScope;
  fields: Record<string, FieldDef>;
  /** Field that names a record where it is referenced. */
  display: string;
  defaultSort: string;
  /** Written by the server alone: no command API. */
  readOnly?: boolean;
  /** Rules across fields, checked on the whole record after each field's own checks. */
  rules?: RecordRule[];
  /**
   * Telemetry-sized resources: every list, search and aggregate must bound this date-time field on
   * both sides, at most `CONSTANTS.timeWindowMaxDays` apart, or it is refused with a 400.
   */
  timeWindow?: string;
}

/** A resource's definition; its fields and scope keep their exact types for `RecordOf` (record.ts). */
export function defineResource<const F extends Record<string, FieldDef>, const S extends ResourceScope>(
  def: Omit<ResourceDef, 'defaultSort' | 'fields' | 'scope'> & { fields: F; scope: S; defaultSort?: string },
): TypedResource<F, S> {
  return { defaultSort: 'id,desc', ...def };
}

/** The console menu group a routed resource is listed in. */
export function menuGroupOf(resource: ResourceDef): string | undefined {
  if (!resource.route) return undefined;
  return resource.menuGroup ?? resource.route.split('/')[0];
}

/** Fields every record carries, besides its own. */
export const SYSTEM_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

export function hasField(resource: ResourceDef, name: string): boolean {
  return (
    name in resource.fields ||
    (SYSTEM_FIELDS as readonly string[]).includes(name) ||
    (name === 'accountId' && resource.scope === 'account')
  );
}

/** The fields a record shows to a client: secrets never leave the server. */
export function readableFields(resource: ResourceDef): string[] {
  return Object.entries(resource.fields)
    .filter(([, f]) => f.kind !== 'secret')
    .map(([name]) => name);
}
