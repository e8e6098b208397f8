/**
 * Lampyr's API and ingest in a process of their own, on the PostgreSQL named by CHILD_DB (already
 * migrated and seeded), for the resilience test to disturb from outside. Prints "ready <port>".
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/connect.ts';
import { CommandEvents } from '../../src/events/command-events.ts';
import { LiveEvents } from '../../src/events/live-events.ts';
import { startIngest } from '../../src/ingest/ingest-service.ts';
import { JWT_SECRET, testSecretBox } from './test-app.ts';

const env = process.env;
const database = await openDatabase({ url: env.CHILD_DB as string, dataDir: 'unused', poolSize: 10 });
const live = new LiveEvents();
const commands = new CommandEvents();
const { app } = await buildApp({
  db: database.db,
  jwtSecret: JWT_SECRET,
  secretBox: testSecretBox(),
  dataDir: 'unused',
  live,
  commands,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const ingest = await startIngest({
  db: database.db,
  databaseKind: database.kind,
  url: env.CHILD_MQTT_URL as string,
  username: env.CHILD_MQTT_USERNAME || undefined,
  password: env.CHILD_MQTT_PASSWORD || undefined,
  clientId: env.CHILD_CLIENT_ID as string,
  shareGroup: env.CHILD_SHARE_GROUP ?? '',
  sessionExpirySeconds: 60,
  live,
  commands,
  downlinkTimeoutMs: 60_000,
  connectionSweepMs: 500,
  log: { error: (error) => process.stderr.write(`ingest: ${String(error).slice(0, 200)}\n`), warn: () => {} },
});
process.once('SIGTERM', async () => {
  await ingest.close({ endSession: true });
  await app.close();
  await database.close();
  process.exit(0);
});
process.stdout.write(`ready ${(app.server.address() as AddressInfo).port}\n`);
