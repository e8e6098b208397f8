import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CommandEvents } from '../api/command-events.ts';
import { type Config, DEFAULT_MQTT_PORT } from '../config.ts';
import type { Database } from '../db/connect.ts';
import type { LiveEvents } from '../stream/live-events.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import { type Ingest, startIngest } from './ingest-service.ts';

export interface Telemetry {
  brokerUrl: string;
  embedded: boolean;
  /** The embedded broker's port (not DEFAULT_MQTT_PORT when that one was taken). */
  brokerPort?: number;
  ingest: Ingest;
  /** For an in-process simulator: the device credentials when set, else Lampyr's own. */
  simulatorCredentials: { username?: string; password?: string };
  close(): Promise<void>;
}

/**
 * The device side of `main`: the embedded broker when no MQTT_URL is given, then the ingest. With the
 * embedded broker and no MQTT_USERNAME, Lampyr's own credentials are made up for this run.
 */
export async function startTelemetry(
  config: Config,
  database: Database,
  bus: { live: LiveEvents; commands: CommandEvents },
  log: FastifyBaseLogger,
): Promise<Telemetry> {
  let broker: EmbeddedBroker | undefined;
  const username = config.MQTT_USERNAME ?? (config.MQTT_URL ? undefined : 'lampyr');
  const password = config.MQTT_PASSWORD ?? (config.MQTT_URL ? undefined : randomBytes(18).toString('base64url'));
  const devices =
    config.MQTT_DEVICE_USERNAME && config.MQTT_DEVICE_PASSWORD
      ? { username: config.MQTT_DEVICE_USERNAME, password: config.MQTT_DEVICE_PASSWORD }
      : undefined;
  if (!config.MQTT_URL) {
    broker = await startEmbeddedBroker({
      port: config.MQTT_PORT ?? DEFAULT_MQTT_PORT,
      nextFreePort: config.MQTT_PORT === undefined,
      lampyr: { username: username as string, password: password as string },
      devices,
      allowAnonymous: config.MQTT_ALLOW_ANONYMOUS,
    });
  }
  const brokerUrl = config.MQTT_URL ?? `mqtt://127.0.0.1:${broker?.port}`;
  try {
    const ingest = await startIngest({
      db: database.db,
      databaseKind: database.kind,
      url: brokerUrl,
      username,
      password,
      clientId: config.MQTT_CLIENT_ID,
      // Aedes has no shared subscriptions; the embedded broker serves one process anyway.
      shareGroup: config.MQTT_URL ? config.MQTT_SHARE_GROUP : '',
      live: bus.live,
      commands: bus.commands,
      downlinkTimeoutMs: config.DOWNLINK_TIMEOUT_SECONDS * 1000,
      log: {
        error: (error, message) =>
          log.error(`${message}: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`),
        warn: (message) => log.warn(message),
      },
    });
    return {
      brokerUrl,
      embedded: Boolean(broker),
      brokerPort: broker?.port,
      ingest,
      simulatorCredentials: devices ?? { username, password },
      async close() {
        await ingest.close();
        await broker?.close();
      },
    };
  } catch (error) {
    await broker?.close();
    throw error;
  }
}
