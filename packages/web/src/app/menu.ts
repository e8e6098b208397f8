import { catalogue, menuGroupOf } from '@lampyr/contract';
import { lazy } from 'react';
import { entry, type MenuEntry, type MenuGroup } from './navigation.ts';

/**
 * SPEC §2's menu. Every catalogue entity with a route is listed in its definition's menu group,
 * labelled from its translations (`resources:<name>.menu`, else `.title`). Written here by hand:
 * only what is not a plain entity — hand-made pages (each naming its module), aliases that show
 * another entity's list, filtered views and action entries.
 */

/**
 * SPEC §2's routes of each group, in its order: the group's entries that SPEC names are listed in
 * this order, whoever wrote them (the catalogue or this file); the others (actions, the map, the
 * platform screen, routes SPEC hides the names of) follow in their written order.
 */
export const SPEC_ROUTE_ORDER: Readonly<Record<string, readonly string[]>> = {
  dashboards: ['configuration', 'dashboards', 'charts', 'overview'],
  'assets-devices': [
    'assembly',
    'assets',
    'configuration',
    'devices',
    'device-node-loss-settings',
    'device-details',
    'channel-values',
    'channel-read-values',
    'channel-write-values',
    'graphic',
    'devices-types',
    'device-models',
    'device-connection-status',
    'device-topology-types',
    'device-topology',
    'device-type-protocols',
    'devices-type-models',
  ],
  'device-channels': ['device-channel-templates', 'sub-device-channel-templates', 'channel-value-types'],
  'alerts-alarms': [
    'configuration',
    'alert-device-parameter-groups',
    'alert-device-parameter-templates',
    'alert-events',
    'alert-device-pairing',
    'alert-event-logs',
    'alert-logs',
    'alert-notification-list',
    'alert-notification-settings',
    'history',
    'real-time',
  ],
  'tasks-schedules': [
    'configuration',
    'history',
    'task-types',
    'profiles',
    'running-tasks',
    'task-groups',
    'autonomous',
  ],
  gatewaymanagement: [
    'gateway',
    'gatewaydeviceprofile',
    'gatewayapplication',
    'gatewaydevicepairing',
    'gatewaymulticastgroup',
  ],
  'reports-analytics': ['alarms', 'analytics', 'device-asset', 'savings', 'templates'],
  'maintenance-fault': ['fault-history', 'maintenance-history', 'maintenance-planning', 'report-a-fault'],
  system: [
    'account',
    'regions',
    'countries',
    'states',
    'cities',
    'addresses',
    'sunsetsunrises',
    'system-log-settings',
    'roles',
    'users-roles',
  ],
  logs: ['data-logs', 'system-logs', 'transaction-logs'],
};

function entityEntries(group: string, hand: readonly MenuEntry[]): MenuEntry[] {
  const taken = new Set(hand.map((e) => e.path));
  return catalogue
    .filter((r) => r.route && menuGroupOf(r) === group && !taken.has(r.route))
    .map((r) => ({
      path: r.route as string,
      label: [`resources:${r.name}.menu`, `resources:${r.name}.title`],
      resource: r.name,
    }));
}

/** A group: its hand-written entries and its catalogue entities, in SPEC §2's order. */
function group(key: string, hand: readonly MenuEntry[]): MenuGroup {
  const order = SPEC_ROUTE_ORDER[key] ?? [];
  const rank = (e: MenuEntry) =>
    e.search || !e.path.startsWith(`${key}/`) ? -1 : order.indexOf(e.path.slice(key.length + 1));
  const entities = entityEntries(key, hand);
  // Unnamed entities (SPEC hides some routes' names) before the hand-made extras (actions, map).
  const all = [...entities, ...hand];
  const named = all.filter((e) => rank(e) >= 0).sort((a, b) => rank(a) - rank(b));
  return { key, label: `menu.groups.${key}`, entries: [...named, ...all.filter((e) => rank(e) < 0)] };
}

const loadMapPage = () => import('../features/assets-devices/map-page.tsx');

/**
 * The screens whose code is heavy (the map with Leaflet, the graph with ECharts) are fetched and
 * compiled while the console is idle after sign-in, so opening them from the menu costs only their
 * data, the first time as every later time (bench:scale times the map page from the menu).
 */
export function preloadHeavyPages(): void {
  void loadMapPage().catch(() => {});
  void import('../features/assets-devices/graphic-page.tsx').catch(() => {});
}

const overview = lazy(() => import('../features/dashboards/overview-page.tsx'));
const alarmHistory = lazy(() => import('../features/alerts-alarms/history-page.tsx'));
const graphic = lazy(() => import('../features/assets-devices/graphic-page.tsx'));

const ad = 'assets-devices';
/** Device actions of SPEC §2's menu: each opens the configuration screen in that mode. */
const action = (slug: string): MenuEntry =>
  entry(ad, 'configuration', { label: `menu.${ad}.actions.${slug}`, search: `?action=${slug}` });

/** SPEC §2's menu groups, in its order. */
export const MENU_GROUPS: readonly MenuGroup[] = [
  group('dashboards', [
    entry('dashboards', 'dashboards', { page: lazy(() => import('../features/dashboards/dashboards-page.tsx')) }),
    entry('dashboards', 'overview', { page: overview }),
    entry('dashboards', 'charts', { page: lazy(() => import('../features/dashboards/charts-page.tsx')) }),
    // What the charts show: the channels with their units and labels.
    entry('dashboards', 'configuration', { resource: 'device-channel-templates' }),
  ]),
  group('gatewaymanagement', []),
  group(ad, [
    entry(ad, 'assets', { resource: 'devices' }),
    // The device list with lamp states and a street filter.
    entry(ad, 'devices', {
      label: ['resources:devices.menu', 'resources:devices.title'],
      resource: 'devices',
      page: lazy(() => import('../features/assets-devices/devices-page.tsx')),
    }),
    entry(ad, 'device-details', {
      page: lazy(() => import('../features/assets-devices/device-details-page.tsx')),
    }),
    // SPEC's Live Control entry: on/off/dim for devices, over the channel writes it creates.
    entry(ad, 'channel-write-values', {
      page: lazy(() => import('../features/assets-devices/channel-write-values-page.tsx')),
    }),
    entry(ad, 'graphic', { page: graphic }),
    entry(ad, 'assembly', { resource: 'device-topology' }),
    // The node-loss settings; with `?action=` one of the device actions below.
    entry(ad, 'configuration', {
      resource: 'device-node-loss-settings',
      page: lazy(() => import('../features/assets-devices/configuration-page.tsx')),
    }),
    // SPEC §3 has one entity for "device model / device type model".
    entry(ad, 'devices-type-models', { resource: 'device-models' }),
    action('manual-config-request'),
    action('clear-device-data'),
    action('reset-device-config'),
    action('config-deploy'),
    entry(ad, 'map', { page: lazy(loadMapPage) }),
  ]),
  // Four screens of alarms, four jobs: Real-time Alarms (what needs an operator now, live, with its
  // actions), Alarm History (every alarm over a time range), and the catalogue's record lists of
  // alert logs and alert event logs (the raw records, filterable per field).
  group('alerts-alarms', [
    entry('alerts-alarms', 'real-time', { page: lazy(() => import('../features/alerts-alarms/real-time-page.tsx')) }),
    entry('alerts-alarms', 'history', { page: alarmHistory }),
    entry('alerts-alarms', 'configuration', { resource: 'alert-device-parameter-templates' }),
    entry('alerts-alarms', 'alert-notification-list', {
      label: ['resources:alert-notification-list.menu', 'resources:alert-notification-list.title'],
      page: lazy(() => import('../features/alerts-alarms/alert-notification-list-page.tsx')),
    }),
  ]),
  // SPEC §2 hides five of these routes' names; they take the catalogue's routes of the SPEC §3
  // entities they hold. Configuration, running tasks and history show the closest entity's list.
  group('tasks-schedules', [
    entry('tasks-schedules', 'configuration', { resource: 'task-group-profiles' }),
    entry('tasks-schedules', 'running-tasks', {
      page: lazy(() => import('../features/tasks-schedules/running-tasks-page.tsx')),
    }),
    entry('tasks-schedules', 'history', { resource: 'task-control-logs' }),
    entry('tasks-schedules', 'overrides', {
      label: ['resources:overrides.menu', 'resources:overrides.title'],
      resource: 'overrides',
      page: lazy(() => import('../features/tasks-schedules/overrides-page.tsx')),
    }),
    entry('tasks-schedules', 'task-group-members', {
      label: ['resources:task-group-members.menu', 'resources:task-group-members.title'],
      resource: 'task-group-members',
      page: lazy(() => import('../features/tasks-schedules/group-members-page.tsx')),
    }),
    entry('tasks-schedules', 'schedule-preview', {
      page: lazy(() => import('../features/tasks-schedules/schedule-preview-page.tsx')),
    }),
  ]),
  // SPEC §2's reports: a date range, a device, its channels and a chart (the graphic screen).
  group('reports-analytics', [
    entry('reports-analytics', 'alarms', {
      page: lazy(() => import('../features/reports-analytics/alarm-report-page.tsx')),
    }),
    entry('reports-analytics', 'analytics', { page: graphic }),
    entry('reports-analytics', 'device-asset', {
      page: lazy(() => import('../features/reports-analytics/asset-report-page.tsx')),
    }),
    entry('reports-analytics', 'savings', {
      page: lazy(() => import('../features/reports-analytics/savings-page.tsx')),
    }),
    entry('reports-analytics', 'templates', {
      page: lazy(() => import('../features/reports-analytics/report-templates-page.tsx')),
    }),
  ]),
  // The maintenance workflow: faults reported and their work orders moved step by step, the
  // histories of faults and of the work done (per device from device details), and the KPIs.
  group('maintenance-fault', [
    entry('maintenance-fault', 'report-a-fault', {
      label: ['resources:report-a-fault.menu', 'resources:report-a-fault.title'],
      resource: 'report-a-fault',
      page: lazy(() => import('../features/maintenance-fault/report-a-fault-page.tsx')),
    }),
    entry('maintenance-fault', 'fault-history', {
      resource: 'report-a-fault',
      page: lazy(() => import('../features/maintenance-fault/fault-history-page.tsx')),
    }),
    entry('maintenance-fault', 'maintenance-history', {
      label: ['resources:maintenance-history.menu', 'resources:maintenance-history.title'],
      resource: 'maintenance-history',
      page: lazy(() => import('../features/maintenance-fault/maintenance-history-page.tsx')),
    }),
    entry('maintenance-fault', 'kpi', { page: lazy(() => import('../features/maintenance-fault/kpi-page.tsx')) }),
  ]),
  group('system', [
    entry('system', 'platform', {
      page: lazy(() => import('../features/system/platform-page.tsx')),
      operatorsOnly: true,
    }),
    // SPEC §2's top-level "accounts" route shows the same accounts screen as system/account.
    {
      path: 'accounts',
      label: ['resources:accounts.menu', 'resources:accounts.title'],
      resource: 'accounts',
      hidden: true,
    },
  ]),
  group('logs', []),
  group('device-channels', []),
];

/** Every distinct path under the layout, each once (action entries share their screen's path). */
export function layoutRoutes(): MenuEntry[] {
  const seen = new Map<string, MenuEntry>();
  for (const g of MENU_GROUPS) for (const e of g.entries) if (!e.search && !seen.has(e.path)) seen.set(e.path, e);
  return [...seen.values()];
}

/** The menu entry and group of a location, for the header's section title and the route screen. */
export function locate(pathname: string): { group?: MenuGroup; entry?: MenuEntry } {
  const path = pathname.replace(/^\/+|\/+$/g, '').toLowerCase();
  for (const g of MENU_GROUPS) {
    const found = g.entries.find((e) => !e.search && e.path.toLowerCase() === path);
    if (found) return { group: g, entry: found };
  }
  return {};
}
