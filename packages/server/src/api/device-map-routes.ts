import {
  LAMP_STATES,
  type LampState,
  type MapCluster,
  type MapDevice,
  type MapExtent,
  type MapView,
} from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { lampStateQuery } from '../data/lamp-state.ts';
import { badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { QUERY_PREFIX } from './prefixes.ts';
import { deviceScope } from './resource-routes.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
/** Devices in view up to which they are sent one by one; more are sent as clusters. */
export const MAP_DEVICES_MAX = 2000;
/** Grid cells across a 256-pixel tile: a cluster stands for about 64 × 64 pixels of the map. */
const CELLS_PER_TILE = 4;

interface MapQuery {
  west?: string;
  south?: string;
  east?: string;
  north?: string;
  zoom?: string;
  street?: string;
  state?: string;
}

function coordinate(raw: string | undefined, field: string, limit: number): number {
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || value < -limit || value > limit)
    throw badValue(field, `expected a number from -${limit} to ${limit}`);
  return value;
}

/** The street condition of a map query: exact street name, trimmed and case-insensitive. */
function streetCondition(street: string | undefined): SQL | undefined {
  if (street === undefined || street.trim() === '') return undefined;
  if (street.length > 200) throw badValue('street', 'at most 200 characters');
  return sql`lower(btrim(devices.street)) = lower(${street.trim()})`;
}

function lampStatesOf(raw: string | undefined): LampState[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const states = raw.split(',');
  if (states.some((s) => !(LAMP_STATES as readonly string[]).includes(s)))
    throw badValue('state', `expected one of ${LAMP_STATES.join(', ')}`);
  return states as LampState[];
}

const zeroCounts = () => Object.fromEntries(LAMP_STATES.map((s) => [s, 0])) as Record<LampState, number>;

/**
 * The map's view of the account's devices, drawn by lamp state (data/lamp-state.ts):
 * `GET /query/api/device-map?west=&south=&east=&north=&zoom=[&street=][&state=on,fault]` answers the
 * devices inside a bounding box: up to 2,000 one by one (name, street, position, lamp state, dim,
 * power, connection and its time); more as clusters of a grid of about 64 pixels at that zoom (mean
 * position, count, count per lamp state), so a fleet of 100,000 answers in a few hundred rows; with
 * the counts per lamp state of the devices in view (on the street, before the state filter) for the
 * legend. `GET /query/api/device-map/extent[?street=]` answers the box around the placed devices, for
 * the map's first view. Scoped like the devices list (the caller's account and permission).
 */
export function registerDeviceMapRoutes(app: FastifyInstance, ctx: AppContext): void {
  const placed = sql`devices.latitude IS NOT NULL AND devices.longitude IS NOT NULL`;

  app.get<{ Querystring: Pick<MapQuery, 'street'> }>(
    `${QUERY_PREFIX}/device-map/extent`,
    { config: { access: 'user' }, schema: { tags: ['dashboard'], summary: 'The box around the placed devices' } },
    async (request): Promise<{ success: true; data: MapExtent }> => {
      const scope = deviceScope(request, ctx);
      const street = streetCondition(request.query.street);
      const [extent] = rowsOf<MapExtent>(
        await ctx.db.execute(sql`
          SELECT count(*)::int AS devices,
                 min(devices.latitude)::float8 AS south, min(devices.longitude)::float8 AS west,
                 max(devices.latitude)::float8 AS north, max(devices.longitude)::float8 AS east
          FROM devices WHERE ${scope} AND ${placed}${street ? sql` AND ${street}` : sql``}`),
      );
      return { success: true, data: extent ?? { devices: 0, south: null, west: null, north: null, east: null } };
    },
  );

  app.get<{ Querystring: MapQuery }>(
    `${QUERY_PREFIX}/device-map`,
    { config: { access: 'user' }, schema: { tags: ['dashboard'], summary: 'Devices on the map, clustered' } },
    async (request): Promise<{ success: true; data: MapView }> => {
      const scope = deviceScope(request, ctx);
      const q = request.query;
      const west = coordinate(q.west, 'west', 180);
      const east = coordinate(q.east, 'east', 180);
      const south = coordinate(q.south, 'south', 90);
      const north = coordinate(q.north, 'north', 90);
      if (south > north) throw badValue('south', 'expected south below north');
      if (west > east) throw badValue('west', 'expected west of east');
      const zoom = q.zoom === undefined ? Number.NaN : Number(q.zoom);
      if (!Number.isInteger(zoom) || zoom < 0 || zoom > 22)
        throw badValue('zoom', 'expected a whole number from 0 to 22');
      const street = streetCondition(q.street);
      const wanted = lampStatesOf(q.state);

      const inView = sql`devices.latitude BETWEEN ${south} AND ${north}
        AND devices.longitude BETWEEN ${west} AND ${east}${street ? sql` AND ${street}` : sql``}`;
      const states = sql`(${lampStateQuery(scope, inView)})`;
      // One pass over the lamp states in view: per grid cell, how many in each state. The legend's
      // counts are their sums; whether the view comes one by one or clustered follows from them.
      const cell = 360 / 2 ** zoom / CELLS_PER_TILE;
      const perState = sql.join(
        LAMP_STATES.map((s) => sql`count(*) FILTER (WHERE st.state = ${s})::int AS ${sql.identifier(s)}`),
        sql`, `,
      );
      const cells = rowsOf<Record<string, number>>(
        await ctx.db.execute(sql`
          SELECT avg(st.latitude)::float8 AS latitude, avg(st.longitude)::float8 AS longitude, ${perState}
          FROM ${states} st
          GROUP BY floor(st.latitude / ${cell}::float8), floor(st.longitude / ${cell}::float8)`),
      );
      const counts = zeroCounts();
      for (const c of cells) for (const s of LAMP_STATES) counts[s] += c[s] ?? 0;
      const considered: readonly LampState[] = wanted ?? LAMP_STATES;
      const total = considered.reduce((sum, s) => sum + counts[s], 0);
      if (total <= MAP_DEVICES_MAX) {
        const chosen = wanted
          ? sql`st.state IN (${sql.join(
              wanted.map((s) => sql`${s}`),
              sql`, `,
            )})`
          : sql`true`;
        const list = rowsOf<MapDevice>(
          await ctx.db.execute(sql`
            SELECT devices.id::int AS id, devices.name, devices.street,
                   devices.latitude::float8 AS latitude, devices.longitude::float8 AS longitude,
                   st.state, st.dim::float8 AS dim, st.power::float8 AS power,
                   coalesce(s.status, 'never') AS status, s.date_time AS "dateTime"
            FROM ${states} st
            JOIN devices ON devices.id = st.device_id
            LEFT JOIN device_connection_status s ON s.device_id = devices.id
            WHERE ${chosen}
            ORDER BY devices.id`),
        );
        return { success: true, data: { total, counts, devices: list, clusters: [] } };
      }
      // Clusters of the states asked for (a cell's mean position is that of all its devices).
      const clusters = cells
        .map((c): MapCluster => {
          const perCell = zeroCounts();
          for (const s of considered) perCell[s] = c[s] ?? 0;
          return {
            latitude: c.latitude as number,
            longitude: c.longitude as number,
            count: considered.reduce((sum, s) => sum + perCell[s], 0),
            states: perCell,
          };
        })
        .filter((c) => c.count > 0)
        .sort((x, y) => y.count - x.count);
      return { success: true, data: { total, counts, devices: [], clusters } };
    },
  );
}
