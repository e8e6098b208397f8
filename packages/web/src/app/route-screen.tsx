import { findResource } from '@lampyr/contract';
import { lazy } from 'react';
import { useLocation } from 'react-router';
import { locate } from './menu.ts';

const ResourcePage = lazy(() => import('../resources/resource-page.tsx'));
const NotFoundPage = lazy(() => import('../features/home/not-found-page.tsx'));

/**
 * A SPEC §2 route under the layout: its hand-made page, or the generic screen of its catalogue
 * entity. A route that shows another entity's list (or a filtered one) keeps its own table
 * parameters. Loaded apart from the router, so the catalogue stays out of the sign-in bundle.
 */
export default function RouteScreen() {
  const { pathname } = useLocation();
  const { entry } = locate(pathname);
  if (entry?.page) {
    const Page = entry.page;
    return <Page key={entry.path} />;
  }
  if (!entry?.resource) return <NotFoundPage />;
  const own = !entry.filter && findResource(entry.resource)?.route === entry.path;
  return (
    <ResourcePage
      key={entry.path}
      resource={entry.resource}
      tableKey={own ? entry.resource : entry.path}
      fixedFilter={entry.filter}
    />
  );
}
