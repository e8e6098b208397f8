import { BulbFilled } from '@ant-design/icons';
import type { Language } from '@lampyr/contract';
import { Button, Flex, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../lib/i18n.ts';

/**
 * The frame of the screens outside the layout: brand, language choice, one panel. Plain elements
 * styled with theme tokens keep /login light (no Card, no Typography).
 */
export function AuthFrame({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap={token.marginLG}
      style={{
        minHeight: '100vh',
        padding: token.paddingLG,
        background: token.colorBgLayout,
        color: token.colorText,
        fontFamily: token.fontFamily,
      }}
    >
      <main style={{ width: '100%', maxWidth: 440 }}>
        <div
          style={{
            background: token.colorBgContainer,
            borderRadius: token.borderRadiusLG,
            boxShadow: token.boxShadowTertiary,
            padding: token.paddingLG,
          }}
        >
          <Flex vertical gap={token.marginXS} style={{ marginBottom: token.marginLG }}>
            <Flex gap="small" align="center">
              <BulbFilled style={{ color: token.colorPrimary, fontSize: token.fontSizeHeading3 }} />
              <strong style={{ fontSize: token.fontSizeHeading4 }}>{t('shell.brand')}</strong>
            </Flex>
            <h1
              style={{
                margin: 0,
                fontSize: token.fontSizeHeading3,
                fontWeight: token.fontWeightStrong,
                color: token.colorTextHeading,
              }}
            >
              {title}
            </h1>
            {subtitle && <span style={{ color: token.colorTextSecondary }}>{subtitle}</span>}
          </Flex>
          {children}
        </div>
      </main>
      <footer style={{ textAlign: 'center' }}>
        <Flex gap="small" align="center" justify="center">
          {(['en', 'tr'] as Language[]).map((lng) => (
            <Button
              key={lng}
              size="small"
              type={current === lng ? 'primary' : 'text'}
              aria-pressed={current === lng}
              onClick={() => void changeLanguage(lng)}
            >
              {t(`language.${lng}`)}
            </Button>
          ))}
        </Flex>
        <p style={{ color: token.colorTextSecondary, marginBlock: token.marginSM }}>
          {t('shell.poweredBy', { brand: t('shell.brand') })}
        </p>
      </footer>
    </Flex>
  );
}
