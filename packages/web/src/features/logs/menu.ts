import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'logs';

export const logsMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.logs',
  entries: [entry(g, 'data-logs'), entry(g, 'system-logs'), entry(g, 'transaction-logs')],
};
