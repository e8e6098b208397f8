import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'dashboards';

export const dashboardsMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.dashboards',
  entries: [
    entry(g, 'dashboards', { screen: 'dashboard' }),
    entry(g, 'overview', { screen: 'average-overview' }),
    entry(g, 'charts', { screen: 'channel-average' }),
    // What the charts show: the channels with their units and labels.
    entry(g, 'configuration', { resource: 'device-channel-templates' }),
  ],
};
