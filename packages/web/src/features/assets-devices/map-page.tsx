import 'leaflet/dist/leaflet.css';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Card, Empty, Flex, Segmented, Spin, Tag, Typography, theme } from 'antd';
import type { LatLngBoundsExpression } from 'leaflet';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, Popup, TileLayer } from 'react-leaflet';
import { Link } from 'react-router';
import { LoadFailed } from '../../app/layout/load-failed.tsx';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import {
  type Connection,
  MAP_STATUS_KEY,
  useMapConnections,
  useMapDevices,
  useMapOverrides,
} from '../../data/map-data.ts';
import { onLiveEvent } from '../../lib/live-stream.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { LiveBadge } from './live-badge.tsx';

type Status = 'online' | 'offline' | 'never';

const ISTANBUL: [number, number] = [41.0082, 28.9784];
/**
 * The menu's Map (SPEC §2): the account's devices that have coordinates, coloured by connection
 * status (kept live by the stream), each with its name, street, last contact and a way to its
 * details. Tiles come from the configured tile server.
 */
export default function MapPage() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const client = useQueryClient();
  const [shown, setShown] = useState<Status | 'all'>('all');

  const devices = useMapDevices();
  const connections = useMapConnections();

  // Connection changes arrive on the live stream: recolour the marker in place.
  useEffect(
    () =>
      onLiveEvent((event) => {
        if (event.type !== 'status') return;
        client.setQueryData<Map<number, Connection>>(MAP_STATUS_KEY, (before) => {
          if (!before) return before;
          const next = new Map(before);
          next.set(event.deviceId, { status: event.status, dateTime: event.dateTime });
          return next;
        });
      }),
    [client],
  );

  // Lights held by an override get a thick warning ring and a tag in their popup.
  const overrides = useMapOverrides();
  const statusOf = (id: number): Status => connections.data?.get(id)?.status ?? 'never';
  const colour: Record<Status, string> = {
    online: token.colorSuccess,
    offline: token.colorError,
    never: token.colorTextQuaternary,
  };
  const label: Record<Status, string> = {
    online: t('device.online'),
    offline: t('device.offline'),
    never: t('device.neverSeen'),
  };
  const all = devices.data?.devices ?? [];
  const counts = { online: 0, offline: 0, never: 0 };
  for (const d of all) counts[statusOf(d.id)]++;
  const visible = shown === 'all' ? all : all.filter((d) => statusOf(d.id) === shown);
  const bounds = useMemo<LatLngBoundsExpression | undefined>(() => {
    const points = devices.data?.devices ?? [];
    if (!points.length) return undefined;
    const lats = points.map((d) => d.latitude);
    const lngs = points.map((d) => d.longitude);
    return [
      [Math.min(...lats), Math.min(...lngs)],
      [Math.max(...lats), Math.max(...lngs)],
    ];
  }, [devices.data]);
  const { mapTileUrl, mapAttribution } = runtimeConfig();
  const dateFormat = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? i18n.language, {
    dateStyle: 'short',
    timeStyle: 'short',
  });

  return (
    <Flex vertical gap={token.margin}>
      <Card>
        <ScreenTitle title={t('map.title')}>
          <LiveBadge />
          <Segmented<Status | 'all'>
            value={shown}
            onChange={setShown}
            aria-label={t('map.show')}
            options={[
              { value: 'all', label: t('map.all', { count: all.length }) },
              ...(['online', 'offline', 'never'] as const).map((s) => ({
                value: s,
                label: <Badge color={colour[s]} text={`${label[s]} (${counts[s]})`} />,
              })),
            ]}
          />
        </ScreenTitle>
      </Card>
      <Card styles={{ body: { padding: 0 } }}>
        {devices.isPending ? (
          <Flex justify="center" style={{ padding: token.paddingLG }}>
            <Spin aria-label={t('state.loading')} />
          </Flex>
        ) : devices.isError ? (
          <LoadFailed error={devices.error} onRetry={() => void devices.refetch()} />
        ) : all.length === 0 ? (
          <Empty style={{ padding: token.paddingLG }} description={t('map.noDevices')}>
            <Link to="/assets-devices/devices">{t('dashboard.openDevices')}</Link>
          </Empty>
        ) : (
          <>
            {(devices.data?.total ?? 0) > all.length && (
              <Alert type="warning" showIcon title={t('map.truncated', { shown: all.length })} />
            )}
            <MapContainer
              bounds={bounds}
              center={bounds ? undefined : ISTANBUL}
              zoom={bounds ? undefined : 11}
              preferCanvas
              style={{ height: 'calc(100vh - 300px)', minHeight: 420, borderRadius: token.borderRadiusLG }}
              data-testid="device-map"
            >
              <TileLayer url={mapTileUrl} attribution={mapAttribution} />
              {visible.map((d) => {
                const status = statusOf(d.id);
                const connection = connections.data?.get(d.id);
                const held = overrides.data?.get(d.id);
                return (
                  <CircleMarker
                    key={d.id}
                    center={[d.latitude, d.longitude]}
                    radius={held ? 8 : 6}
                    pathOptions={{
                      color: held ? token.colorWarning : colour[status],
                      fillColor: colour[status],
                      fillOpacity: 0.85,
                      weight: held ? 3 : 1,
                    }}
                  >
                    <Popup>
                      <Flex vertical gap={4}>
                        <Typography.Text strong>{d.name}</Typography.Text>
                        {d.street && <Typography.Text type="secondary">{d.street}</Typography.Text>}
                        <Badge color={colour[status]} text={label[status]} />
                        {held && (
                          <Tag color="warning">
                            {t('device.override', {
                              level: held.level,
                              until: new Date(held.until).toLocaleTimeString([], {
                                hour: '2-digit',
                                minute: '2-digit',
                              }),
                            })}
                          </Tag>
                        )}
                        {connection?.dateTime && (
                          <Typography.Text type="secondary">
                            {t('device.lastSeen')}: {dateFormat.format(new Date(connection.dateTime))}
                          </Typography.Text>
                        )}
                        <Link to={`/assets-devices/device-details?id=${d.id}`}>{t('map.details')}</Link>
                      </Flex>
                    </Popup>
                  </CircleMarker>
                );
              })}
            </MapContainer>
          </>
        )}
      </Card>
    </Flex>
  );
}
