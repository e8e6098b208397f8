import { catalogue, findResource } from '@lampyr/contract';
import { lazy } from 'react';
import type { MenuEntry } from './navigation.ts';

const ResourcePage = lazy(() => import('../resources/resource-page.tsx'));
const PlaceholderPage = lazy(() => import('../features/placeholder/placeholder-page.tsx'));

/** The catalogue resource a path shows, when the catalogue has it yet. */
export function resourceForPath(entry: MenuEntry): string | undefined {
  if (entry.resource) return findResource(entry.resource)?.name;
  return catalogue.find((r) => r.route === entry.path)?.name;
}

/**
 * A SPEC §2 route: the generic screen of its catalogue entity, or, until the entity joins the
 * catalogue, a screen saying it arrives with it.
 */
export default function RouteScreen({ entry }: { entry: MenuEntry }) {
  const resource = resourceForPath(entry);
  return resource ? (
    <ResourcePage key={entry.path} resource={resource} />
  ) : (
    <PlaceholderPage key={entry.path} label={entry.label} path={entry.path} />
  );
}
