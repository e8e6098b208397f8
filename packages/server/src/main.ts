import http from 'node:http';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { Fleet } from '@lampyr/simulator';
import { lostLightEuis } from '@lampyr/simulator/demo-fleet';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadSecretBox } from './auth/secret-box.ts';
import { loadJwtSecret } from './auth/tokens.ts';
import {
  type Config,
  ConfigError,
  DEFAULT_MQTT_PORT,
  loadConfig,
  mqttClientId,
  type Role,
  wantsDemo,
} from './config.ts';
import { overridesForPlan } from './data/overrides.ts';
import { type Database, openDatabase } from './db/connect.ts';
import { ConnectionWatcher } from './engines/connection-watcher.ts';
import { EnergyEngine } from './engines/energy/energy-rollup.ts';
import { ReportScheduler } from './engines/reports/report-scheduler.ts';
import { RetentionEngine } from './engines/retention/retention.ts';
import { AdvisoryLockLeader, alwaysLeader, type Leadership } from './engines/scheduler/leadership.ts';
import { Scheduler } from './engines/scheduler/scheduler.ts';
import { SunTable } from './engines/sun-times/sun-table.ts';
import { CommandEvents } from './events/command-events.ts';
import { LiveEvents } from './events/live-events.ts';
import { PgEventBus } from './events/pg-bus.ts';
import { SystemLog } from './events/system-log.ts';
import { startTelemetry, type Telemetry } from './ingest/telemetry.ts';
import { backfillDemoHistory, type DemoHistoryOptions } from './seed/demo-history.ts';
import { demoMeters } from './seed/history-readings.ts';
import { seed } from './seed/seed.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.env, process.argv.slice(2));
  const roles = config.LAMPYR_ROLES;
  const has = (role: Role) => roles.includes(role);
  const jwtSecret = loadJwtSecret(config.JWT_SECRET, config.DATA_DIR);
  const secretBox = loadSecretBox(config, jwtSecret);
  const demo = wantsDemo(config);
  const clientId = has('ingest') ? mqttClientId(config) : undefined;
  // Until the database answers, HTTP is up all the same: /health says alive, everything else 503.
  const holding = await holdingServer(config);
  const database = await openUntilReachable(config);
  const replica = { host: hostname(), pid: process.pid, roles, ...(clientId ? { mqttClientId: clientId } : {}) };
  const systemLog = new SystemLog(database.db, { replica }, (level, message) =>
    process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`),
  );
  if (database.migrated) systemLog.info('database', `${database.migrated} migration(s) applied`);
  systemLog.info('server', `starting with roles ${roles.join(', ')}`);
  if (config.FAULT_TIME_SCALE !== 1)
    systemLog.warn(
      'server',
      `FAULT_TIME_SCALE=${config.FAULT_TIME_SCALE}: lamp fault rules settle, persist and clear that much sooner (demo or test only)`,
    );
  const seeded = await seed(database.db, {
    adminEmail: config.LAMPYR_ADMIN_EMAIL,
    adminPassword: config.LAMPYR_ADMIN_PASSWORD,
    demo,
  });
  const live = new LiveEvents();
  const commands = new CommandEvents((error) => app.log.error(error));
  // One event bus across replicas on PostgreSQL; the embedded database serves one process.
  let onResync = () => {};
  const bus =
    database.kind === 'postgres' && config.DATABASE_URL
      ? new PgEventBus({
          url: config.DATABASE_URL,
          live,
          commands,
          onResync: () => onResync(),
          onConnection: (up) =>
            up
              ? systemLog.info('database', 'connection regained')
              : systemLog.write('error', 'database', 'connection lost'),
        })
      : undefined;
  await bus?.start();
  // The engines that must run once across replicas run on the holder of one advisory lock.
  const leadership: Leadership | undefined = has('engines')
    ? config.DATABASE_URL
      ? new AdvisoryLockLeader(config.DATABASE_URL, undefined, (leading) =>
          systemLog.info(
            'engines',
            leading ? 'this replica leads the engines' : 'this replica no longer leads the engines',
          ),
        ).watch(2000)
      : alwaysLeader
    : undefined;
  let telemetry: Telemetry | undefined;
  let brokerSeen = false;
  const { app, ctx, alarms, notifications, onCommitted } = await buildApp({
    live,
    commands,
    roles,
    systemLog,
    readiness: {
      broker: () => telemetry?.ingest.connected() ?? false,
      ...(bus ? { bus: () => bus.connected } : {}),
      leading: () => (leadership instanceof AdvisoryLockLeader ? leadership.leading : leadership ? true : undefined),
    },
    alarms: { ...(leadership ? { leadership } : {}), faults: { timeScale: config.FAULT_TIME_SCALE } },
    db: database.db,
    jwtSecret,
    secretBox,
    dataDir: config.DATA_DIR,
    publicUrl: config.PUBLIC_URL,
    smtpUrl: config.SMTP_URL,
    notifications:
      config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
        ? { vapidKeys: { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY } }
        : {},
    webDist: config.WEB_DIST,
    map: { tileUrl: config.MAP_TILE_URL, attribution: config.MAP_ATTRIBUTION },
    logger: { level: config.LOG_LEVEL },
    trustedProxies: config.TRUSTED_PROXIES,
  });
  const engineError = (source: string) => (error: unknown) => {
    app.log.error(error);
    systemLog.error(source, error);
  };
  // Sun times for every city, 400 days ahead: now, daily, and when a city moves or changes zone.
  const stopSunTable = has('engines')
    ? new SunTable(database.db, engineError('sun-times')).start(commands, () => new Date())
    : () => {};
  telemetry = has('ingest')
    ? await startTelemetry(
        config,
        database,
        {
          live,
          commands,
          // Every value the ingest commits is judged by the engines (alarms, autonomous profiles), in this process.
          onCommitted,
          onBrokerConnection: (up, why) => {
            if (up) systemLog.info('broker', brokerSeen ? 'connection regained' : 'connected');
            else if (why === 'storing failed')
              // Dropped on purpose: what was not stored is delivered again once the database answers.
              systemLog.warn(
                'broker',
                'disconnected while storing fails; unacknowledged messages will be delivered again',
              );
            else systemLog.warn('broker', why ? `connection lost (${why})` : 'connection lost');
            if (up) brokerSeen = true;
          },
          // The connection watcher runs with the engines, on their leader.
          connectionSweepMs: 0,
        },
        app.log,
        ctx.secretBox,
      )
    : undefined;
  // What another replica changed while this one's bus was away: caches are read again.
  onResync = () => {
    telemetry?.ingest.directory.forget();
    alarms.rulesChanged();
  };
  // The simulated fleet is the demo's: without the demo devices its uplinks would belong to nobody.
  const simulate =
    telemetry && (config.SIMULATOR === 'on' || (config.SIMULATOR === 'auto' && telemetry.embedded && demo));
  // Started once the demo's history is in (below): its meters go on from where the history ends.
  const fleet = simulate && telemetry ? fleetFor(config, telemetry, (line) => app.log.warn(line)) : undefined;
  const stopEngines: (() => void)[] = [];
  if (has('engines') && leadership) {
    stopEngines.push(new EnergyEngine(database.db, engineError('energy')).start(undefined, leadership));
    stopEngines.push(new ConnectionWatcher(database.db, live, engineError('connections')).start(30_000, leadership));
    // Server-timed schedules.
    stopEngines.push(
      new Scheduler(database.db, commands, leadership, {
        now: () => new Date(),
        // Overrides in force hold server-timed lights at their level; the plan resumes when they end.
        overrides: (deviceIds) =>
          overridesForPlan(
            database.db,
            deviceIds,
            new Date(Date.now() - 86_400_000),
            new Date(Date.now() + 2 * 86_400_000),
          ),
        onError: engineError('scheduler'),
      }).start(),
    );
    // Readings partitions ahead and dropped, logs deleted, by the System Log Settings' retention (hourly).
    stopEngines.push(new RetentionEngine(database.db, engineError('retention')).start(leadership));
    // Scheduled report templates, e-mailed once per week or month.
    stopEngines.push(
      new ReportScheduler(database.db, leadership, {
        now: () => new Date(),
        wake: () => notifications.wake(),
        onError: engineError('reports'),
      }).start(),
    );
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    systemLog.info('server', `stopping (${signal})`);
    for (const stop of stopEngines) stop();
    await fleet?.stop();
    stopSunTable();
    await leadership?.close();
    await app.close();
    // A worker leaving for good ends its broker session: nothing is kept (or shared) for it.
    await telemetry?.close({ endSession: config.MQTT_END_SESSION_ON_STOP === true });
    if (config.MQTT_END_SESSION_ON_STOP && telemetry) systemLog.info('broker', `session ${clientId} ended (retired)`);
    await systemLog.close();
    await bus?.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await holding.close();
  await app.listen({ port: config.PORT, host: config.HOST });
  systemLog.info('server', 'started');
  if (telemetry)
    process.stdout.write(banner(config, { database, telemetry, fleet, seededDemo: seeded.seeded && demo, app }));
  else process.stdout.write(`\n  Lampyr (${roles.join(', ')}) is listening on port ${config.PORT}\n\n`);
  if (fleet) {
    if (config.DEMO_HISTORY_DAYS > 0)
      await demoHistory(database, systemLog, {
        accountIds: seeded.subAccountIds,
        adminEmail: config.LAMPYR_ADMIN_EMAIL,
        now: new Date(),
        days: config.DEMO_HISTORY_DAYS,
      });
    if (stopping) return;
    fleet.setMeters(await demoMeters(database.db, seeded.subAccountIds));
    await fleet.start();
  }
  // The demo's first start: its schedule is deployed to the simulated controllers at once.
  if (seeded.seeded && demo && fleet)
    await deployDemoSchedule(app, config, seeded.subAccountIds).catch((error) =>
      app.log.warn(error, 'the demo schedule was not deployed'),
    );
}

/**
 * The simulated fleet's past (seed/demo-history.ts): 14 days on the first start, the days since the
 * last reading on later ones. The console is up meanwhile; a failure leaves a gap, never a stop.
 */
async function demoHistory(database: Database, systemLog: SystemLog, options: DemoHistoryOptions): Promise<void> {
  try {
    const done = await backfillDemoHistory(database.db, options);
    if (done.readings) {
      systemLog.info(
        'demo',
        `history of ${done.devices} lights: ${done.readings} readings, ${done.alarms} alarms, ${done.faultReports} fault reports in ${(done.ms / 1000).toFixed(1)} s`,
      );
      // Millions of readings grew the embedded database's memory; a second's pause gives it back.
      await database.releaseMemory?.();
      // And this thread's heap, full of their garbage, which V8 would keep for a long while (`npm
      // start` exposes gc: measured 453 → 379 MB RSS once collected).
      (globalThis as { gc?: () => void }).gc?.();
    }
  } catch (error) {
    systemLog.error('demo', error);
  }
}

function fleetFor(config: Config, telemetry: Telemetry, log: (line: string) => void): Fleet {
  return new Fleet({
    url: telemetry.brokerUrl,
    // The LoRaWAN lights as ChirpStack, each IP light on its own login (embedded broker); against
    // an external broker, Lampyr's own credentials stand in for both.
    ...(telemetry.chirpstackCredentials ?? { username: config.MQTT_USERNAME, password: config.MQTT_PASSWORD }),
    ...(telemetry.embedded ? { ipLogin: (uid: string) => telemetry.deviceLogin(uid) } : {}),
    // The seeded fleet: 200 LoRaWAN lights (the last few lost in the field) and 5 IP controllers.
    lights: 200,
    ipDevices: 5,
    lost: lostLightEuis(200),
    reportingPeriodMs: config.SIMULATOR_PERIOD_SECONDS * 1000,
    // A light reports 268 V (or a dead lamp) for a minute and a half now and then — the first
    // within a minute of starting — so the demo's alarms raise, mail the administrator and clear.
    faults: { firstAfterMs: 45_000, everyMs: 4 * 60_000, forMs: 90_000 },
    // The controllers' programs and overrides survive a restart of `npm start`.
    stateFile: resolve(config.DATA_DIR, 'simulator-state.json'),
    log,
  });
}

/** Opens the database, trying again (up to every 5 s) while it cannot be reached. */
async function openUntilReachable(config: Config): Promise<Database> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openDatabase({
        url: config.DATABASE_URL,
        dataDir: config.DATA_DIR,
        statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
        idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        migrationTimeoutMs: config.DATABASE_MIGRATION_TIMEOUT_MS,
        preparedStatementsPerConnection: config.DATABASE_PREPARED_STATEMENTS,
      });
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      const message = error instanceof Error ? error.message : String(error);
      // Only an unreachable PostgreSQL is waited for; a wrong password or a failing migration stops start-up.
      const unreachable =
        config.DATABASE_URL &&
        (/^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|ECONNRESET|EAI_AGAIN|57P03)$/.test(code) ||
          /terminat|timeout|Connection terminated/i.test(message));
      if (!unreachable) throw error;
      const delay = Math.min(5000, 250 * 2 ** attempt);
      process.stderr.write(`database: not reachable (${code || message.slice(0, 100)}); trying again in ${delay} ms\n`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/**
 * While the database is not yet open: the HTTP port answers /health (alive) and /ready and every
 * other request with 503, so a load balancer sees a replica that is starting, not a dead one.
 */
async function holdingServer(config: Config): Promise<{ close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const alive = path === '/health';
    const body = alive
      ? { success: true, data: { status: 'starting', roles: config.LAMPYR_ROLES } }
      : path === '/ready'
        ? {
            success: false,
            data: {
              ready: false,
              roles: config.LAMPYR_ROLES,
              checks: { database: { ok: false, detail: 'the database does not answer' } },
            },
          }
        : {
            success: false,
            error: { code: 'UNAVAILABLE', message: 'Lampyr is starting: the database is not answering yet.' },
          };
    response.writeHead(alive ? 200 : 503, { 'content-type': 'application/json', 'retry-after': '5' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Deploys the demo accounts' task groups through the command API, as their administrator would from
 * the console (one path for both): the simulated controllers confirm them within seconds.
 */
async function deployDemoSchedule(app: FastifyInstance, config: Config, accountIds: number[]): Promise<void> {
  const login = await app.inject({
    method: 'POST',
    url: '/command/api/auth/login',
    payload: { email: config.LAMPYR_ADMIN_EMAIL, password: config.LAMPYR_ADMIN_PASSWORD },
  });
  const token = login.json<{ data?: { token?: string } }>().data?.token;
  if (!token) throw new Error(`sign-in answered ${login.statusCode}`);
  for (const accountId of accountIds) {
    const headers = { authorization: `Bearer ${token}`, 'x-account-id': String(accountId) };
    const groups = await app.inject({
      method: 'POST',
      url: '/query/api/task-groups/search',
      headers,
      payload: { filters: [], page: 0, size: 100 },
    });
    for (const group of groups.json<{ data?: { content?: { id: number }[] } }>().data?.content ?? []) {
      const deployed = await app.inject({
        method: 'POST',
        url: `/command/api/task-groups/${group.id}/deploy`,
        headers,
        payload: {},
      });
      if (deployed.statusCode >= 300)
        app.log.warn(`demo task group ${group.id}: deploy answered ${deployed.statusCode}`);
    }
  }
}

/** What a first-time user needs, in a few lines: where the console is, how to sign in, where devices connect. */
function banner(
  config: Config,
  run: {
    database: Database;
    telemetry: Telemetry;
    fleet: Fleet | undefined;
    seededDemo: boolean;
    app: { server: { address(): unknown } };
  },
): string {
  const address = run.app.server.address() as { port: number } | null;
  const consoleUrl = config.PUBLIC_URL?.replace(/\/+$/, '') ?? `http://localhost:${address?.port ?? config.PORT}`;
  const { telemetry } = run;
  const password = process.env.LAMPYR_ADMIN_PASSWORD ? '(LAMPYR_ADMIN_PASSWORD)' : config.LAMPYR_ADMIN_PASSWORD;
  const chirpstack = telemetry.chirpstackCredentials;
  const devices = chirpstack
    ? `ChirpStack signs in as ${chirpstack.username} / ${config.MQTT_CHIRPSTACK_PASSWORD ? '(MQTT_CHIRPSTACK_PASSWORD)' : `${chirpstack.password} (this run)`}; IP devices with their own login (device details)`
    : 'IP devices with their own login (device details)';
  const moved =
    telemetry.embedded && config.MQTT_PORT === undefined && telemetry.brokerPort !== DEFAULT_MQTT_PORT
      ? ` (port ${DEFAULT_MQTT_PORT} was taken)`
      : '';
  const broker = telemetry.embedded
    ? `mqtt://localhost:${telemetry.brokerPort}, embedded${moved}; ${devices}`
    : `${telemetry.brokerUrl.replace(/\/\/[^@/]*@/, '//')}`;
  const data =
    run.database.kind === 'pglite'
      ? `${resolve(config.DATA_DIR)} (embedded database${config.SMTP_URL ? '' : ', mail in outbox/'})`
      : `PostgreSQL${config.SMTP_URL ? '' : `; mail in ${resolve(config.DATA_DIR, 'outbox')}`}`;
  const lines = [
    '',
    `  Lampyr is running: ${consoleUrl}   (API docs: ${consoleUrl}/docs)`,
    `  Sign in:     ${config.LAMPYR_ADMIN_EMAIL} / ${password}`,
    `  MQTT broker: ${broker}`,
    `  Data:        ${data}`,
    run.fleet
      ? `  Demo:        ${run.fleet.devices.size} simulated street lights reporting every ${config.SIMULATOR_PERIOD_SECONDS} s`
      : '',
    run.seededDemo ? '               (demo accounts and fleet seeded on this first start)' : '',
    run.seededDemo && run.fleet && config.DEMO_HISTORY_DAYS
      ? `               (filling in their last ${config.DEMO_HISTORY_DAYS} days first, about a minute; live readings follow)`
      : '',
    '',
  ];
  return `${lines.filter((l, i) => l || i === 0 || i === lines.length - 1).join('\n')}\n`;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Lampyr could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
