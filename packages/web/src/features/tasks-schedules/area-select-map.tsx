import 'leaflet/dist/leaflet.css';
import { BorderOutlined, ClearOutlined } from '@ant-design/icons';
import { Button, Flex, Spin, Typography, theme } from 'antd';
import type { LatLng, LatLngBoundsExpression } from 'leaflet';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, Rectangle, TileLayer, useMapEvents } from 'react-leaflet';
import { type MapDevice, useMapDevices } from '../../data/map-data.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/** A rectangle on the map, in degrees. */
export interface Area {
  south: number;
  west: number;
  north: number;
  east: number;
}

export const inArea = (area: Area, d: MapDevice) =>
  d.latitude >= area.south && d.latitude <= area.north && d.longitude >= area.west && d.longitude <= area.east;

const areaOf = (a: LatLng, b: LatLng): Area => ({
  south: Math.min(a.lat, b.lat),
  west: Math.min(a.lng, b.lng),
  north: Math.max(a.lat, b.lat),
  east: Math.max(a.lng, b.lng),
});

/** While drawing, a drag on the map spans the rectangle instead of moving the map. */
function DrawRectangle({ active, onDrawn }: { active: boolean; onDrawn: (area: Area) => void }) {
  const [start, setStart] = useState<LatLng>();
  const [end, setEnd] = useState<LatLng>();
  const map = useMapEvents({
    mousedown(e) {
      if (!active) return;
      map.dragging.disable();
      setStart(e.latlng);
      setEnd(e.latlng);
    },
    mousemove(e) {
      if (active && start) setEnd(e.latlng);
    },
    mouseup(e) {
      if (!active || !start) return;
      map.dragging.enable();
      const area = areaOf(start, e.latlng);
      setStart(undefined);
      setEnd(undefined);
      if (area.north > area.south && area.east > area.west) onDrawn(area);
    },
  });
  if (!start || !end) return null;
  const a = areaOf(start, end);
  return (
    <Rectangle
      bounds={[
        [a.south, a.west],
        [a.north, a.east],
      ]}
      pathOptions={{ dashArray: '4 4' }}
    />
  );
}

/**
 * The account's devices on a map, where a rectangle drawn by dragging (after "Draw a rectangle")
 * chooses an area; the devices inside are highlighted and counted.
 */
export function AreaSelectMap({ area, onChange }: { area: Area | undefined; onChange: (area?: Area) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const devices = useMapDevices();
  const [drawing, setDrawing] = useState(false);
  const all = devices.data?.devices ?? [];
  const inside = area ? all.filter((d) => inArea(area, d)) : [];
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
  if (devices.isPending) return <Spin aria-label={t('state.loading')} />;
  const chosen = new Set(inside.map((d) => d.id));

  return (
    <Flex vertical gap={token.marginXS}>
      <Flex wrap gap={token.marginXS} align="center">
        <Button
          icon={<BorderOutlined />}
          type={drawing ? 'primary' : 'default'}
          aria-pressed={drawing}
          onClick={() => setDrawing((d) => !d)}
        >
          {t('groupMembers.drawArea')}
        </Button>
        {area && (
          <Button icon={<ClearOutlined />} onClick={() => onChange(undefined)}>
            {t('groupMembers.clearArea')}
          </Button>
        )}
        <Typography.Text type={area ? undefined : 'secondary'} data-testid="area-count">
          {drawing
            ? t('groupMembers.drawing')
            : area
              ? t('groupMembers.inArea', { count: inside.length })
              : t('groupMembers.noArea')}
        </Typography.Text>
      </Flex>
      <div data-testid="area-map">
        <MapContainer
          bounds={bounds}
          center={bounds ? undefined : [41.0082, 28.9784]}
          zoom={bounds ? undefined : 11}
          preferCanvas
          style={{
            height: 360,
            borderRadius: token.borderRadiusLG,
            cursor: drawing ? 'crosshair' : undefined,
          }}
        >
          <TileLayer url={mapTileUrl} attribution={mapAttribution} />
          <DrawRectangle
            active={drawing}
            onDrawn={(a) => {
              setDrawing(false);
              onChange(a);
            }}
          />
          {area && (
            <Rectangle
              bounds={[
                [area.south, area.west],
                [area.north, area.east],
              ]}
              pathOptions={{ color: token.colorPrimary, weight: 2, fillOpacity: 0.08 }}
            />
          )}
          {all.map((d) => (
            <CircleMarker
              key={d.id}
              center={[d.latitude, d.longitude]}
              radius={chosen.has(d.id) ? 6 : 4}
              pathOptions={{
                color: chosen.has(d.id) ? token.colorPrimary : token.colorTextQuaternary,
                fillColor: chosen.has(d.id) ? token.colorPrimary : token.colorTextQuaternary,
                fillOpacity: 0.8,
                weight: 1,
              }}
            />
          ))}
        </MapContainer>
      </div>
    </Flex>
  );
}
