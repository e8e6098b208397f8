import { Flex, Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** The loading indicator of a lazily loaded screen. */
export function PageLoading({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <Flex align="center" justify="center" style={{ minHeight: fullScreen ? '100vh' : 240 }}>
      <Spin size="large" aria-label={t('state.loading')} />
    </Flex>
  );
}
