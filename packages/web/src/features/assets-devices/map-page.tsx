import 'leaflet/dist/leaflet.css';
import { LAMP_STATES, type LampState } from '@lampyr/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Card, Empty, Flex, Segmented, Select, Spin, Tag, Typography, theme } from 'antd';
import { divIcon, type LatLngBoundsExpression } from 'leaflet';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, Marker, Popup, TileLayer } from 'react-leaflet';
import { Link, useSearchParams } from 'react-router';
import { LoadFailed } from '../../app/layout/load-failed.tsx';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useLampStates, useStreets } from '../../data/lamp-states.ts';
import {
  type Connection,
  MAP_STATUS_KEY,
  useMapConnections,
  useMapDevices,
  useMapOverrides,
} from '../../data/map-data.ts';
import { onLiveEvent } from '../../lib/live-stream.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { LAMP_ICONS, LampStateTag, lampColours } from './lamp-state-tag.tsx';
import { LiveBadge } from './live-badge.tsx';

type Status = 'online' | 'offline' | 'never';
const isLampState = (v: string | null): v is LampState => (LAMP_STATES as readonly (string | null)[]).includes(v);

/** How each lamp state's marker is drawn: not by colour alone (filled, half, hollow, dashed, warning sign). */
const MARKER: Record<LampState, { fill: number; dash?: string; radius: number }> = {
  on: { fill: 0.95, radius: 7 },
  dimmed: { fill: 0.5, radius: 6 },
  off: { fill: 0, radius: 5 },
  fault: { fill: 1, radius: 9 },
  offline: { fill: 0.15, dash: '3 3', radius: 6 },
  unknown: { fill: 0.3, radius: 4 },
};

/** A state's marker as a small picture for the legend. */
function Swatch({ state, colour }: { state: LampState; colour: string }) {
  const m = MARKER[state];
  return (
    <svg width={18} height={18} viewBox="0 0 18 18" aria-hidden="true" style={{ verticalAlign: 'middle' }}>
      <circle
        cx={9}
        cy={9}
        r={Math.min(m.radius, 7)}
        stroke={colour}
        strokeWidth={2}
        strokeDasharray={m.dash}
        fill={colour}
        fillOpacity={m.fill}
      />
    </svg>
  );
}

const ISTANBUL: [number, number] = [41.0082, 28.9784];
/**
 * The menu's Map (SPEC §2): the account's devices that have coordinates, drawn by lamp state (on,
 * dimmed, off, fault, offline, not reported: colour and shape, failed lamps as a warning sign on
 * top), with a legend that filters and a street filter; each with its name, street, connection,
 * last contact and a way to its details. Tiles come from the configured tile server.
 */
export default function MapPage() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const client = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('state');
  const shown: LampState | 'all' = isLampState(requested) ? requested : 'all';
  const street = search.get('street') ?? undefined;
  const setParam = (name: string, value: string | undefined) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === undefined) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  const lamps = useLampStates('all');
  const streets = useStreets();

  const devices = useMapDevices();
  const connections = useMapConnections();

  // Connection changes arrive on the live stream: recolour the marker in place (lamp states follow
  // the stream in their hook).
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
  const lampColour = lampColours(token);
  const stateOf = (id: number): LampState => lamps.data?.get(id)?.state ?? 'unknown';
  const all = devices.data?.devices ?? [];
  const onStreet = street === undefined ? all : all.filter((d) => d.street?.trim() === street);
  const counts = Object.fromEntries(LAMP_STATES.map((s) => [s, 0])) as Record<LampState, number>;
  for (const d of onStreet) counts[stateOf(d.id)]++;
  const visible = shown === 'all' ? onStreet : onStreet.filter((d) => stateOf(d.id) === shown);
  // Failed lamps last, so they are drawn on top of their neighbours.
  const ordinary = visible.filter((d) => stateOf(d.id) !== 'fault');
  const failed = visible.filter((d) => stateOf(d.id) === 'fault');
  const faultIcon = useMemo(
    () =>
      divIcon({
        className: '',
        iconSize: [22, 22],
        iconAnchor: [11, 11],
        popupAnchor: [0, -10],
        html: `<div role="img" aria-label="${t('lampState.fault')}" style="width:22px;height:22px;border-radius:50%;background:${token.colorError};border:2px solid ${token.colorBgContainer};color:${token.colorWhite};display:flex;align-items:center;justify-content:center;font-weight:700;font-size:14px;box-shadow:0 0 0 2px ${token.colorError}">!</div>`,
      }),
    [t, token.colorError, token.colorBgContainer, token.colorWhite],
  );
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
  const language = i18n.resolvedLanguage ?? i18n.language;
  const dateFormat = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' });
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });

  return (
    <Flex vertical gap={token.margin}>
      <Card>
        <ScreenTitle title={t('map.title')}>
          <LiveBadge />
          <Select
            allowClear
            showSearch
            style={{ width: 240 }}
            aria-label={t('street.filter')}
            placeholder={t('street.all')}
            loading={streets.isPending}
            value={street}
            onChange={(v: string | undefined) => setParam('street', v)}
            options={(streets.data ?? []).map((s) => ({ value: s.street, label: `${s.street} (${s.devices})` }))}
          />
        </ScreenTitle>
        <Segmented<LampState | 'all'>
          value={shown}
          onChange={(v) => setParam('state', v === 'all' ? undefined : v)}
          aria-label={t('lampState.legend')}
          data-testid="lamp-legend"
          style={{ flexWrap: 'wrap', maxWidth: '100%' }}
          options={[
            { value: 'all', label: t('map.all', { count: onStreet.length }) },
            ...LAMP_STATES.map((s) => ({
              value: s,
              label: (
                <Flex
                  gap={token.marginXXS}
                  align="center"
                  // Failed lamps stand out in bold with a red icon; the words keep the text colour (contrast).
                  style={{ fontWeight: s === 'fault' && counts.fault ? token.fontWeightStrong : undefined }}
                >
                  <Swatch state={s} colour={lampColour[s]} />
                  <span style={{ color: s === 'fault' && counts.fault ? token.colorError : undefined }}>
                    {LAMP_ICONS[s]}
                  </span>
                  {`${t(`lampState.${s}`)} (${counts[s]})`}
                </Flex>
              ),
            })),
          ]}
        />
      </Card>
      <Card styles={{ body: { padding: 0 } }}>
        {devices.isPending ? (
          <Flex justify="center" style={{ padding: token.paddingLG }}>
            <span role="status" aria-label={t('state.loading')}>
              <Spin />
            </span>
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
              // react-leaflet hands only its own props to the map's element: the test id rides on a class.
              className="device-map"
            >
              <TileLayer url={mapTileUrl} attribution={mapAttribution} />
              {[...ordinary, ...failed].map((d) => {
                const status = statusOf(d.id);
                const state = stateOf(d.id);
                const lamp = lamps.data?.get(d.id);
                const connection = connections.data?.get(d.id);
                const held = overrides.data?.get(d.id);
                const popup = (
                  <Popup>
                    <Flex vertical gap={4}>
                      <Typography.Text strong>{d.name}</Typography.Text>
                      {d.street && <Typography.Text type="secondary">{d.street}</Typography.Text>}
                      <Flex wrap gap={4} align="center">
                        <LampStateTag state={state} />
                        <Badge color={colour[status]} text={label[status]} />
                      </Flex>
                      {(lamp?.power != null || lamp?.dim != null) && (
                        <Typography.Text type="secondary">
                          {[
                            lamp?.power != null ? `${number.format(lamp.power)} W` : undefined,
                            lamp?.dim != null ? percent.format(lamp.dim / 100) : undefined,
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </Typography.Text>
                      )}
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
                );
                if (state === 'fault')
                  return (
                    <Marker key={d.id} position={[d.latitude, d.longitude]} icon={faultIcon} zIndexOffset={1000}>
                      {popup}
                    </Marker>
                  );
                const style = MARKER[state];
                return (
                  <CircleMarker
                    key={d.id}
                    center={[d.latitude, d.longitude]}
                    radius={held ? style.radius + 2 : style.radius}
                    pathOptions={{
                      color: held ? token.colorWarning : lampColour[state],
                      fillColor: lampColour[state],
                      fillOpacity: style.fill,
                      dashArray: style.dash,
                      weight: held ? 3 : 2,
                    }}
                  >
                    {popup}
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
