import { CONSTANTS } from '@lampyr/contract';
import { Drawer, Layout, theme } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { resolveSelectedAccount } from '../../lib/session-storage.ts';
import { useThemeStore } from '../../lib/theme-store.ts';
import { preloadHeavyPages } from '../menu.ts';
import { PageLoading } from '../page-loading.tsx';
import './shell.css';
import { AlertListener } from './alert-listener.tsx';
import { ConsoleProviders } from './console-providers.tsx';
import { HeaderBar } from './header-bar.tsx';
import { SideMenu } from './side-menu.tsx';
import { useLargeScreen } from './use-large-screen.ts';
import { useSessionExpiry } from './use-session-expiry.ts';

const { Sider, Content, Footer } = Layout;

/**
 * SPEC §2 shell: a dark side menu, a header, the content and a 44 px footer. On a large screen the
 * menu is a side bar (300 wide, collapsed 90) that stays in place with its own scroll however long
 * the page; below the large breakpoint (a phone) it is a drawer over the page, closed by choosing
 * a screen, tapping beside it or Escape, so the page keeps the whole width.
 */
export default function ShellLayout() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const large = useLargeScreen();
  const mode = useThemeStore((state) => state.mode);
  useSessionExpiry();
  // SPEC §4: the selection is settled before any screen asks for account data.
  const [account] = useState(resolveSelectedAccount);
  const [collapsed, setCollapsed] = useState(!large);
  const [manual, setManual] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const location = useLocation();

  // Once the first screen is drawn and the browser is idle, the heavy screens' code is fetched.
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') return;
    const idle = requestIdleCallback(preloadHeavyPages, { timeout: 5000 });
    return () => cancelIdleCallback(idle);
  }, []);
  useEffect(() => {
    if (!manual) setCollapsed(!large);
  }, [large, manual]);
  // Choosing a screen (or any other navigation) closes the drawer; so does growing to a large screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger, not an input
  useEffect(() => setDrawerOpen(false), [location.pathname, location.search, large]);

  const toggle = () => {
    if (!large) {
      setDrawerOpen((open) => !open);
      return;
    }
    setManual(true);
    setCollapsed((c) => !c);
  };

  const { sideMenu, footerHeight } = CONSTANTS;
  const menuBg = mode === 'dark' ? CONSTANTS.colors.menuDark : CONSTANTS.colors.menuLight;
  return (
    <ConsoleProviders>
      <AlertListener />
      <Layout style={{ minHeight: '100vh' }}>
        {large ? (
          <Sider
            width={sideMenu.width}
            collapsedWidth={sideMenu.collapsedLarge}
            collapsed={collapsed}
            collapsible
            trigger={null}
            data-testid="side-menu"
            aria-label={t('shell.navigation')}
          >
            {/* The bar's colour runs the page's full height; the menu stays in view with its own scroll. */}
            <div
              data-testid="side-menu-scroll"
              style={{
                position: 'sticky',
                insetBlockStart: 0,
                height: '100vh',
                overflowY: 'auto',
                overflowX: 'hidden',
              }}
            >
              <SideMenu collapsed={collapsed} />
            </div>
          </Sider>
        ) : (
          <Drawer
            placement="left"
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            closable={false}
            aria-label={t('shell.navigation')}
            size={sideMenu.width}
            styles={{ body: { padding: 0, background: menuBg }, wrapper: { maxWidth: '85vw' } }}
          >
            <div data-testid="side-menu" style={{ minHeight: '100%', background: menuBg }}>
              <SideMenu collapsed={false} />
            </div>
          </Drawer>
        )}
        <Layout>
          <HeaderBar collapsed={large ? collapsed : !drawerOpen} onToggle={toggle} account={account} compact={!large} />
          <Content style={{ margin: large ? token.marginLG : token.marginSM, minWidth: 0 }}>
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
