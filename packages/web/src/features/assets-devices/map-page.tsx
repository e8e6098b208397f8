import 'leaflet/dist/leaflet.css';
import { LAMP_STATES, type LampState, type MapCluster, type MapExtent } from '@lampyr/contract';
import { Alert, Badge, Card, Empty, Flex, Segmented, Select, Spin, Tag, Typography, theme } from 'antd';
import { divIcon, type LatLngBoundsExpression, type Map as LeafletMap } from 'leaflet';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, Marker, Popup, TileLayer, Tooltip, useMap, useMapEvents } from 'react-leaflet';
import { Link, useSearchParams } from 'react-router';
import { LoadFailed } from '../../app/layout/load-failed.tsx';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useStreets } from '../../data/lamp-states.ts';
import { type MapBox, useMapExtent, useMapOverrides, useMapView } from '../../data/map-data.ts';
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
const round = (value: number) => Math.round(value * 1e4) / 1e4;

/** The map's view, a little wider than the screen so a small pan needs no new request. */
function boxOf(map: LeafletMap): MapBox {
  const b = map.getBounds().pad(0.1);
  return {
    west: round(Math.max(-180, b.getWest())),
    south: round(Math.max(-90, b.getSouth())),
    east: round(Math.min(180, b.getEast())),
    north: round(Math.min(90, b.getNorth())),
    zoom: map.getZoom(),
  };
}

/** Tells the page which part of the world the map shows, now and after every move or zoom. */
function ViewWatcher({ onView }: { onView: (box: MapBox) => void }) {
  const map = useMapEvents({ moveend: () => onView(boxOf(map)) });
  useEffect(() => onView(boxOf(map)), [map, onView]);
  return null;
}

function boundsOf(extent: MapExtent | undefined): LatLngBoundsExpression | undefined {
  if (!extent?.devices || extent.south === null || extent.west === null) return undefined;
  return [
    [extent.south, extent.west],
    [extent.north ?? extent.south, extent.east ?? extent.west],
  ];
}

/** Moves the map to a street's devices when the street filter changes (not on the first view). */
function FitTo({ bounds }: { bounds: LatLngBoundsExpression | undefined }) {
  const map = useMap();
  const key = JSON.stringify(bounds ?? null);
  const [first] = useState(key);
  useEffect(() => {
    if (key !== first && bounds) map.fitBounds(bounds, { maxZoom: 17 });
  }, [map, key, first, bounds]);
  return null;
}

/** Devices drawn as one marker when many are in view: their count, ringed by their state; a click zooms in. */
function Cluster({ cluster }: { cluster: MapCluster }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const map = useMap();
  const faults = cluster.states.fault;
  const size = Math.round(26 + Math.min(22, Math.log10(cluster.count) * 8));
  // Ringed in the colour of most of its lights' state; red when one of them has failed.
  const most = LAMP_STATES.reduce((a, b) => (cluster.states[b] > cluster.states[a] ? b : a));
  const ring = faults ? token.colorError : lampColours(token)[most];
  const label = t('map.cluster', { count: cluster.count });
  const icon = useMemo(
    () =>
      divIcon({
        className: '',
        iconSize: [size, size],
        iconAnchor: [size / 2, size / 2],
        html: `<div role="img" aria-label="${label}" style="width:${size}px;height:${size}px;border-radius:50%;background:${token.colorBgContainer};border:3px solid ${ring};color:${token.colorText};display:flex;align-items:center;justify-content:center;font-weight:600;font-size:12px;box-shadow:0 1px 4px rgba(0,0,0,.35)">${cluster.count}</div>`,
      }),
    [size, ring, label, cluster.count, token.colorBgContainer, token.colorText],
  );
  return (
    <Marker
      position={[cluster.latitude, cluster.longitude]}
      icon={icon}
      zIndexOffset={faults ? 1000 : 0}
      eventHandlers={{
        click: () => map.setView([cluster.latitude, cluster.longitude], Math.min(map.getZoom() + 2, 19)),
      }}
    >
      <Tooltip>
        <Flex vertical gap={2}>
          <Typography.Text strong>{label}</Typography.Text>
          {LAMP_STATES.filter((s) => cluster.states[s] > 0).map((s) => (
            <span key={s}>{`${t(`lampState.${s}`)}: ${cluster.states[s]}`}</span>
          ))}
          <Typography.Text type="secondary">{t('map.zoomIn')}</Typography.Text>
        </Flex>
      </Tooltip>
    </Marker>
  );
}

/**
 * The menu's Map (SPEC §2): the account's devices that have coordinates, drawn by lamp state (on,
 * dimmed, off, fault, offline, not reported: colour and shape, failed lamps as a warning sign on
 * top), with a legend that filters and a street filter; each with its name, street, connection,
 * last contact and a way to its details. Only the devices in view are asked for (`device-map`):
 * one by one up to 2,000, as clusters beyond, so a fleet of 100,000 draws as fast as a street.
 * Tiles come from the configured tile server.
 */
export default function MapPage() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
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
  const streets = useStreets();
  const extent = useMapExtent(street);
  const [box, setBox] = useState<MapBox>();
  const view = useMapView(box, street, shown === 'all' ? undefined : shown);

  // Lights held by an override get a thick warning ring and a tag in their popup.
  const overrides = useMapOverrides();
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
  const counts = view.data?.counts ?? (Object.fromEntries(LAMP_STATES.map((s) => [s, 0])) as Record<LampState, number>);
  const inView = LAMP_STATES.reduce((sum, s) => sum + counts[s], 0);
  const visible = view.data?.devices ?? [];
  const clusters = view.data?.clusters ?? [];
  // Failed lamps last, so they are drawn on top of their neighbours.
  const ordinary = visible.filter((d) => d.state !== 'fault');
  const failed = visible.filter((d) => d.state === 'fault');
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
  const bounds = boundsOf(extent.data);
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
            { value: 'all', label: t('map.all', { count: inView }) },
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
        {extent.isPending ? (
          <Flex justify="center" style={{ padding: token.paddingLG }}>
            <span role="status" aria-label={t('state.loading')}>
              <Spin />
            </span>
          </Flex>
        ) : extent.isError ? (
          <LoadFailed error={extent.error} onRetry={() => void extent.refetch()} />
        ) : !bounds && !street ? (
          <Empty style={{ padding: token.paddingLG }} description={t('map.noDevices')}>
            <Link to="/assets-devices/devices">{t('dashboard.openDevices')}</Link>
          </Empty>
        ) : (
          <>
            {view.isError && <LoadFailed error={view.error} onRetry={() => void view.refetch()} />}
            {clusters.length > 0 && (
              <Alert type="info" showIcon title={t('map.clustered', { count: view.data?.total })} />
            )}
            <MapContainer
              // Read once, when the map is made; a street chosen later moves it (FitTo).
              bounds={bounds}
              center={bounds ? undefined : ISTANBUL}
              zoom={bounds ? undefined : 11}
              preferCanvas
              style={{ height: 'calc(100vh - 300px)', minHeight: 420, borderRadius: token.borderRadiusLG }}
              // react-leaflet hands only its own props to the map's element: the test id rides on a class.
              className="device-map"
            >
              <TileLayer url={mapTileUrl} attribution={mapAttribution} />
              <ViewWatcher onView={setBox} />
              <FitTo bounds={bounds} />
              {clusters.map((c) => (
                <Cluster key={`${c.latitude},${c.longitude}`} cluster={c} />
              ))}
              {[...ordinary, ...failed].map((d) => {
                const status = d.status;
                const state = d.state;
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
                      {(d.power != null || d.dim != null) && (
                        <Typography.Text type="secondary">
                          {[
                            d.power != null ? `${number.format(d.power)} W` : undefined,
                            d.dim != null ? percent.format(d.dim / 100) : undefined,
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
                      {d.dateTime && (
                        <Typography.Text type="secondary">
                          {t('device.lastSeen')}: {dateFormat.format(new Date(d.dateTime))}
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
