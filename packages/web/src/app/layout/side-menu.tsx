import { BulbFilled } from '@ant-design/icons';
import { Flex, Menu, type MenuProps, Typography, theme } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { usePermissions } from '../../data/permissions.ts';
import { useTopologyMenu } from '../../data/topology-menu.ts';
import { storedUser } from '../../lib/session-storage.ts';
import { MENU_GROUPS } from '../menu.ts';
import { GROUP_ICONS } from './group-icons.tsx';

type Item = Required<MenuProps>['items'][number];

function entryKey(path: string, search?: string): string {
  return `/${path}${search ?? ''}`;
}

export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const location = useLocation();
  const navigate = useNavigate();
  const topology = useTopologyMenu();
  const permissions = usePermissions();

  const items = useMemo<Item[]>(() => {
    const operator = storedUser()?.isPlatformOperator === true;
    const groups: Item[] = MENU_GROUPS.map((group) => {
      const children: Item[] = group.entries
        .filter((e) => !e.hidden && (!e.operatorsOnly || operator))
        // A screen of a resource the person may not read is not offered.
        .filter((e) => !e.resource || permissions.can(e.resource, 'read'))
        .map((e) => ({ key: entryKey(e.path, e.search), label: t(e.label) }));
      if (group.key === 'assets-devices' && topology.length > 0) {
        children.push({
          key: 'topology',
          icon: GROUP_ICONS.topology,
          label: t('menu.groups.topology'),
          children: topology.map((entry) => ({ key: entry.key, label: entry.name })),
        });
      }
      return { key: group.key, icon: GROUP_ICONS[group.key], label: t(group.label), children };
    });
    return groups;
  }, [t, topology, permissions]);

  const selected = location.search ? `${location.pathname}${location.search}` : location.pathname;
  const initialOpen = useMemo(() => {
    const path = location.pathname;
    if (path.startsWith('/device-topology/')) return ['assets-devices', 'topology'];
    const group = MENU_GROUPS.find((g) => g.entries.some((e) => `/${e.path}` === path));
    return group ? [group.key] : [];
  }, [location.pathname]);
  const [openKeys, setOpenKeys] = useState<string[]>(initialOpen);

  return (
    <nav aria-label={t('shell.navigation')}>
      <Link to="/" aria-label={t('shell.home')} style={{ display: 'block' }}>
        <Flex
          align="center"
          justify={collapsed ? 'center' : 'flex-start'}
          gap={token.marginSM}
          style={{ height: 64, paddingInline: collapsed ? 0 : token.paddingLG }}
        >
          <BulbFilled style={{ fontSize: token.fontSizeHeading3, color: token.colorPrimary }} />
          {!collapsed && (
            <Typography.Text strong style={{ color: token.colorTextLightSolid, fontSize: token.fontSizeHeading4 }}>
              {t('shell.brand')}
            </Typography.Text>
          )}
        </Flex>
      </Link>
      <Menu
        theme="dark"
        mode="inline"
        items={items}
        selectedKeys={[selected]}
        openKeys={collapsed ? undefined : openKeys}
        onOpenChange={setOpenKeys}
        onClick={({ key }) => {
          if (key.startsWith('/')) navigate(key);
        }}
      />
    </nav>
  );
}
