import { resolve } from 'node:path';
import { Fleet } from '@lampyr/simulator';
import { lostLightEuis } from '@lampyr/simulator/demo-fleet';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadSecretBox } from './auth/secret-box.ts';
import { loadJwtSecret } from './auth/tokens.ts';
import { type Config, ConfigError, DEFAULT_MQTT_PORT, loadConfig, wantsDemo } from './config.ts';
import { overridesForPlan } from './data/overrides.ts';
import { type Database, openDatabase } from './db/connect.ts';
import { EnergyEngine } from './engines/energy/energy-rollup.ts';
import { AdvisoryLockLeader, alwaysLeader } from './engines/scheduler/leadership.ts';
import { Scheduler } from './engines/scheduler/scheduler.ts';
import { SunTable } from './engines/sun-times/sun-table.ts';
import { CommandEvents } from './events/command-events.ts';
import { LiveEvents } from './events/live-events.ts';
import { startTelemetry, type Telemetry } from './ingest/telemetry.ts';
import { seed } from './seed/seed.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const jwtSecret = loadJwtSecret(config.JWT_SECRET, config.DATA_DIR);
  const secretBox = loadSecretBox(config, jwtSecret);
  const demo = wantsDemo(config);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    migrationTimeoutMs: config.DATABASE_MIGRATION_TIMEOUT_MS,
    preparedStatementsPerConnection: config.DATABASE_PREPARED_STATEMENTS,
  });
  const seeded = await seed(database.db, {
    adminEmail: config.LAMPYR_ADMIN_EMAIL,
    adminPassword: config.LAMPYR_ADMIN_PASSWORD,
    demo,
  });
  const live = new LiveEvents();
  const commands = new CommandEvents((error) => app.log.error(error));
  const { app, ctx, alarms } = await buildApp({
    live,
    commands,
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
  // Sun times for every city, 400 days ahead: now, daily, and when a city moves or changes zone.
  const stopSunTable = new SunTable(database.db, (error) => app.log.error(error)).start(commands, () => new Date());
  const telemetry = await startTelemetry(
    config,
    database,
    // Every value the ingest commits is checked by the alarm engine, in this process.
    { live, commands, onCommitted: (readings, seen) => alarms.onCommitted(readings, seen) },
    app.log,
    ctx.secretBox,
  );
  // The simulated fleet is the demo's: without the demo devices its uplinks would belong to nobody.
  const simulate = config.SIMULATOR === 'on' || (config.SIMULATOR === 'auto' && telemetry.embedded && demo);
  const fleet = simulate
    ? new Fleet({
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
        // A light reports 262 V (or a dead lamp) for a minute and a half now and then — the first
        // within a minute of starting — so the demo's alarms raise, mail the administrator and clear.
        faults: { firstAfterMs: 45_000, everyMs: 4 * 60_000, forMs: 90_000 },
        // The controllers' programs and overrides survive a restart of `npm start`.
        stateFile: resolve(config.DATA_DIR, 'simulator-state.json'),
        log: (line) => app.log.warn(line),
      })
    : undefined;
  await fleet?.start();
  const stopEnergy = new EnergyEngine(database.db, (error) => app.log.error(error)).start();
  // Server-timed schedules: one leader across replicas (the embedded database has one process).
  const leadership = config.DATABASE_URL
    ? new AdvisoryLockLeader(config.DATABASE_URL, undefined, (leading) =>
        app.log.info(leading ? 'scheduler: this replica leads' : 'scheduler: this replica follows'),
      )
    : alwaysLeader;
  const stopScheduler = new Scheduler(database.db, commands, leadership, {
    now: () => new Date(),
    // Overrides in force hold server-timed lights at their level; the plan resumes when they end.
    overrides: (deviceIds) =>
      overridesForPlan(
        database.db,
        deviceIds,
        new Date(Date.now() - 86_400_000),
        new Date(Date.now() + 2 * 86_400_000),
      ),
    onError: (error) => app.log.error(error),
  }).start();
  const shutdown = async () => {
    stopEnergy();
    await fleet?.stop();
    stopSunTable();
    stopScheduler();
    await leadership.close();
    await app.close();
    await telemetry.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.PORT, host: config.HOST });
  process.stdout.write(banner(config, { database, telemetry, fleet, seededDemo: seeded.seeded && demo, app }));
  // The demo's first start: its schedule is deployed to the simulated controllers at once.
  if (seeded.seeded && demo && fleet)
    await deployDemoSchedule(app, config, seeded.subAccountIds).catch((error) =>
      app.log.warn(error, 'the demo schedule was not deployed'),
    );
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
    '',
  ];
  return `${lines.filter((l, i) => l || i === 0 || i === lines.length - 1).join('\n')}\n`;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Lampyr could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
