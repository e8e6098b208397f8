/**
 * A replica's engines in a process of their own, on the PostgreSQL named by CHILD_DB (migrated and
 * seeded): the ingest (whose downlink sender publishes the writes) and the scheduler under the
 * advisory-lock leader, on a virtual clock that every replica computes alike:
 * virtual = CLOCK_VIRTUAL0 + (real − CLOCK_REAL0) × CLOCK_SPEED. Prints "ready", then "lead" when
 * it takes the lead.
 */
import { openDatabase } from '../../src/db/connect.ts';
import { AdvisoryLockLeader } from '../../src/engines/scheduler/leadership.ts';
import { Scheduler } from '../../src/engines/scheduler/scheduler.ts';
import { CommandEvents } from '../../src/events/command-events.ts';
import { LiveEvents } from '../../src/events/live-events.ts';
import { startIngest } from '../../src/ingest/ingest-service.ts';

const env = process.env;
const real0 = Number(env.CLOCK_REAL0);
const virtual0 = Number(env.CLOCK_VIRTUAL0);
const speed = Number(env.CLOCK_SPEED);
const now = () => new Date(virtual0 + (Date.now() - real0) * speed);

const database = await openDatabase({ url: env.CHILD_DB as string, dataDir: 'unused', poolSize: 4 });
const live = new LiveEvents();
const commands = new CommandEvents();
const ingest = await startIngest({
  db: database.db,
  databaseKind: database.kind,
  url: env.CHILD_MQTT_URL as string,
  username: env.CHILD_MQTT_USERNAME || undefined,
  password: env.CHILD_MQTT_PASSWORD || undefined,
  clientId: env.CHILD_CLIENT_ID as string,
  shareGroup: env.CHILD_SHARE_GROUP ?? '',
  sessionExpirySeconds: 30,
  live,
  commands,
  downlinkTimeoutMs: 60_000,
  downlinkSweepMs: 250,
  log: { error: (error) => process.stderr.write(`ingest: ${String(error).slice(0, 200)}\n`), warn: () => {} },
});
const leadership = new AdvisoryLockLeader(env.CHILD_DB as string, undefined, (leading) => {
  if (leading) process.stdout.write('lead\n');
});
const stop = new Scheduler(database.db, commands, leadership, {
  now,
  everyMs: 200,
  graceMinutes: 10,
  onError: (error) => process.stderr.write(`scheduler: ${String(error).slice(0, 200)}\n`),
}).start();
process.once('SIGTERM', async () => {
  stop();
  await leadership.close();
  await ingest.close({ endSession: true });
  await database.close();
  process.exit(0);
});
process.stdout.write('ready\n');
