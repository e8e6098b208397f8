import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import dayjs from 'dayjs';
import 'dayjs/locale/tr';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../lib/query-client.ts';

// Every screen writes dates with localized formats (L, LTS), in the chosen language.
dayjs.extend(localizedFormat);

/**
 * What the screens inside the layout need and the sign-in screens do not: the data layer, antd's
 * App context (message, modal) and dayjs in the chosen language. Kept out of /login's bundle.
 */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  useEffect(() => {
    dayjs.locale(language === 'tr' ? 'tr' : 'en');
  }, [language]);
  return (
    <QueryClientProvider client={queryClient}>
      <AntApp>{children}</AntApp>
    </QueryClientProvider>
  );
}
