/**
 * The ingest alone, in a process of its own, for the crash-safety test to SIGKILL. Configured by the
 * environment the test sets; prints "ready" once subscribed.
 */

import { openDatabase } from '../../src/db/connect.ts';
import { CommandEvents } from '../../src/events/command-events.ts';
import { LiveEvents } from '../../src/events/live-events.ts';
import { startIngest } from '../../src/ingest/ingest-service.ts';

const env = process.env;
const target = env.CHILD_DB as string;
const database = target.startsWith('postgres')
  ? await openDatabase({ url: target, dataDir: 'unused' })
  : await openDatabase({ dataDir: target });
await startIngest({
  db: database.db,
  databaseKind: database.kind,
  transactionWithClient: database.transactionWithClient,
  url: env.CHILD_MQTT_URL as string,
  username: env.CHILD_MQTT_USERNAME || undefined,
  password: env.CHILD_MQTT_PASSWORD || undefined,
  clientId: env.CHILD_CLIENT_ID as string,
  shareGroup: env.CHILD_SHARE_GROUP ?? '',
  sessionExpirySeconds: 300,
  live: new LiveEvents(),
  commands: new CommandEvents(),
  downlinkTimeoutMs: 60_000,
  log: {
    error: (error) => process.stderr.write(`${String(error)} ${String((error as { cause?: unknown }).cause)}\n`),
    warn: () => {},
  },
});
process.stdout.write('ready\n');
