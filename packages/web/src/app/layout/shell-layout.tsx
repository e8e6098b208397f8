import { CONSTANTS } from '@lampyr/contract';
import { Layout, theme } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { resolveSelectedAccount } from '../../lib/session-storage.ts';
import { PageLoading } from '../page-loading.tsx';
import { AlertListener } from './alert-listener.tsx';
import { ConsoleProviders } from './console-providers.tsx';
import { HeaderBar } from './header-bar.tsx';
import { SideMenu } from './side-menu.tsx';
import { useLargeScreen } from './use-large-screen.ts';
import { useSessionExpiry } from './use-session-expiry.ts';

const { Sider, Content, Footer } = Layout;

/**
 * SPEC §2 shell: a dark side menu (300 wide; collapsed 90 on large screens, 0 on small ones) that
 * follows the large breakpoint until the user toggles it, a header, the content and a 44 px footer.
 */
export default function ShellLayout() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const large = useLargeScreen();
  useSessionExpiry();
  // SPEC §4: the selection is settled before any screen asks for account data.
  const [account] = useState(resolveSelectedAccount);
  const [collapsed, setCollapsed] = useState(!large);
  const [manual, setManual] = useState(false);

  useEffect(() => {
    if (!manual) setCollapsed(!large);
  }, [large, manual]);

  const toggle = () => {
    setManual(true);
    setCollapsed((c) => !c);
  };

  const { sideMenu, footerHeight } = CONSTANTS;
  return (
    <ConsoleProviders>
      <AlertListener />
      <Layout style={{ minHeight: '100vh' }}>
        <Sider
          width={sideMenu.width}
          collapsedWidth={large ? sideMenu.collapsedLarge : sideMenu.collapsedSmall}
          collapsed={collapsed}
          collapsible
          trigger={null}
          data-testid="side-menu"
          aria-label={t('shell.navigation')}
          style={{ overflow: 'auto', height: '100vh', position: 'sticky', insetBlockStart: 0 }}
        >
          <SideMenu collapsed={collapsed} />
        </Sider>
        <Layout>
          <HeaderBar collapsed={collapsed} onToggle={toggle} account={account} />
          <Content style={{ margin: token.marginLG, minWidth: 0 }}>
            <main>
              <Suspense fallback={<PageLoading />}>
                <Outlet />
              </Suspense>
            </main>
          </Content>
          <Footer
            style={{
              height: footerHeight,
              lineHeight: `${footerHeight}px`,
              textAlign: 'center',
              color: token.colorTextSecondary,
            }}
          >
            {t('shell.poweredBy', { brand: t('shell.brand') })}
          </Footer>
        </Layout>
      </Layout>
    </ConsoleProviders>
  );
}
