import { catalogue, menuGroupOf } from '@lampyr/contract';
import { describe, expect, it } from 'vitest';
import { MENU_GROUPS } from '../src/app/menu.ts';

/** SPEC §2 "Routes inside the layout", word for word: each group's routes in SPEC's order. */
const SPEC_ROUTES = `
- Dashboards: dashboards/configuration, dashboards, charts, overview.
- Assets and devices: assets-devices/assembly, assets, configuration, devices, device-node-loss-settings, device-details, channel-values, channel-read-values, channel-write-values, graphic, devices-types, device-models, device-connection-status, device-topology-types, device-topology, device-type-protocols, devices-type-models.
- Device channels: device-channels/device-channel-templates, sub-device-channel-templates, channel-value-types.
- Alerts and alarms: alerts-alarms/configuration, alert-device-parameter-groups, alert-device-parameter-templates, alert-events, alert-device-pairing, alert-event-logs, alert-logs, alert-notification-list, alert-notification-settings, history, real-time.
- Tasks and schedules: tasks-schedules/configuration, history, task-types, profiles, ta{secret} (registered twice), ta{secret}, ta{secret}, running-tasks, task-groups, ta{secret}, ta{secret}, autonomous.
- Gateway management: gatewaymanagement/gateway, gatewaydeviceprofile, gatewayapplication, gatewaydevicepairing, gatewaymulticastgroup.
- Reports and analytics: reports-analytics/alarms, analytics, device-asset, savings, templates.
- Maintenance and fault: maintenance-fault/fault-history, maintenance-history, maintenance-planning, report-a-fault.
- System: system/account, regions, countries, states, cities, addresses, sunsetsunrises, system-log-settings, roles, users-roles.
- Logs: logs/data-logs, system-logs, transaction-logs.
`;

/** Group key → its routes in SPEC's order (names SPEC hides, `ta{secret}`, left out). */
function specOrder(): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const line of SPEC_ROUTES.trim().split('\n')) {
    const list = line
      .slice(line.indexOf(':') + 1)
      .trim()
      .replace(/\.$/, '');
    const [first = '', ...rest] = list.split(', ');
    const [group = '', slug = ''] = first.split('/');
    groups.set(
      group,
      [slug, ...rest].filter((s) => !s.includes('{secret}')),
    );
  }
  return groups;
}

const slugOf = (group: string, path: string) => (path.startsWith(`${group}/`) ? path.slice(group.length + 1) : path);

describe('menu order', () => {
  const spec = specOrder();

  it('lists every group SPEC names', () => {
    expect(new Set(MENU_GROUPS.map((g) => g.key))).toEqual(new Set([...spec.keys(), 'device-channels']));
  });

  it("lists each group's routes in SPEC §2's order, catalogue entities and hand-made screens alike", () => {
    for (const group of MENU_GROUPS) {
      const order = spec.get(group.key) ?? [];
      const shown = group.entries
        .filter((e) => !e.search && !e.hidden)
        .map((e) => slugOf(group.key, e.path))
        .filter((slug) => order.includes(slug));
      expect({ group: group.key, routes: shown }).toEqual({
        group: group.key,
        routes: order.filter((slug) => shown.includes(slug)),
      });
    }
  });

  it('puts every routed catalogue entity in its group, those SPEC names in its order', () => {
    for (const group of MENU_GROUPS) {
      const order = spec.get(group.key) ?? [];
      const routed = catalogue.filter((r) => r.route && menuGroupOf(r) === group.key).map((r) => r.route as string);
      const paths = group.entries.map((e) => e.path);
      for (const route of routed) expect(paths).toContain(route);
      const named = paths.filter((p) => routed.includes(p)).map((p) => slugOf(group.key, p));
      const ranks = named.filter((s) => order.includes(s)).map((s) => order.indexOf(s));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    }
  });
});
