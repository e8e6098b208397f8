import { type DashboardSummary, getResource, LAMP_STATES, type LampState } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { allows } from '../access/access.ts';
import { lampStateCounts } from '../data/lamp-state.ts';
import { accountTimeZone, FALLBACK_TIME_ZONE } from '../data/time-zones.ts';
import { badValue } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { QUERY_PREFIX } from './prefixes.ts';
import { authorize, scopeOf } from './resource-routes.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * `GET /query/api/dashboard-summary?deviceTypeId=`: SPEC §3's Dashboard summary for the selected
 * account — the inventory by device type, online and offline devices, and active alarms by level
 * and in all — as a few grouped counts in the database, optionally for one device type.
 */
export function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  const devices = getResource('devices');
  const alertLogs = getResource('alert-logs');
  const faultReports = getResource('report-a-fault');
  const gateways = getResource('gateway');
  app.get<{ Querystring: { deviceTypeId?: string } }>(
    `${QUERY_PREFIX}/dashboard-summary`,
    { config: { access: 'user' }, schema: { tags: ['dashboard'], summary: 'Dashboard summary' } },
    async (request) => {
      const actor = authorize(request, devices, 'read');
      // The repository's own account scope, the one every list and search of these resources uses.
      const scoped = (name: string) => scopeOf(ctx, actor, name);
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
      const ofType = sql`(${deviceTypeId}::bigint IS NULL OR m.device_type_id = ${deviceTypeId}::bigint)`;
      const lampCounts = await lampStateCounts(ctx.db, deviceScope, ofType);
      const lamps = Object.fromEntries(LAMP_STATES.map((s) => [s, lampCounts.counts[s] ?? 0])) as Record<
        LampState,
        number
      >;
      // Today's lighting day runs noon to noon in the selected account's time zone, like the rollups.
      const zone = actor.account ? await accountTimeZone(ctx.db, actor.account.accountId) : FALLBACK_TIME_ZONE;
      const [energy] = rowsOf<DashboardSummary['energyToday']>(
        await ctx.db.execute(sql`
          WITH today AS (
            SELECT ((now() AT TIME ZONE ${zone}) - interval '12 hours')::date AS day
          )
          SELECT to_char(today.day, 'YYYY-MM-DD') AS day, sum(e.energy_kwh)::float8 AS "energyKwh",
                 sum(e.baseline_kwh)::float8 AS "baselineKwh"
          FROM today
          LEFT JOIN energy_daily e ON e.day = today.day AND e.device_id IN (
            SELECT devices.id FROM devices JOIN device_models m ON m.id = devices.device_type_model_id
            WHERE ${deviceScope} AND ${ofType})
          GROUP BY today.day`),
      );
      const may = (name: string) => !!actor.account && allows(actor.account.permissions, name, 'read');
      let openFaults: number | null = null;
      if (may(faultReports.name)) {
        const [row] = rowsOf<{ n: number }>(
          await ctx.db.execute(sql`
            SELECT count(*)::int AS n FROM fault_reports
            WHERE ${scoped(faultReports.name)} AND status IN ('open', 'in_progress')
              AND (${deviceTypeId}::bigint IS NULL OR device_id IN (
                SELECT devices.id FROM devices JOIN device_models m ON m.id = devices.device_type_model_id
                WHERE ${ofType}))`),
        );
        openFaults = row?.n ?? 0;
      }
      let gatewayCounts: { all: number | null; down: number | null } = { all: null, down: null };
      if (may(gateways.name)) {
        const [row] = rowsOf<{ all: number; down: number }>(
          await ctx.db.execute(sql`
            SELECT count(*)::int AS all, count(*) FILTER (WHERE status = 'offline')::int AS down
            FROM gateways WHERE ${scoped(gateways.name)}`),
        );
        gatewayCounts = { all: row?.all ?? 0, down: row?.down ?? 0 };
      }
      const summary: DashboardSummary = {
        inventory,
        deviceCount,
        online,
        offline,
        neverSeen: deviceCount - online - offline,
        alarms,
        lamps,
        powerW: lampCounts.powerW,
        energyToday: energy ?? { day: '', energyKwh: null, baselineKwh: null },
        openFaults,
        gateways: gatewayCounts.all,
        gatewaysDown: gatewayCounts.down,
      };
      return { success: true, data: summary };
    },
  );
}
