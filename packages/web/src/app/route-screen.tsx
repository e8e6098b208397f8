import { catalogue, findResource } from '@lampyr/contract';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { MenuEntry, ScreenName } from './navigation.ts';

const ResourcePage = lazy(() => import('../resources/resource-page.tsx'));
const NotFoundPage = lazy(() => import('../features/home/not-found-page.tsx'));

const SCREENS: Record<ScreenName, LazyExoticComponent<ComponentType>> = {
  dashboard: lazy(() => import('../features/dashboards/dashboard-page.tsx')),
  'device-details': lazy(() => import('../features/assets-devices/device-details-page.tsx')),
  'live-control': lazy(() => import('../features/assets-devices/live-control-page.tsx')),
  graphic: lazy(() => import('../features/assets-devices/graphic-page.tsx')),
  map: lazy(() => import('../features/assets-devices/map-page.tsx')),
  'channel-average': lazy(() => import('../features/dashboards/channel-average-page.tsx')),
  'average-overview': lazy(() => import('../features/dashboards/average-overview-page.tsx')),
  platform: lazy(() => import('../features/system/platform-page.tsx')),
};

/** The catalogue resource a path shows: the one named by its entry, else the one it is the route of. */
export function resourceForPath(entry: MenuEntry): string | undefined {
  if (entry.resource) return findResource(entry.resource)?.name;
  return catalogue.find((r) => r.route === entry.path)?.name;
}

/**
 * A SPEC §2 route: its dedicated screen, or the generic screen of its catalogue entity. A route
 * that shows another entity's list (or a filtered one) keeps its own table parameters.
 */
export default function RouteScreen({ entry }: { entry: MenuEntry }) {
  if (entry.screen) {
    const Screen = SCREENS[entry.screen];
    return <Screen key={entry.path} />;
  }
  const resource = resourceForPath(entry);
  if (!resource) return <NotFoundPage />;
  const own = !entry.resource && !entry.filter;
  return (
    <ResourcePage
      key={entry.path}
      resource={resource}
      tableKey={own ? resource : entry.path}
      fixedFilter={entry.filter}
    />
  );
}
