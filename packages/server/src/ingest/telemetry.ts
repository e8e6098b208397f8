import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { DeviceCredentials, type DeviceLogin, devicePassword } from '../auth/device-credentials.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import { type Config, DEFAULT_MQTT_PORT, mqttClientId } from '../config.ts';
import type { Database } from '../db/connect.ts';
import type { CommandEvents } from '../events/command-events.ts';
import type { LiveEvents } from '../events/live-events.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import { type Ingest, type IngestOptions, startIngest } from './ingest-service.ts';

export interface Telemetry {
  brokerUrl: string;
  embedded: boolean;
  /** The embedded broker's port (not DEFAULT_MQTT_PORT when that one was taken). */
  brokerPort?: number;
  ingest: Ingest;
  /** For an in-process simulator's LoRaWAN fleet, which plays ChirpStack (embedded broker only). */
  chirpstackCredentials?: { username: string; password: string };
  /** For an in-process simulator's IP devices: each device's own login (made on first use). */
  deviceLogin(uid: string): Promise<DeviceLogin | undefined>;
  /** `endSession`: the broker forgets this worker's session (a worker leaving for good). */
  close(options?: { endSession?: boolean }): Promise<void>;
}

/**
 * The device side of `main`: the embedded broker when no MQTT_URL is given, then the ingest. With the
 * embedded broker and no MQTT_USERNAME, Lampyr's own credentials are made up for this run.
 */
export async function startTelemetry(
  config: Config,
  database: Database,
  bus: {
    live: LiveEvents;
    commands: CommandEvents;
    onCommitted?: IngestOptions['onCommitted'];
    onBrokerConnection?: IngestOptions['onBrokerConnection'];
    /** 0: the connection watcher runs with the engines (on their leader), not here. */
    connectionSweepMs?: number;
  },
  log: FastifyBaseLogger,
  secretBox: SecretBox,
): Promise<Telemetry> {
  let broker: EmbeddedBroker | undefined;
  const username = config.MQTT_USERNAME ?? (config.MQTT_URL ? undefined : 'lampyr');
  const password = config.MQTT_PASSWORD ?? (config.MQTT_URL ? undefined : randomBytes(18).toString('base64url'));
  // Without configured ChirpStack credentials, ones made up for this run serve the in-process simulator.
  const chirpstack = config.MQTT_URL
    ? undefined
    : {
        username: config.MQTT_CHIRPSTACK_USERNAME ?? 'chirpstack',
        password: config.MQTT_CHIRPSTACK_PASSWORD ?? randomBytes(18).toString('base64url'),
      };
  const logError = (error: unknown) =>
    log.error(`device credentials: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`);
  const credentials = new DeviceCredentials(database.db, secretBox, logError);
  let stopCredentials: (() => void) | undefined;
  if (!config.MQTT_URL) {
    await credentials.reload();
    stopCredentials = credentials.start(bus.commands);
    broker = await startEmbeddedBroker({
      port: config.MQTT_PORT ?? DEFAULT_MQTT_PORT,
      nextFreePort: config.MQTT_PORT === undefined,
      lampyr: { username: username as string, password: password as string },
      chirpstack,
      devices: credentials,
    }).catch((error) => {
      stopCredentials?.();
      throw error;
    });
  }
  const brokerUrl = config.MQTT_URL ?? `mqtt://127.0.0.1:${broker?.port}`;
  try {
    const ingest = await startIngest({
      db: database.db,
      databaseKind: database.kind,
      transactionWithClient: database.transactionWithClient,
      url: brokerUrl,
      username,
      password,
      clientId: mqttClientId(config),
      sessionExpirySeconds: config.MQTT_SESSION_EXPIRY_SECONDS,
      keepaliveSeconds: config.MQTT_KEEPALIVE_SECONDS,
      // An external broker may be down when a replica starts: HTTP and engines do not wait for it.
      brokerInBackground: Boolean(config.MQTT_URL),
      onBrokerConnection: bus.onBrokerConnection,
      connectionSweepMs: bus.connectionSweepMs,
      // Aedes has no shared subscriptions; the embedded broker serves one process anyway.
      shareGroup: config.MQTT_URL ? config.MQTT_SHARE_GROUP : '',
      live: bus.live,
      commands: bus.commands,
      onCommitted: bus.onCommitted,
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
      chirpstackCredentials: chirpstack,
      async deviceLogin(uid) {
        const login = await devicePassword(database.db, secretBox, { uid });
        // A password made just now must be known to the broker before the device connects.
        if (login && broker) await credentials.reload();
        return login;
      },
      async close(options) {
        stopCredentials?.();
        await ingest.close(options);
        await broker?.close();
      },
    };
  } catch (error) {
    stopCredentials?.();
    await broker?.close();
    throw error;
  }
}
