import { Fleet } from '@lampyr/simulator';
import { CommandEvents } from './api/command-events.ts';
import { buildApp } from './app.ts';
import { loadJwtSecret } from './auth/tokens.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { startTelemetry } from './ingest/telemetry.ts';
import { seed } from './seed/seed.ts';
import { lostLightEuis } from './seed/street-lighting.ts';
import { LiveEvents } from './stream/live-events.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const seeded = await seed(database.db, {
    adminEmail: config.LAMPYR_ADMIN_EMAIL,
    adminPassword: config.LAMPYR_ADMIN_PASSWORD,
  });
  const live = new LiveEvents();
  const commands = new CommandEvents((error) => app.log.error(error));
  const { app } = await buildApp({
    live,
    commands,
    db: database.db,
    jwtSecret: loadJwtSecret(config.JWT_SECRET, config.DATA_DIR),
    dataDir: config.DATA_DIR,
    smtpUrl: config.SMTP_URL,
    webDist: config.WEB_DIST,
    map: { tileUrl: config.MAP_TILE_URL, attribution: config.MAP_ATTRIBUTION },
    logger: { level: config.LOG_LEVEL },
    trustedProxies: config.TRUSTED_PROXIES,
  });
  const telemetry = await startTelemetry(config, database, { live, commands }, app.log);
  const simulate = config.SIMULATOR === 'on' || (config.SIMULATOR === 'auto' && telemetry.embedded);
  const fleet = simulate
    ? new Fleet({
        url: telemetry.brokerUrl,
        ...telemetry.simulatorCredentials,
        // The seeded fleet: 200 LoRaWAN lights (the last few lost in the field) and 5 IP controllers.
        lights: 200,
        ipDevices: 5,
        lost: lostLightEuis(200),
        reportingPeriodMs: config.SIMULATOR_PERIOD_SECONDS * 1000,
        log: (line) => app.log.warn(line),
      })
    : undefined;
  await fleet?.start();
  const shutdown = async () => {
    await fleet?.stop();
    await app.close();
    await telemetry.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.PORT, host: config.HOST });
  const url = `http://localhost:${config.PORT}`;
  const lines = [
    '',
    `  Lampyr is running: ${url}`,
    `  API docs:          ${url}/docs`,
    `  Database:          ${database.kind === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL'}`,
    `  MQTT broker:       ${telemetry.embedded ? `embedded on port ${config.MQTT_PORT}` : telemetry.brokerUrl}`,
    fleet
      ? `  Simulator:         ${fleet.devices.size} street lights reporting every ${config.SIMULATOR_PERIOD_SECONDS} s`
      : '',
    `  Sign in as:        ${config.LAMPYR_ADMIN_EMAIL} / ${process.env.LAMPYR_ADMIN_PASSWORD ? '(LAMPYR_ADMIN_PASSWORD)' : config.LAMPYR_ADMIN_PASSWORD}`,
    seeded.seeded ? '  Demo data was seeded on this first start.' : '',
    config.SMTP_URL ? '' : `  Mail (codes) goes to ${config.DATA_DIR}/outbox/`,
    '',
  ];
  process.stdout.write(`${lines.filter((l, i) => l || i === 0 || i === lines.length - 1).join('\n')}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Lampyr could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
