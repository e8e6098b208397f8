import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'system';

export const systemMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.system',
  entries: [
    entry(g, 'account'),
    { path: 'users', label: 'menu.system.users' },
    entry(g, 'roles'),
    entry(g, 'users-roles'),
    entry(g, 'countries'),
    entry(g, 'states'),
    entry(g, 'cities'),
    entry(g, 'addresses'),
    entry(g, 'regions'),
    entry(g, 'sunsetsunrises'),
    entry(g, 'system-log-settings'),
    entry(g, 'platform', { screen: 'platform', operatorsOnly: true }),
    // SPEC §2's top-level "accounts" route shows the same accounts screen as system/account.
    { path: 'accounts', label: 'menu.system.account', resource: 'accounts', hidden: true },
  ],
};
