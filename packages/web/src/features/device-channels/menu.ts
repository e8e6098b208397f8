import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'device-channels';

export const deviceChannelsMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.device-channels',
  entries: [
    entry(g, 'device-channel-templates'),
    entry(g, 'sub-device-channel-templates'),
    entry(g, 'channel-value-types'),
  ],
};
