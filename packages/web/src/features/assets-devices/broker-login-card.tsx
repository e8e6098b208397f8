import type { DeviceLogin } from '@lampyr/contract';
import { Alert, App, Button, Card, Descriptions, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceCredentials } from '../../data/device-credentials.ts';
import { errorMessage } from '../../lib/error-message.ts';

/**
 * An IP device's own broker login: its uid as user name, and a password an operator who may update
 * the device can show or replace (the server refuses everyone else). Nothing is cached: the
 * password is shown only while asked for.
 */
export function BrokerLoginCard({ deviceId, uid }: { deviceId: number; uid: string | undefined }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [login, setLogin] = useState<DeviceLogin>();
  const { reveal, rotate } = useDeviceCredentials(deviceId, (next, action) => {
    setLogin(next);
    if (action === 'rotate') message.success(t('device.rotated'));
  });
  const error = reveal.error ?? rotate.error;

  return (
    <Card title={t('device.brokerLogin')} size="small" data-testid="broker-login">
      {!uid ? (
        <Typography.Text type="secondary">{t('device.brokerNoUid')}</Typography.Text>
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('device.brokerUsername')}>
              <Typography.Text code copyable>
                {uid}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('device.brokerPassword')}>
              {login ? (
                <Typography.Text code copyable data-testid="broker-password">
                  {login.password}
                </Typography.Text>
              ) : (
                <Typography.Text code>••••••••••••</Typography.Text>
              )}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">{t('device.brokerHint', { uid })}</Typography.Text>
          {error && <Alert type="error" showIcon role="alert" title={errorMessage(error, t)} />}
          <Space wrap>
            {login ? (
              <Button onClick={() => setLogin(undefined)}>{t('device.hidePassword')}</Button>
            ) : (
              <Button onClick={() => reveal.mutate()} loading={reveal.isPending}>
                {t('device.revealPassword')}
              </Button>
            )}
            <Popconfirm
              title={t('device.rotateTitle')}
              description={t('device.rotateText')}
              onConfirm={() => rotate.mutate()}
              okText={t('device.rotatePassword')}
              cancelText={t('action.cancel')}
            >
              <Button danger loading={rotate.isPending}>
                {t('device.rotatePassword')}
              </Button>
            </Popconfirm>
          </Space>
        </Space>
      )}
    </Card>
  );
}
