import mqtt, { type MqttClient } from 'mqtt';
import type { Database, Db } from '../db/connect.ts';
import { ConnectionWatcher } from '../engines/connection-watcher.ts';
import { DeploymentEngine } from '../engines/deployment/deployment-engine.ts';
import type { CommandEvents } from '../events/command-events.ts';
import type { LiveEvents } from '../events/live-events.ts';
import { BatchWriter, type WriterOptions } from './batch-writer.ts';
import { DeviceDirectory } from './device-directory.ts';
import { MAX_PACKET_BYTES } from './device-input.ts';
import { DownlinkSender } from './downlink-sender.ts';
import { MqttSubscriber } from './mqtt-subscriber.ts';
import { INGEST_TOPICS, UplinkHandler } from './uplink-handler.ts';

export interface IngestOptions {
  db: Db;
  databaseKind: 'pglite' | 'postgres';
  /** PostgreSQL: the database's transactions with their client (readings go in by COPY). */
  transactionWithClient?: Database['transactionWithClient'];
  url: string;
  username?: string;
  password?: string;
  clientId: string;
  shareGroup: string;
  live: LiveEvents;
  commands: CommandEvents;
  downlinkTimeoutMs: number;
  downlinkSweepMs?: number;
  /** How long a configuration command waits for the device's config report before a resend (default 60 s). */
  configWaitMs?: number;
  /** The deployment engine's clock (tests). */
  now?: () => Date;
  /** How often silent devices are looked for and marked offline (default every 30 s; 0: not here, the engines' leader does it). */
  connectionSweepMs?: number;
  sessionExpirySeconds?: number;
  keepaliveSeconds?: number;
  /**
   * Start even when the broker cannot be reached (it is tried again until it answers): a replica's
   * HTTP side and engines do not wait for the broker. A broker that refuses still fails the start.
   */
  brokerInBackground?: boolean;
  /** Told when the broker connection (the subscription) is up or lost. */
  onBrokerConnection?: (up: boolean, detail?: string) => void;
  /** Told how many messages were just acknowledged (stored); for benchmarks and metrics. */
  onAcknowledged?: (count: number) => void;
  /** Told what each committed transaction stored (the alarm engine's `onCommitted`). */
  onCommitted?: WriterOptions['onCommitted'];
  log: { error(error: unknown, message?: string): void; warn(message: string): void };
}

export interface Ingest {
  writer: BatchWriter;
  directory: DeviceDirectory;
  downlinks: DownlinkSender;
  connections: ConnectionWatcher;
  deployments: DeploymentEngine;
  /** Subscribed at the broker and the command connection up. */
  connected(): boolean;
  /** `endSession` drops the broker-side session (tests, a worker leaving for good). */
  close(options?: { endSession?: boolean }): Promise<void>;
}

/**
 * The connection commands leave on: MQTT 5 where the broker speaks it (a command's expiry then holds
 * at the broker too), else 3.1.1 (Aedes).
 */
async function connectPublisher(options: IngestOptions): Promise<MqttClient> {
  try {
    return await connectPublisherOnce(options);
  } catch (error) {
    if (!options.brokerInBackground || !unreachable(error)) throw error;
    // Not there yet: a client that keeps trying (MQTT 5, or 3.1.1 should the broker refuse 5).
    const client = mqtt.connect(options.url, {
      clientId: `${options.clientId}-down-${process.pid}`,
      username: options.username,
      password: options.password,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      keepalive: options.keepaliveSeconds ?? 30,
      protocolVersion: 5,
    });
    client.on('error', (e) => {
      const code = (e as { code?: unknown }).code;
      if (client.options.protocolVersion === 5 && (code === 1 || code === 132)) client.options.protocolVersion = 4;
    });
    return client;
  }
}

const unreachable = (error: unknown) =>
  /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ECONNRESET|closed the connection/i.test(
    `${(error as { code?: string }).code ?? ''} ${(error as Error)?.message ?? ''}`,
  );

async function connectPublisherOnce(options: IngestOptions): Promise<MqttClient> {
  for (const protocolVersion of [5, 4] as const) {
    const client = mqtt.connect(options.url, {
      clientId: `${options.clientId}-down-${process.pid}`,
      username: options.username,
      password: options.password,
      clean: true,
      reconnectPeriod: 0,
      keepalive: options.keepaliveSeconds ?? 30,
      protocolVersion,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', reject);
        client.once('close', () => reject(new Error('the broker closed the connection')));
      });
      client.options.reconnectPeriod = 1000;
      return client;
    } catch (error) {
      await client.endAsync(true);
      const code = (error as { code?: unknown }).code;
      const refusedVersion = code === 1 || code === 132 || /protocol/i.test(String((error as Error).message));
      if (protocolVersion === 4 || !refusedVersion) throw error;
    }
  }
  throw new Error('unreachable');
}

/** MQTT in, decoded and stored; channel writes out. One per process; workers share the subscription. */
export async function startIngest(options: IngestOptions): Promise<Ingest> {
  const { db, live } = options;
  const directory = new DeviceDirectory(db);
  const onError = (error: unknown) => options.log.error(error, 'ingest');
  // Two flushes overlap on PostgreSQL (one commits while the next is written); a third only adds
  // contention on a small server. PGlite has one connection.
  const writer = new BatchWriter(
    db,
    live,
    {
      concurrency: options.databaseKind === 'postgres' ? 2 : 1,
      fallbackAccount: () => directory.systemAccount(),
      onCommitted: options.onCommitted,
      transactionWithClient: options.transactionWithClient,
    },
    onError,
  );
  // The engine needs the publisher, which connects alongside the subscription: a report delivered
  // before then waits for it.
  let engineReady: (engine: DeploymentEngine) => void = () => {};
  const deploymentEngine = new Promise<DeploymentEngine>((resolve) => {
    engineReady = resolve;
  });
  const handler = new UplinkHandler(directory, { storedFrameTime: (frame) => writer.storedFrameTime(frame) });

  const subscriber = new MqttSubscriber({
    url: options.url,
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    topics: INGEST_TOPICS,
    shareGroup: options.shareGroup,
    sessionExpirySeconds: options.sessionExpirySeconds,
    keepaliveSeconds: options.keepaliveSeconds,
    onConnection: options.onBrokerConnection,
    onAcknowledged: options.onAcknowledged,
    // Larger messages than the embedded broker takes stay at the broker (they are never parsed).
    maximumPacketSize: MAX_PACKET_BYTES,
    onMessage: async (topic, payload, delivery) => {
      const unit = await handler.handle(topic, payload, delivery);
      await writer.submit(unit);
      // Stored first: a report confirms its deployment only once its message is committed.
      if (unit.configReports?.length) {
        const engine = await deploymentEngine;
        for (const report of unit.configReports) await engine.onReport(report);
      }
    },
    onError,
  });
  const [publisher] = await Promise.all([
    connectPublisher(options),
    options.brokerInBackground ? subscriber.startInBackground() : subscriber.start(),
  ]);
  publisher.on('error', onError);
  // A device, gateway or account changed (deactivated, a new DevEUI): its next message sees the change.
  const forgetDevices = [
    ...(['create', 'update', 'delete'] as const).map((action) =>
      options.commands.on('devices', action, () => directory.forget()),
    ),
    ...(['update', 'delete'] as const).map((action) =>
      options.commands.on('accounts', action, () => directory.forget()),
    ),
    // A gateway registered, renamed (its id) or removed: its next stats see the change.
    ...(['create', 'update', 'delete'] as const).map((action) =>
      options.commands.on('gateway', action, () => directory.forget()),
    ),
  ];
  const downlinks = new DownlinkSender(db, directory, publisher, live, {
    timeoutMs: options.downlinkTimeoutMs,
    sweepMs: options.downlinkSweepMs,
    onError,
  });
  const stopDownlinks = downlinks.start(options.commands);
  const deployments = new DeploymentEngine(db, directory, publisher, live, {
    waitMs: options.configWaitMs,
    sweepMs: options.downlinkSweepMs,
    now: options.now,
    onError,
  });
  const stopDeployments = deployments.start(options.commands);
  engineReady(deployments);
  const connections = new ConnectionWatcher(db, live, onError);
  const sweepMs = options.connectionSweepMs ?? 30_000;
  const stopConnections = sweepMs > 0 ? connections.start(sweepMs) : () => {};
  return {
    connected: () => subscriber.isConnected && publisher.connected,
    writer,
    directory,
    downlinks,
    connections,
    deployments,
    async close(closeOptions) {
      for (const off of forgetDevices) off();
      stopDownlinks();
      stopDeployments();
      stopConnections();
      await subscriber.close(closeOptions);
      await writer.drain();
      await publisher.endAsync();
    },
  };
}
