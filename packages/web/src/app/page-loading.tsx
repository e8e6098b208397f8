import { LoadingOutlined } from '@ant-design/icons';
import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The loading indicator of a lazily loaded screen. The spinning icon is the one antd's buttons
 * already load, so the first screen carries no Spin component for it.
 */
export function PageLoading({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex align="center" justify="center" style={{ minHeight: fullScreen ? '100vh' : 240 }}>
      <LoadingOutlined
        spin
        role="status"
        aria-label={t('state.loading')}
        style={{ fontSize: token.fontSizeHeading2, color: token.colorPrimary }}
      />
    </Flex>
  );
}
