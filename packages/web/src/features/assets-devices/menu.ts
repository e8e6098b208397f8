import { entry, type MenuEntry, type MenuGroup } from '../../app/navigation.ts';

const g = 'assets-devices';

/** Device actions of SPEC §2's menu: each opens the configuration screen in that mode. */
const action = (slug: string): MenuEntry =>
  entry(g, 'configuration', { label: `menu.${g}.actions.${slug}`, search: `?action=${slug}` });

export const assetsDevicesMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.assets-devices',
  entries: [
    entry(g, 'assets'),
    entry(g, 'devices'),
    entry(g, 'device-details'),
    entry(g, 'assembly'),
    entry(g, 'configuration'),
    entry(g, 'devices-types'),
    entry(g, 'device-models'),
    entry(g, 'devices-type-models'),
    entry(g, 'device-type-protocols'),
    entry(g, 'device-topology-types'),
    entry(g, 'device-topology'),
    entry(g, 'device-connection-status'),
    entry(g, 'device-node-loss-settings'),
    entry(g, 'channel-values'),
    entry(g, 'channel-read-values'),
    entry(g, 'channel-write-values'),
    entry(g, 'graphic'),
    action('manual-config-request'),
    action('clear-device-data'),
    action('reset-device-config'),
    action('config-deploy'),
  ],
};
