import { CONSTANTS } from '@lampyr/contract';
import { type ThemeConfig, theme } from 'antd';

export type ThemeMode = 'light' | 'dark';

/**
 * The console's theme: the only place the SPEC's three colours appear. Components read them back
 * as tokens (the side menu through the Layout and Menu component tokens).
 *
 * The primary green stays the brand token. White text on it, or it as text on white, reaches only
 * 3.4:1, below WCAG AA; so surfaces that carry text (buttons, links, the selected menu item,
 * pagination) use shades antd derives from that same green: the darker one under white text, and
 * as text the darker one in light mode and the lighter one in dark mode.
 */
export function themeConfig(mode: ThemeMode): ThemeConfig {
  const algorithm = mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm;
  const menuBg = mode === 'dark' ? CONSTANTS.colors.menuDark : CONSTANTS.colors.menuLight;
  const derived = theme.getDesignToken({ algorithm, token: { colorPrimary: CONSTANTS.colors.primary } });
  const fill = derived.colorPrimaryActive;
  // Hover and press shades of the fill itself, so white text stays readable in every state.
  const fillStates = theme.getDesignToken({ token: { colorPrimary: fill } });
  const text = mode === 'dark' ? derived.colorPrimaryHover : derived.colorPrimaryActive;
  // The dark algorithm darkens the link seed again (to 4.3:1 on the dark background): a lighter
  // shade of the same green seeds it there, so plain links read at 5.9:1.
  const linkSeed =
    mode === 'dark'
      ? theme.getDesignToken({ token: { colorPrimary: CONSTANTS.colors.primary } }).colorPrimaryBorderHover
      : text;
  return {
    algorithm,
    token: {
      colorPrimary: CONSTANTS.colors.primary,
      colorLink: linkSeed,
      colorLinkHover: derived.colorPrimaryHover,
      colorLinkActive: text,
      colorPrimaryText: text,
      colorPrimaryTextActive: text,
      // Secondary text (counts, hints, empty states) at antd's default 45% alpha misses AA,
      // and so does the default red of error messages: the next shade of each is used.
      colorTextDescription: derived.colorTextSecondary,
      colorError: mode === 'dark' ? derived.colorErrorHover : derived.colorErrorActive,
      // Placeholders are hints too.
      colorTextPlaceholder: derived.colorTextSecondary,
    },
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
        darkItemSelectedBg: fill,
      },
      Button: {
        colorPrimary: fill,
        colorPrimaryHover: fillStates.colorPrimaryHover,
        colorPrimaryActive: fill,
        colorLink: linkSeed,
      },
      Descriptions: { labelColor: derived.colorTextSecondary },
      Pagination: { colorPrimary: text, colorPrimaryHover: text },
      Steps: { colorPrimary: fill },
      Switch: { colorPrimary: fill, colorPrimaryHover: fillStates.colorPrimaryHover },
    },
  };
}
