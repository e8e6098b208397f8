import type { ResourceDef } from '../resource.ts';
import * as system from './system.ts';

/** Every entity Lampyr knows, one definition each. */
export const catalogue: readonly ResourceDef[] = [...Object.values(system)];

const byName = new Map(catalogue.map((r) => [r.name, r]));

export function findResource(name: string): ResourceDef | undefined {
  return byName.get(name);
}

export function getResource(name: string): ResourceDef {
  const resource = byName.get(name);
  if (!resource) throw new Error(`Unknown resource ${name}`);
  return resource;
}

/** Resources whose fields reference `name`, with the referencing field. */
export function referencesTo(name: string): { resource: ResourceDef; field: string }[] {
  return catalogue.flatMap((resource) =>
    Object.entries(resource.fields)
      .filter(([, f]) => f.kind === 'reference' && f.ref === name)
      .map(([field]) => ({ resource, field })),
  );
}
