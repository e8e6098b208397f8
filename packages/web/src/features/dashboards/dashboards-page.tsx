import { ReloadOutlined } from '@ant-design/icons';
import type { DashboardSummary } from '@lampyr/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Col, Empty, Flex, Row, Skeleton, Statistic, Tag, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFailed } from '../../app/layout/load-failed.tsx';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useDashboardSummary } from '../../data/dashboard.ts';
import { useFormat } from '../../lib/format.ts';
import { onLiveEvent } from '../../lib/live-stream.ts';
import { keys } from '../../lib/query-keys.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { LiveBadge } from '../assets-devices/live-badge.tsx';
import { OperatorFigures } from './operator-figures.tsx';

/** Connection changes arrive live; the counts follow them at most this often. */
const LIVE_REFRESH_MS = 5000;
const LEVELS = [
  { level: 'high', color: 'red' },
  { level: 'medium', color: 'orange' },
  { level: 'low', color: 'gold' },
] as const;

const percentOf = (part: number, whole: number) => (whole ? Math.round((part / whole) * 100) : 0);

/**
 * The menu's Dashboard (SPEC §2): inventory by device type, devices online and offline, the
 * operator's figures (lamps by state, failed lamps, faults, power, energy, gateways) and active
 * alarms by level, for the whole account or one device type; kept current by the live stream.
 */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const client = useQueryClient();
  const [deviceTypeId, setDeviceTypeId] = useState<number | null>(null);
  const summary = useDashboardSummary(deviceTypeId);

  // A device going online or offline changes the counts: refetch, at most every few seconds.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onLiveEvent((event) => {
      if ((event.type !== 'status' && event.type !== 'alarm') || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: keys.dashboardSummary() });
      }, LIVE_REFRESH_MS);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [client]);

  const typeName = (row: DashboardSummary['inventory'][number]) =>
    (i18n.resolvedLanguage ?? i18n.language) === 'tr' ? row.typeNameTr : row.typeNameEn;
  const data = summary.data;

  return (
    <Flex vertical gap={token.margin}>
      <Card>
        <ScreenTitle title={t('dashboard.title')}>
          <LiveBadge />
          <div style={{ width: 260 }}>
            <ReferenceSelect
              prefix="devices-types"
              value={deviceTypeId}
              onChange={(value) => setDeviceTypeId(typeof value === 'number' ? value : null)}
              placeholder={t('dashboard.allTypes')}
              aria-label={t('dashboard.deviceType')}
            />
          </div>
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('action.refresh')}
            loading={summary.isFetching}
            onClick={() => void summary.refetch()}
          />
        </ScreenTitle>
      </Card>
      {summary.isPending ? (
        <Card>
          <Skeleton active aria-label={t('state.loading')} />
        </Card>
      ) : summary.isError ? (
        <LoadFailed error={summary.error} onRetry={() => void summary.refetch()} />
      ) : data && data.deviceCount === 0 ? (
        <Card>
          <Empty description={t(deviceTypeId === null ? 'dashboard.noDevices' : 'dashboard.noDevicesOfType')}>
            <Link to="/assets-devices/devices">{t('dashboard.openDevices')}</Link>
          </Empty>
        </Card>
      ) : data ? (
        <>
          <Row gutter={[token.margin, token.margin]}>
            <Col xs={12} lg={6}>
              <Card>
                <Statistic title={t('dashboard.devices')} value={data.deviceCount} />
              </Card>
            </Col>
            <Col xs={12} lg={6}>
              <Card>
                <Statistic
                  title={<Badge status="success" text={t('device.online')} />}
                  value={data.online}
                  suffix={<Share part={data.online} whole={data.deviceCount} />}
                />
              </Card>
            </Col>
            <Col xs={12} lg={6}>
              <Card>
                <Statistic
                  title={<Badge status="error" text={t('device.offline')} />}
                  value={data.offline}
                  suffix={<Share part={data.offline} whole={data.deviceCount} />}
                />
              </Card>
            </Col>
            <Col xs={12} lg={6}>
              <Card>
                <Statistic
                  title={<Badge status="default" text={t('device.neverSeen')} />}
                  value={data.neverSeen}
                  suffix={<Share part={data.neverSeen} whole={data.deviceCount} />}
                />
              </Card>
            </Col>
          </Row>
          <OperatorFigures data={data} />
          <Row gutter={[token.margin, token.margin]}>
            <Col xs={24} lg={8}>
              <Card title={t('dashboard.alarms')} style={{ height: '100%' }}>
                {data.alarms ? (
                  <Flex vertical gap={token.marginSM}>
                    <Statistic title={t('dashboard.alarmCount')} value={data.alarms.count} />
                    <Flex wrap gap={token.marginSM} data-testid="alarm-levels">
                      {LEVELS.map(({ level, color }) => (
                        <Tag key={level}>
                          <Badge color={color} text={`${t(`resources:values.${level}`)}: ${data.alarms?.[level]}`} />
                        </Tag>
                      ))}
                    </Flex>
                  </Flex>
                ) : (
                  <Typography.Text type="secondary">{t('dashboard.alarmsHidden')}</Typography.Text>
                )}
              </Card>
            </Col>
            <Col xs={24} lg={16}>
              <Card title={t('dashboard.inventory')}>
                <ScrollTable
                  size="small"
                  rowKey="deviceTypeId"
                  dataSource={data.inventory}
                  pagination={data.inventory.length > 10 ? { pageSize: 10 } : false}
                  onRow={(row) => ({
                    onClick: () => setDeviceTypeId(row.deviceTypeId),
                    style: { cursor: 'pointer' },
                  })}
                  columns={[
                    { title: t('dashboard.deviceType'), key: 'type', render: (_v, row) => typeName(row) },
                    { title: t('dashboard.devices'), dataIndex: 'devices', align: 'right' },
                    { title: t('device.online'), dataIndex: 'online', align: 'right' },
                    { title: t('device.offline'), dataIndex: 'offline', align: 'right' },
                    {
                      title: t('device.neverSeen'),
                      key: 'neverSeen',
                      align: 'right',
                      render: (_v, row) => row.devices - row.online - row.offline,
                    },
                  ]}
                />
              </Card>
            </Col>
          </Row>
        </>
      ) : null}
    </Flex>
  );
}

function Share({ part, whole }: { part: number; whole: number }) {
  const format = useFormat();
  return (
    <Typography.Text type="secondary" style={{ fontSize: 14 }}>
      {format.percent(percentOf(part, whole), 0)}
    </Typography.Text>
  );
}
