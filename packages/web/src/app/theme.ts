import { CONSTANTS } from '@lampyr/contract';
import { type ThemeConfig, theme } from 'antd';

export type ThemeMode = 'light' | 'dark';

/**
 * The console's theme: the only place the SPEC's three colours appear. Components read them back
 * as tokens (the side menu through the Layout and Menu component tokens).
 */
export function themeConfig(mode: ThemeMode): ThemeConfig {
  const menuBg = mode === 'dark' ? CONSTANTS.colors.menuDark : CONSTANTS.colors.menuLight;
  return {
    algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { colorPrimary: CONSTANTS.colors.primary, colorLink: CONSTANTS.colors.primary },
    components: {
      Layout: {
        siderBg: menuBg,
        triggerBg: menuBg,
        footerPadding: '0 24px',
        headerPadding: '0 16px',
      },
      Menu: {
        darkItemBg: menuBg,
        darkSubMenuItemBg: menuBg,
        darkPopupBg: menuBg,
      },
    },
  };
}
