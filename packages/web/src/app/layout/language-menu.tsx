import { GlobalOutlined } from '@ant-design/icons';
import { CONSTANTS, type Language } from '@lampyr/contract';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../lib/i18n.ts';

/** SPEC §2: Turkish (tr) and English (en). */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? i18n.language) as Language;
  const order: Language[] = ['tr', 'en'];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: order
          .filter((lng) => (CONSTANTS.languages as readonly string[]).includes(lng))
          .map((lng) => ({ key: lng, label: t(`language.${lng}`) })),
        onClick: ({ key }) => void changeLanguage(key as Language),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('language.current', { code: current.toUpperCase() })}
        data-testid="language-menu"
      >
        {current.toUpperCase()}
      </Button>
    </Dropdown>
  );
}
