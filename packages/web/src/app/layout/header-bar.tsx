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
  compact = false,
}: {
  collapsed: boolean;
  onToggle: () => void;
  account: AccountSummary | undefined;
  /** A narrow window (a phone): the title wraps onto its own row under the controls, never cut. */
  compact?: boolean;
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
        // Above a table's fixed columns (antd stacks them up to twice the column count).
        zIndex: 100,
        ...(compact
          ? {
              height: 'auto',
              lineHeight: token.lineHeight,
              paddingBlock: token.paddingXS,
              paddingInline: token.paddingXS,
            }
          : {}),
      }}
    >
      <Flex
        align="center"
        justify="space-between"
        wrap={compact}
        gap={compact ? token.marginXS : token.margin}
        style={{ height: '100%' }}
      >
        <Flex align="center" gap={token.marginSM} style={{ minWidth: 0, order: compact ? 0 : undefined }}>
          <Button
            type="text"
            onClick={onToggle}
            aria-label={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
            aria-expanded={!collapsed}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          />
          {!compact && (
            <Typography.Title level={1} ellipsis style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>
              {title}
            </Typography.Title>
          )}
        </Flex>
        <Space size="small">
          <AlertSettings />
          <AccountMenu selected={account} />
          <LanguageMenu />
          <ThemeSwitch />
        </Space>
        {compact && (
          <Typography.Title
            level={1}
            data-testid="section-title"
            style={{ margin: 0, flexBasis: '100%', fontSize: token.fontSizeHeading5, overflowWrap: 'anywhere' }}
          >
            {title}
          </Typography.Title>
        )}
      </Flex>
    </Layout.Header>
  );
}
