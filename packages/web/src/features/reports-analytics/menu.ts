import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'reports-analytics';

export const reportsAnalyticsMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.reports-analytics',
  entries: [
    entry(g, 'alarms'),
    entry(g, 'analytics'),
    entry(g, 'device-asset'),
    entry(g, 'savings'),
    entry(g, 'templates'),
  ],
};
