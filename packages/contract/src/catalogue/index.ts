import type { ResourceDef as Def, ResourceDef } from '../resource.ts';
import * as alerts from './alerts.ts';
import * as assets from './assets.ts';
import * as gateways from './gateways.ts';
import * as logs from './logs.ts';
import * as maintenance from './maintenance.ts';
import * as system from './system.ts';
import * as tasks from './tasks.ts';

/** Every entity Lampyr knows, one definition each. */
const isResource = (value: unknown): value is Def =>
  typeof value === 'object' && value !== null && 'fields' in value && 'scope' in value;

export const catalogue: readonly ResourceDef[] = [system, assets, alerts, tasks, gateways, maintenance, logs].flatMap(
  (group) => Object.values(group).filter(isResource),
);

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
