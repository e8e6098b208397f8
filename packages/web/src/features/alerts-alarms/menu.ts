import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'alerts-alarms';

export const alertsAlarmsMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.alerts-alarms',
  entries: [
    entry(g, 'real-time', { resource: 'alert-logs', filter: { isActive: true } }),
    entry(g, 'history', { resource: 'alert-logs' }),
    entry(g, 'configuration', { resource: 'alert-device-parameter-templates' }),
    entry(g, 'alert-device-parameter-groups'),
    entry(g, 'alert-device-parameter-templates'),
    entry(g, 'alert-events'),
    entry(g, 'alert-device-pairing'),
    entry(g, 'alert-event-logs'),
    entry(g, 'alert-logs'),
    entry(g, 'alert-notification-list'),
    entry(g, 'alert-notification-settings'),
  ],
};
