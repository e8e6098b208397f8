import { getResource } from '@lampyr/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Flex,
  Row,
  Space,
  Spin,
  Statistic,
  Tag,
  theme,
} from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import {
  type ChannelTemplate,
  channelLabel,
  useActiveOverrides,
  useChannelTemplates,
  useConnectionStatus,
  useLatestValues,
  useRecord,
  useSubChannelTemplates,
} from '../../data/device-data.ts';
import { recordLabel } from '../../data/reference-data.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { type Formatter, useFormat } from '../../lib/format.ts';
import type { Row as DataRow } from '../../lib/resource-api.ts';
import { DEVICE_ACTION_SLUGS, deviceActionPath } from '../../resources/bulk-actions.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { DeviceMaintenanceCard } from '../maintenance-fault/device-maintenance-card.tsx';
import { BrokerLoginCard } from './broker-login-card.tsx';
import { ConnectionTag } from './connection-tag.tsx';
import { LiveBadge } from './live-badge.tsx';

const devices = getResource('devices');
const connectionStatus = getResource('device-connection-status');

/** The overrides holding the device now (newest first): "Override 40 % until 23:00". */
function OverrideTags({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const active = useActiveOverrides(deviceId);
  const first = active.data?.[0];
  if (!first) return null;
  return (
    <Tag color="warning" title={first.reason} data-testid="override-tag">
      {t('device.override', { level: first.level, until: dayjs(first.until).format('LT') })}
    </Tag>
  );
}

function formatTime(value: unknown): string {
  return typeof value === 'string' ? dayjs(value).format('L LTS') : '–';
}

function text(value: unknown): string {
  return value === null || value === undefined || value === '' ? '–' : String(value);
}

/** A reading as shown: on/off for a boolean channel, the number otherwise. */
function reading(template: ChannelTemplate | undefined, value: unknown, t: TFunction, format: Formatter): string {
  if (typeof value !== 'number') return '–';
  if (template?.dataType === 'bool') return value ? t('liveControl.on') : t('liveControl.off');
  return format.unit(value, template?.unit);
}

interface ShownChannel {
  key: string;
  title: string;
  template?: ChannelTemplate;
  value?: DataRow;
}

/**
 * Every channel's latest value with its label and unit, updated live. A channel that carries a
 * sub-device's package shows one card per sub-channel, titled with both labels.
 */
function ChannelValues({ deviceId, modelId }: { deviceId: number; modelId: number | undefined }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { token } = theme.useToken();
  const templates = useChannelTemplates(modelId === undefined ? [] : [modelId]);
  const subTemplates = useSubChannelTemplates((templates.data?.content ?? []).map((tpl) => tpl.id));
  const values = useLatestValues([deviceId]);
  const rows = values.data?.content ?? [];
  const keyOf = (templateId: unknown, subChannel: unknown) => `${templateId}:${Number(subChannel ?? 0)}`;
  const byKey = new Map(rows.map((v) => [keyOf(v.deviceChannelTemplateId, v.subChannel), v]));
  const shown: ShownChannel[] = [];
  for (const template of templates.data?.content ?? []) {
    const subs = (subTemplates.data?.content ?? []).filter((s) => s.parentTemplateId === template.id);
    if (!subs.length) {
      const key = keyOf(template.id, 0);
      shown.push({ key, title: channelLabel(template, `#${template.id}`), template, value: byKey.get(key) });
      continue;
    }
    subs.forEach((sub, k) => {
      const key = keyOf(template.id, sub.channelPackageOrder ?? k + 1);
      const title = `${channelLabel(template, `#${template.id}`)} · ${channelLabel(sub, `#${k + 1}`)}`;
      shown.push({ key, title, template: sub, value: byKey.get(key) });
    });
  }
  // Values of channels the model no longer names still show, by their number.
  for (const [key, value] of byKey)
    if (!shown.some((s) => s.key === key)) shown.push({ key, title: `#${key.replace(':0', '')}`, value });

  const loadingSubs = subTemplates.isPending && subTemplates.fetchStatus === 'fetching';
  if (templates.isPending || values.isPending || loadingSubs)
    return (
      <span role="status" aria-label={t('state.loading')}>
        <Spin />
      </span>
    );
  if (values.isError) return <Alert type="error" showIcon title={errorMessage(values.error, t)} />;
  if (shown.length === 0) return <Empty description={t('device.noChannels')} />;
  return (
    <Row gutter={[token.margin, token.margin]}>
      {shown.map(({ key, title, template, value }) => (
        <Col key={key} xs={24} sm={12} md={8} xl={6}>
          <Card size="small" data-testid={`channel-${template?.channelCode ?? key}`}>
            <Statistic title={title} value={reading(template, value?.value, t, format)} />
            <Flex justify="space-between" align="center" style={{ marginTop: token.marginXS }}>
              <span style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>
                {value ? formatTime(value.dateTime) : t('device.noValue')}
              </span>
              {value?.status === 'out_of_range' && <Badge status="warning" text={t('device.outOfRange')} />}
            </Flex>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** assets-devices/device-details: one device's identity, place, connection and live channel values. */
export default function DeviceDetailsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const labels = useResourceLabels(devices);
  const connectionLabels = useResourceLabels(connectionStatus);
  const [search, setSearch] = useSearchParams();
  const id = Number(search.get('id')) || undefined;
  const device = useRecord('devices', id);
  const row = device.data;
  const modelId = typeof row?.deviceTypeModelId === 'number' ? row.deviceTypeModelId : undefined;
  const regionId = typeof row?.regionId === 'number' ? row.regionId : undefined;
  const model = useRecord('device-models', modelId);
  const region = useRecord('regions', regionId);
  const status = useConnectionStatus(id === undefined ? [] : [id]);
  const connection = status.data?.content[0];
  const lat = typeof row?.latitude === 'number' ? row.latitude : undefined;
  const lon = typeof row?.longitude === 'number' ? row.longitude : undefined;

  return (
    <Flex vertical gap={token.margin}>
      <Card>
        <ScreenTitle title={row ? recordLabel('devices', row) : t('device.detailsTitle')}>
          <LiveBadge />
          <div style={{ width: 280 }}>
            <ReferenceSelect
              prefix="devices"
              aria-label={t('device.choose')}
              placeholder={t('device.choose')}
              value={id ?? null}
              onChange={(next) => setSearch(typeof next === 'number' ? { id: String(next) } : {})}
            />
          </div>
        </ScreenTitle>
      </Card>

      {id === undefined ? (
        <Card>
          <Empty description={t('device.chooseHint')} />
        </Card>
      ) : device.isPending ? (
        <Card>
          <span role="status" aria-label={t('state.loading')}>
            <Spin />
          </span>
        </Card>
      ) : device.isError ? (
        <Alert type="error" showIcon role="alert" title={errorMessage(device.error, t)} />
      ) : (
        <>
          <Row gutter={[token.margin, token.margin]}>
            <Col xs={24} lg={16}>
              <Card title={t('device.identity')} size="small" style={{ height: '100%' }}>
                <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
                  <Descriptions.Item label={labels.field('name')}>{text(row?.name)}</Descriptions.Item>
                  <Descriptions.Item label={labels.field('code')}>{text(row?.code)}</Descriptions.Item>
                  <Descriptions.Item label={labels.field('serialNumber')}>{text(row?.serialNumber)}</Descriptions.Item>
                  <Descriptions.Item label={labels.field('devEui')}>{text(row?.devEui)}</Descriptions.Item>
                  <Descriptions.Item label={labels.field('uid')}>{text(row?.uid)}</Descriptions.Item>
                  <Descriptions.Item label={labels.field('deviceTypeModelId')}>
                    {model.data ? recordLabel('device-models', model.data) : text(modelId)}
                  </Descriptions.Item>
                  <Descriptions.Item label={labels.field('regionId')}>
                    {region.data ? recordLabel('regions', region.data) : text(regionId)}
                  </Descriptions.Item>
                  <Descriptions.Item label={labels.field('status')}>
                    {row?.status ? labels.option('status', String(row.status)) : '–'}
                  </Descriptions.Item>
                  <Descriptions.Item label={labels.field('address')}>{text(row?.address)}</Descriptions.Item>
                  <Descriptions.Item label={t('device.location')}>
                    {lat !== undefined && lon !== undefined ? (
                      <a
                        href={`https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=18/${lat}/${lon}`}
                        target="_blank"
                        rel="noreferrer"
                      >
                        {`${lat.toFixed(5)}, ${lon.toFixed(5)}`}
                      </a>
                    ) : (
                      '–'
                    )}
                  </Descriptions.Item>
                </Descriptions>
              </Card>
            </Col>
            <Col xs={24} lg={8}>
              <Card title={t('device.connection')} size="small" style={{ height: '100%' }}>
                <Descriptions size="small" column={1}>
                  <Descriptions.Item label={t('device.status')}>
                    <ConnectionTag status={connection?.status} />
                  </Descriptions.Item>
                  <Descriptions.Item label={t('device.lastSeen')}>{formatTime(connection?.dateTime)}</Descriptions.Item>
                  <Descriptions.Item label="RSSI">{text(connection?.rssi)}</Descriptions.Item>
                  <Descriptions.Item label="SNR">{text(connection?.snr)}</Descriptions.Item>
                  <Descriptions.Item label={connectionLabels.field('gatewayEui')}>
                    {text(connection?.gatewayEui)}
                  </Descriptions.Item>
                  <Descriptions.Item label={connectionLabels.field('externalPower')}>
                    {typeof connection?.externalPower === 'boolean'
                      ? t(connection.externalPower ? 'value.yes' : 'value.no')
                      : '–'}
                  </Descriptions.Item>
                  <Descriptions.Item label={connectionLabels.field('batteryLevel')}>
                    {text(connection?.batteryLevel)}
                  </Descriptions.Item>
                  <Descriptions.Item label={connectionLabels.field('linkMargin')}>
                    {text(connection?.linkMargin)}
                  </Descriptions.Item>
                </Descriptions>
                <OverrideTags deviceId={id} />
                <Space wrap style={{ marginTop: token.marginSM }}>
                  <Link to={`/assets-devices/channel-write-values?deviceId=${id}`}>
                    <Button>{t('menu.assets-devices.channel-write-values')}</Button>
                  </Link>
                  {DEVICE_ACTION_SLUGS.map((slug) => (
                    <Link key={slug} to={deviceActionPath(slug, [id])}>
                      <Button>{t(`menu.assets-devices.actions.${slug}`)}</Button>
                    </Link>
                  ))}
                  <Link to={`/assets-devices/graphic?deviceId=${id}`}>
                    <Button>{t('menu.assets-devices.graphic')}</Button>
                  </Link>
                  <Link to={`/tasks-schedules/schedule-preview?deviceId=${id}`}>
                    <Button>{t('schedule.preview')}</Button>
                  </Link>
                </Space>
              </Card>
            </Col>
          </Row>
          <Card title={t('device.channels')} size="small">
            <ChannelValues deviceId={id} modelId={modelId} />
          </Card>
          <DeviceMaintenanceCard deviceId={id} />
          <BrokerLoginCard deviceId={id} uid={typeof row?.uid === 'string' && row.uid ? row.uid : undefined} />
        </>
      )}
    </Flex>
  );
}
