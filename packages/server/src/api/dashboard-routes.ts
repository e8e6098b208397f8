import { type DashboardSummary, getResource } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { allows } from '../access/access.ts';
import { badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { QUERY_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * `GET /query/api/dashboard-summary?deviceTypeId=`: SPEC §3's Dashboard summary for the selected
 * account — the inventory by device type, online and offline devices, and active alarms by level
 * and in all — as a few grouped counts in the database, optionally for one device type.
 */
export function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  const devices = getResource('devices');
  const alertLogs = getResource('alert-logs');
  app.get<{ Querystring: { deviceTypeId?: string } }>(
    `${QUERY_PREFIX}/dashboard-summary`,
    { config: { access: 'user' }, schema: { tags: ['dashboard'], summary: 'Dashboard summary' } },
    async (request) => {
      const actor = authorize(request, devices, 'read');
      // The repository's own account scope, the one every list and search of these resources uses.
      const scoped = (name: string) => {
        const repository = ctx.repositories.get(name);
        if (!repository) throw new Error(`no repository for ${name}`);
        return repository.scope(actor) ?? sql`true`;
      };
      const deviceScope = scoped(devices.name);
      const raw = request.query.deviceTypeId;
      const deviceTypeId = raw === undefined || raw === '' ? null : Number(raw);
      if (deviceTypeId !== null && (!Number.isSafeInteger(deviceTypeId) || deviceTypeId < 1))
        throw badValue('deviceTypeId', 'expected a positive whole number');

      const inventory = rowsOf<DashboardSummary['inventory'][number]>(
        await ctx.db.execute(sql`
          SELECT t.id::int AS "deviceTypeId", t.type_name_en AS "typeNameEn", t.type_name_tr AS "typeNameTr",
                 count(*)::int AS devices,
                 count(*) FILTER (WHERE s.status = 'online')::int AS online,
                 count(*) FILTER (WHERE s.status = 'offline')::int AS offline
          FROM devices
          JOIN device_models m ON m.id = devices.device_type_model_id
          JOIN device_types t ON t.id = m.device_type_id
          LEFT JOIN device_connection_status s ON s.device_id = devices.id
          WHERE ${deviceScope} AND (${deviceTypeId}::bigint IS NULL OR t.id = ${deviceTypeId}::bigint)
          GROUP BY t.id
          ORDER BY t.type_name_en`),
      );
      const sum = (pick: (row: DashboardSummary['inventory'][number]) => number) =>
        inventory.reduce((total, row) => total + pick(row), 0);
      const deviceCount = sum((r) => r.devices);
      const online = sum((r) => r.online);
      const offline = sum((r) => r.offline);

      let alarms: DashboardSummary['alarms'] = null;
      if (actor.account && allows(actor.account.permissions, alertLogs.name, 'read')) {
        const alarmScope = scoped(alertLogs.name);
        const levels = rowsOf<{ level: string; count: number }>(
          await ctx.db.execute(sql`
            SELECT alert_level AS level, count(*)::int AS count FROM alert_logs
            WHERE ${alarmScope} AND is_active
              AND (${deviceTypeId}::bigint IS NULL OR device_type_id = ${deviceTypeId}::bigint)
            GROUP BY alert_level`),
        );
        const of = (level: string) => levels.find((l) => l.level === level)?.count ?? 0;
        alarms = { low: of('low'), medium: of('medium'), high: of('high'), count: 0 };
        alarms.count = levels.reduce((total, l) => total + l.count, 0);
      }
      const summary: DashboardSummary = {
        inventory,
        deviceCount,
        online,
        offline,
        neverSeen: deviceCount - online - offline,
        alarms,
      };
      return { success: true, data: summary };
    },
  );
}
