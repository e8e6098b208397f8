import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';

/** A device's online/offline status, or that none was heard yet. */
export function ConnectionTag({ status }: { status: unknown }) {
  const { t } = useTranslation();
  if (status === 'online') return <Badge status="success" text={t('device.online')} />;
  if (status === 'offline') return <Badge status="error" text={t('device.offline')} />;
  return <Badge status="default" text={t('device.neverSeen')} />;
}
