import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Flex, Layout, Space, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { AccountSummary } from '../../lib/session-storage.ts';
import { locate } from '../menu.ts';
import { AccountMenu } from './account-menu.tsx';
import { AlertSettings } from './alert-settings.tsx';
import { LanguageMenu } from './language-menu.tsx';
import { ThemeSwitch } from './theme-switch.tsx';

function useSectionTitle(): string {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  if (pathname === '/' || pathname === '') return t('shell.homeTitle');
  if (pathname.toLowerCase() === '/changepasword') return t('auth.changePassword.title');
  if (pathname.startsWith('/device-topology/')) return t('menu.groups.topology');
  const { group, entry } = locate(pathname);
  if (group && entry) return `${t(group.label)} / ${t(entry.label)}`;
  return t('shell.notFoundTitle');
}

export function HeaderBar({
  collapsed,
  onToggle,
  account,
}: {
  collapsed: boolean;
  onToggle: () => void;
  account: AccountSummary | undefined;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const title = useSectionTitle();
  return (
    <Layout.Header
      style={{
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        position: 'sticky',
        top: 0,
        zIndex: 10,
      }}
    >
      <Flex align="center" justify="space-between" gap={token.margin} style={{ height: '100%' }}>
        <Flex align="center" gap={token.marginSM} style={{ minWidth: 0 }}>
          <Button
            type="text"
            onClick={onToggle}
            aria-label={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
            aria-expanded={!collapsed}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          />
          <Typography.Title level={1} ellipsis style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>
            {title}
          </Typography.Title>
        </Flex>
        <Space size="small">
          <AlertSettings />
          <AccountMenu selected={account} />
          <LanguageMenu />
          <ThemeSwitch />
        </Space>
      </Flex>
    </Layout.Header>
  );
}
