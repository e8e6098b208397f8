import { findResource, type ResourceDef } from '@lampyr/contract';

/**
 * Reference selects of one form narrow each other (country → state → city → region): a field that
 * points at R offers only the records of R whose own reference matches another field's choice in
 * the form — states of the chosen country, cities of the chosen state, regions of the chosen city.
 */
export function narrowingOf(
  resource: ResourceDef,
  field: string,
  values: Record<string, unknown> | undefined,
): Record<string, number> | undefined {
  const def = resource.fields[field];
  const target = def?.kind === 'reference' && def.ref ? findResource(def.ref) : undefined;
  if (!target || !values) return undefined;
  const narrow: Record<string, number> = {};
  for (const [other, otherDef] of Object.entries(resource.fields)) {
    if (other === field || otherDef.kind !== 'reference' || !otherDef.ref || otherDef.ref === def?.ref) continue;
    const chosen = values[other];
    if (typeof chosen !== 'number') continue;
    // The referenced resource's own field that points where `other` points.
    const link = Object.entries(target.fields).find(([, f]) => f.kind === 'reference' && f.ref === otherDef.ref);
    if (link) narrow[link[0]] = chosen;
  }
  return Object.keys(narrow).length ? narrow : undefined;
}

/** The fields whose choices depend on `changed` (cleared when it changes, so they never disagree). */
export function dependentsOf(resource: ResourceDef, changed: string): string[] {
  const def = resource.fields[changed];
  if (def?.kind !== 'reference' || !def.ref) return [];
  return Object.keys(resource.fields).filter((field) => {
    if (field === changed) return false;
    return narrowingOf(resource, field, { [changed]: 0 }) !== undefined;
  });
}
