import { entry, type MenuEntry, type MenuGroup } from '../../app/navigation.ts';

const g = 'assets-devices';

/** Device actions of SPEC §2's menu: each opens the configuration screen in that mode. */
const action = (slug: string): MenuEntry =>
  entry(g, 'configuration', { label: `menu.${g}.actions.${slug}`, search: `?action=${slug}` });

export const assetsDevicesMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.assets-devices',
  entries: [
    entry(g, 'assets', { resource: 'devices' }),
    entry(g, 'devices'),
    entry(g, 'device-details', { screen: 'device-details' }),
    // SPEC's Live Control entry: on/off/dim for devices, over the channel writes it creates.
    entry(g, 'channel-write-values', { screen: 'live-control' }),
    entry(g, 'graphic', { screen: 'graphic' }),
    entry(g, 'assembly', { resource: 'device-topology' }),
    entry(g, 'configuration', { resource: 'device-node-loss-settings' }),
    entry(g, 'devices-types'),
    entry(g, 'device-models'),
    // SPEC §3 has one entity for "device model / device type model".
    entry(g, 'devices-type-models', { resource: 'device-models' }),
    entry(g, 'device-type-protocols'),
    entry(g, 'device-topology-types'),
    entry(g, 'device-topology'),
    entry(g, 'device-connection-status'),
    entry(g, 'device-node-loss-settings'),
    entry(g, 'channel-values'),
    entry(g, 'channel-read-values'),
    action('manual-config-request'),
    action('clear-device-data'),
    action('reset-device-config'),
    action('config-deploy'),
    entry(g, 'map', { screen: 'map' }),
  ],
};
