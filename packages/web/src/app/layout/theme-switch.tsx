import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useThemeStore } from '../../lib/theme-store.ts';

/** Toggles light and dark; the store saves the choice and broadcasts `themeChange`. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const mode = useThemeStore((s) => s.mode);
  const toggle = useThemeStore((s) => s.toggle);
  return (
    <Switch
      checked={mode === 'dark'}
      onChange={toggle}
      checkedChildren={<MoonOutlined />}
      unCheckedChildren={<SunOutlined />}
      aria-label={t('theme.dark')}
      data-testid="theme-switch"
    />
  );
}
