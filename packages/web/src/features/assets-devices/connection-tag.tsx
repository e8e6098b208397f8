import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** A device's online/offline status, or that none was heard yet. */
export function ConnectionTag({ status }: { status: unknown }) {
  const { t } = useTranslation();
  if (status === 'online') return <Tag color="success">{t('device.online')}</Tag>;
  if (status === 'offline') return <Tag color="error">{t('device.offline')}</Tag>;
  return <Tag>{t('device.neverSeen')}</Tag>;
}
