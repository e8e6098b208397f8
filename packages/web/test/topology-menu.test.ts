import { catalogue, findResource } from '@lampyr/contract';
import { describe, expect, it } from 'vitest';
import { layoutRoutes, locate, MENU_GROUPS } from '../src/app/menu.ts';
import { topologyEntry } from '../src/data/topology-menu.ts';

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
      (e) => (e.path.startsWith('system/') || ['users', 'accounts'].includes(e.path)) && !e.page,
    );
    // SPEC §2's order of the System routes; `users` (SPEC lists it with Home) and the hidden
    // `accounts` alias after them.
    expect(system.map((e) => [e.path, e.resource])).toEqual([
      ['system/account', 'accounts'],
      ['system/regions', 'regions'],
      ['system/countries', 'countries'],
      ['system/states', 'states'],
      ['system/cities', 'cities'],
      ['system/addresses', 'addresses'],
      ['system/sunsetsunrises', 'sunsetsunrises'],
      ['system/system-log-settings', 'system-log-settings'],
      ['system/roles', 'roles'],
      ['system/users-roles', 'users-roles'],
      ['users', 'users'],
      ['accounts', 'accounts'],
    ]);
    // The platform operators' screen is written by hand and listed to platform operators only.
    expect(layoutRoutes().find((e) => e.path === 'system/platform')).toMatchObject({
      path: 'system/platform',
      operatorsOnly: true,
    });
  });

  it('opens every route on a hand-made page or a catalogue entity, and every entity on its own route', () => {
    const routes = layoutRoutes();
    expect(routes.filter((e) => !e.page && !findResource(e.resource ?? '')).map((e) => e.path)).toEqual([]);
    const paths = new Set(routes.map((e) => e.path));
    expect(catalogue.filter((r) => r.route && !paths.has(r.route)).map((r) => r.route)).toEqual([]);
    // A plain entity's entry comes from its definition: its route, its group, its translated label.
    const types = locate('/assets-devices/devices-types');
    expect(types.group?.key).toBe('assets-devices');
    expect(types.entry).toEqual({
      path: 'assets-devices/devices-types',
      label: ['resources:devices-types.menu', 'resources:devices-types.title'],
      resource: 'devices-types',
    });
    // The device list is the devices entity on a hand-made page (lamp states, street filter).
    const devices = locate('/assets-devices/devices');
    expect(devices.entry).toMatchObject({ path: 'assets-devices/devices', resource: 'devices' });
    expect(devices.entry?.page).toBeDefined();
    expect(locate('/Users/').entry?.resource).toBe('users');
    expect(locate('/no/such/screen')).toEqual({});
  });
});
