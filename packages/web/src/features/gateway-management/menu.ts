import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'gatewaymanagement';

export const gatewayManagementMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.gatewaymanagement',
  entries: [
    entry(g, 'gateway'),
    entry(g, 'gatewaydeviceprofile'),
    entry(g, 'gatewayapplication'),
    entry(g, 'gatewaydevicepairing'),
    entry(g, 'gatewaymulticastgroup'),
  ],
};
