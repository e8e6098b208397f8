import { entry, type MenuGroup } from '../../app/navigation.ts';

export const dashboardsMenu: MenuGroup = {
  key: 'dashboards',
  label: 'menu.groups.dashboards',
  entries: [
    entry('dashboards', 'dashboards'),
    entry('dashboards', 'overview'),
    entry('dashboards', 'charts'),
    entry('dashboards', 'configuration'),
  ],
};
