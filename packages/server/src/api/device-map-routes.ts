import { getResource } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

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
}

function coordinate(raw: string | undefined, field: string, limit: number): number {
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || value < -limit || value > limit)
    throw badValue(field, `expected a number from -${limit} to ${limit}`);
  return value;
}

/**
 * `GET /query/api/device-map?west=&south=&east=&north=&zoom=`: the map's view of the account's
 * devices inside a bounding box. Up to 2,000 devices in view come one by one (id, name, street,
 * position, connection status and its time); more come as clusters of a grid of about 64 pixels at
 * that zoom (their mean position, count and count per status), so a fleet of 100,000 answers in a
 * few hundred rows. Scoped like the devices list (the caller's account and permission).
 */
export function registerDeviceMapRoutes(app: FastifyInstance, ctx: AppContext): void {
  const devices = getResource('devices');
  app.get<{ Querystring: MapQuery }>(
    `${QUERY_PREFIX}/device-map`,
    { config: { access: 'user' }, schema: { tags: ['dashboard'], summary: 'Devices on the map, clustered' } },
    async (request) => {
      const actor = authorize(request, devices, 'read');
      const repository = ctx.repositories.get(devices.name);
      if (!repository) throw new Error('no repository for devices');
      const scope = repository.scope(actor) ?? sql`true`;
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

      const inView = sql`${scope} AND devices.latitude BETWEEN ${south} AND ${north}
        AND devices.longitude BETWEEN ${west} AND ${east}`;
      const total = Number(
        rowsOf<{ n: number }>(await ctx.db.execute(sql`SELECT count(*)::int AS n FROM devices WHERE ${inView}`))[0]
          ?.n ?? 0,
      );
      if (total <= MAP_DEVICES_MAX) {
        const list = rowsOf(
          await ctx.db.execute(sql`
            SELECT devices.id::int AS id, devices.name, devices.street, devices.latitude, devices.longitude,
                   coalesce(s.status, 'never') AS status, s.date_time AS "dateTime"
            FROM devices LEFT JOIN device_connection_status s ON s.device_id = devices.id
            WHERE ${inView} ORDER BY devices.id`),
        );
        return { success: true, data: { total, devices: list, clusters: [] } };
      }
      const cell = 360 / 2 ** zoom / CELLS_PER_TILE;
      const clusters = rowsOf<{ count: number; online: number; offline: number }>(
        await ctx.db.execute(sql`
          SELECT avg(devices.latitude)::float8 AS latitude, avg(devices.longitude)::float8 AS longitude,
                 count(*)::int AS count,
                 count(*) FILTER (WHERE s.status = 'online')::int AS online,
                 count(*) FILTER (WHERE s.status = 'offline')::int AS offline
          FROM devices LEFT JOIN device_connection_status s ON s.device_id = devices.id
          WHERE ${inView}
          GROUP BY floor(devices.latitude / ${cell}::float8), floor(devices.longitude / ${cell}::float8)
          ORDER BY count DESC`),
      ).map((c) => ({ ...c, never: c.count - c.online - c.offline }));
      return { success: true, data: { total, devices: [], clusters } };
    },
  );
}
