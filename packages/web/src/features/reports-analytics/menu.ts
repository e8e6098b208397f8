import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'reports-analytics';

/** SPEC §2's reports: a date range, a device, its channels and a chart (the graphic screen). */
export const reportsAnalyticsMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.reports-analytics',
  entries: [
    entry(g, 'alarms', { resource: 'alert-logs' }),
    entry(g, 'analytics', { screen: 'graphic' }),
    entry(g, 'device-asset', { resource: 'devices' }),
    entry(g, 'savings', { screen: 'average-overview' }),
    entry(g, 'templates', { resource: 'device-channel-templates' }),
  ],
};
