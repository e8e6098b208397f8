import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'maintenance-fault';

export const maintenanceFaultMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.maintenance-fault',
  entries: [
    entry(g, 'report-a-fault'),
    entry(g, 'fault-history', { resource: 'report-a-fault' }),
    entry(g, 'maintenance-planning'),
    entry(g, 'maintenance-history'),
  ],
};
