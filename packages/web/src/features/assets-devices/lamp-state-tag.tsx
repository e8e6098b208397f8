import {
  BulbFilled,
  BulbOutlined,
  DisconnectOutlined,
  PoweroffOutlined,
  QuestionCircleOutlined,
  WarningFilled,
} from '@ant-design/icons';
import type { LampState } from '@lampyr/contract';
import type { GlobalToken } from 'antd';
import { Tag, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Each lamp state's icon: the state reads without its colour too. */
export const LAMP_ICONS: Record<LampState, ReactNode> = {
  on: <BulbFilled />,
  dimmed: <BulbOutlined />,
  off: <PoweroffOutlined />,
  fault: <WarningFilled />,
  offline: <DisconnectOutlined />,
  unknown: <QuestionCircleOutlined />,
};

/** Each state's colour from the theme, for map markers and the legend. */
export function lampColours(token: GlobalToken): Record<LampState, string> {
  return {
    on: token.gold6,
    dimmed: token.orange4,
    off: token.colorTextTertiary,
    fault: token.colorError,
    offline: token.purple6,
    unknown: token.colorTextQuaternary,
  };
}

/**
 * A device's lamp state as a tag: the state's colour on its icon and border, the word in the text
 * colour (coloured words on tinted tags fall below the contrast a label needs); failed lamps in bold.
 */
export function LampStateTag({ state }: { state: LampState | undefined }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const shown = state ?? 'unknown';
  const colour = lampColours(token)[shown];
  return (
    <Tag
      icon={<span style={{ color: colour, marginInlineEnd: token.marginXXS }}>{LAMP_ICONS[shown]}</span>}
      style={{ borderColor: colour, ...(shown === 'fault' ? { fontWeight: token.fontWeightStrong } : {}) }}
      data-lamp-state={shown}
    >
      {t(`lampState.${shown}`)}
    </Tag>
  );
}
