import { LAMP_STATES, type LampState } from '@lampyr/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { lampStates, streets } from '../data/lamp-state.ts';
import { badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { QUERY_PREFIX } from './prefixes.ts';
import { deviceScope } from './resource-routes.ts';

/** Ids asked for at most in one call (one page of a list screen, or the map's fleet). */
const MAX_IDS = 20_000;

/**
 * `GET /query/api/lamp-states?deviceId=&street=&state=`: the lamp state of the account's devices
 * (data/lamp-state.ts), optionally of some devices, one street or some states; and
 * `GET /query/api/streets`: the streets of the account's devices, for street filters.
 */
export function registerLampStateRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: { deviceId?: string; street?: string; state?: string } }>(
    `${QUERY_PREFIX}/lamp-states`,
    { config: { access: 'user' }, schema: { tags: ['devices'], summary: 'Lamp state of devices' } },
    async (request) => {
      const scope = deviceScope(request, ctx);
      const conditions: SQL[] = [];
      const { deviceId, street, state } = request.query;
      if (deviceId !== undefined && deviceId !== '') {
        const ids = String(deviceId).split(',').map(Number);
        if (ids.length > MAX_IDS || ids.some((id) => !Number.isSafeInteger(id) || id < 1))
          throw badValue('deviceId', 'expected positive whole numbers separated by commas');
        conditions.push(sql`devices.id = ANY(${`{${[...new Set(ids)].join(',')}}`}::bigint[])`);
      }
      if (street !== undefined && street.trim() !== '') {
        if (street.length > 200) throw badValue('street', 'at most 200 characters');
        conditions.push(sql`lower(btrim(devices.street)) = lower(${street.trim()})`);
      }
      let wanted: LampState[] | undefined;
      if (state !== undefined && state !== '') {
        const states = String(state).split(',');
        const unknown = states.find((s) => !(LAMP_STATES as readonly string[]).includes(s));
        if (unknown !== undefined) throw badValue('state', `expected one of ${LAMP_STATES.join(', ')}`);
        wanted = states as LampState[];
      }
      const where = conditions.length ? sql.join(conditions, sql` AND `) : undefined;
      const rows = await lampStates(ctx.db, scope, where);
      return { success: true, data: wanted ? rows.filter((r) => wanted.includes(r.state)) : rows };
    },
  );

  app.get(
    `${QUERY_PREFIX}/streets`,
    { config: { access: 'user' }, schema: { tags: ['devices'], summary: "Streets of the account's devices" } },
    async (request) => ({ success: true, data: await streets(ctx.db, deviceScope(request, ctx)) }),
  );
}
