import { alertsAlarmsMenu } from '../features/alerts-alarms/menu.ts';
import { assetsDevicesMenu } from '../features/assets-devices/menu.ts';
import { dashboardsMenu } from '../features/dashboards/menu.ts';
import { deviceChannelsMenu } from '../features/device-channels/menu.ts';
import { gatewayManagementMenu } from '../features/gateway-management/menu.ts';
import { logsMenu } from '../features/logs/menu.ts';
import { maintenanceFaultMenu } from '../features/maintenance-fault/menu.ts';
import { reportsAnalyticsMenu } from '../features/reports-analytics/menu.ts';
import { systemMenu } from '../features/system/menu.ts';
import { tasksSchedulesMenu } from '../features/tasks-schedules/menu.ts';
import type { MenuEntry, MenuGroup } from './navigation.ts';

/** SPEC §2's menu groups, in its order. */
export const MENU_GROUPS: readonly MenuGroup[] = [
  dashboardsMenu,
  gatewayManagementMenu,
  assetsDevicesMenu,
  alertsAlarmsMenu,
  tasksSchedulesMenu,
  reportsAnalyticsMenu,
  maintenanceFaultMenu,
  systemMenu,
  logsMenu,
  deviceChannelsMenu,
];

/** Every distinct path under the layout, each once (action entries share their screen's path). */
export function layoutRoutes(): MenuEntry[] {
  const seen = new Map<string, MenuEntry>();
  for (const group of MENU_GROUPS)
    for (const e of group.entries) if (!e.search && !seen.has(e.path)) seen.set(e.path, e);
  return [...seen.values()];
}

/** The menu entry and group of a location, for the header's section title. */
export function locate(pathname: string): { group?: MenuGroup; entry?: MenuEntry } {
  const path = pathname.replace(/^\/+|\/+$/g, '');
  for (const group of MENU_GROUPS) {
    const found = group.entries.find((e) => !e.search && e.path === path);
    if (found) return { group, entry: found };
  }
  return {};
}
