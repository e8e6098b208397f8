import { ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listenForThemeChanges, useThemeStore } from '../lib/theme-store.ts';
import { themeConfig } from './theme.ts';

/** antd's own texts (pickers, pagination) in Turkish, fetched only when Turkish is chosen. */
function useAntdLocale(language: string): Locale | undefined {
  const [locale, setLocale] = useState<Locale>();
  useEffect(() => {
    let current = true;
    if (language === 'tr') {
      void import('antd/locale/tr_TR').then((m) => {
        if (current) setLocale(m.default);
      });
    } else setLocale(undefined);
    return () => {
      current = false;
    };
  }, [language]);
  return locale;
}

export function Providers({ children }: { children: ReactNode }) {
  const mode = useThemeStore((s) => s.mode);
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const theme = useMemo(() => themeConfig(mode), [mode]);
  const locale = useAntdLocale(language);

  useEffect(() => listenForThemeChanges(), []);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  return (
    <ConfigProvider theme={theme} locale={locale}>
      {children}
    </ConfigProvider>
  );
}
