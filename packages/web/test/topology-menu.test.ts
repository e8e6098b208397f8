import { catalogue, findResource } from '@lampyr/contract';
import { describe, expect, it } from 'vitest';
import { topologyEntry } from '../src/app/layout/use-topology-menu.ts';
import { layoutRoutes, MENU_GROUPS } from '../src/app/menu-groups.ts';
import { resourceForPath } from '../src/app/route-screen.tsx';

describe('menu', () => {
  it('reads topology types whether id and name are capitalised or not', () => {
    expect(topologyEntry({ id: 4, name: 'Street lines' })).toEqual({
      key: '/device-topology/4',
      id: '4',
      name: 'Street lines',
    });
    expect(topologyEntry({ Id: 5, TopologyTypeName: 'Feeders' })?.name).toBe('Feeders');
    expect(topologyEntry({ name: 'no id' })).toBeUndefined();
  });

  it('has the ten SPEC groups in order and every System screen on the generic resource screen but the platform', () => {
    expect(MENU_GROUPS.map((g) => g.key)).toEqual([
      'dashboards',
      'gatewaymanagement',
      'assets-devices',
      'alerts-alarms',
      'tasks-schedules',
      'reports-analytics',
      'maintenance-fault',
      'system',
      'logs',
      'device-channels',
    ]);
    const system = layoutRoutes().filter(
      (e) => (e.path.startsWith('system/') || ['users', 'accounts'].includes(e.path)) && e.screen !== 'platform',
    );
    expect(system.map((e) => [e.path, resourceForPath(e)])).toEqual([
      ['system/account', 'accounts'],
      ['users', 'users'],
      ['system/roles', 'roles'],
      ['system/users-roles', 'users-roles'],
      ['system/countries', 'countries'],
      ['system/states', 'states'],
      ['system/cities', 'cities'],
      ['system/addresses', 'addresses'],
      ['system/regions', 'regions'],
      ['system/sunsetsunrises', 'sunsetsunrises'],
      ['system/system-log-settings', 'system-log-settings'],
      ['accounts', 'accounts'],
    ]);
    // The platform operators' screen is written by hand and listed to platform operators only.
    expect(layoutRoutes().find((e) => e.screen === 'platform')).toMatchObject({
      path: 'system/platform',
      operatorsOnly: true,
    });
  });

  it('opens every route on a dedicated screen or a catalogue entity, and every entity on its own route', () => {
    const routes = layoutRoutes();
    expect(routes.filter((e) => !e.screen && !resourceForPath(e)).map((e) => e.path)).toEqual([]);
    const paths = new Set(routes.map((e) => e.path));
    expect(catalogue.filter((r) => r.route && !paths.has(r.route)).map((r) => r.route)).toEqual([]);
    for (const e of routes)
      if (!e.resource && !e.screen) expect(findResource(resourceForPath(e) ?? '')?.route).toBe(e.path);
  });
});
