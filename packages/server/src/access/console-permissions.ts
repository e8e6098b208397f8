import { catalogue, getResource, type ResourceDef } from '@lampyr/contract';
import { ACTIONS, type Action, type Actor, allows } from './access.ts';

/**
 * Whether the actor passes the account and role check of a resource call (resource-routes.ts's
 * `authorize` throws where this answers false): shared reference data (`global`) is read by
 * everyone and written by platform operators alone; every other resource needs an account whose
 * role allows the action.
 */
export function permits(actor: Actor, resource: ResourceDef, action: Action): boolean {
  if (resource.scope === 'global') return action === 'read' || actor.isPlatformOperator === true;
  const account = actor.account;
  return Boolean(account && allows(account.permissions, resource.name, action));
}

/**
 * What the console may offer in the account the actor acts in: resource name → the actions the
 * server would accept. Writes to server-written resources are refused whatever the role (their
 * own routes, e.g. overrides, check `devices`); a new account is a sub-account of an integrator.
 */
/**
 * Server-written resources that a route of their own lets people write: an override is made and
 * cancelled (override-routes.ts) by whoever may update devices and read overrides.
 */
const OWN_WRITES: Partial<Record<string, (actor: Actor, action: Action) => boolean>> = {
  overrides: (actor, action) =>
    (action === 'create' || action === 'delete') &&
    permits(actor, getResource('devices'), 'update') &&
    permits(actor, getResource('overrides'), 'read'),
};

export function consolePermissions(actor: Actor): Record<string, Action[]> {
  const result: Record<string, Action[]> = {};
  for (const resource of catalogue) {
    result[resource.name] = ACTIONS.filter((action) => {
      if (resource.readOnly && action !== 'read') return OWN_WRITES[resource.name]?.(actor, action) ?? false;
      if (!permits(actor, resource, action)) return false;
      if (resource.name === 'accounts' && action === 'create') return actor.account?.isIntegrator === true;
      return true;
    });
  }
  return result;
}
