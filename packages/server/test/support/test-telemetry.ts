import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { AppContext } from '../../src/api/context.ts';
import { type AppOptions, buildApp } from '../../src/app.ts';
import type { Database } from '../../src/db/connect.ts';
import type { AlarmEngine } from '../../src/engines/alarms/alarm-engine.ts';
import type { AutonomousEngine } from '../../src/engines/autonomous/autonomous-engine.ts';
import { CommandEvents } from '../../src/events/command-events.ts';
import { LiveEvents } from '../../src/events/live-events.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../src/ingest/embedded-broker.ts';
import { type Ingest, startIngest } from '../../src/ingest/ingest-service.ts';
import { type SeedResult, seed } from '../../src/seed/seed.ts';
import { ADMIN, type Client, JWT_SECRET, testDatabase, testSecretBox } from './test-app.ts';

/** Which broker the ingest tests use: the real one named by the project, else Aedes on a free port. */
export const TEST_BROKER = process.env.LAMPYR_TEST_MQTT ?? 'aedes';
export const BROKER_CREDENTIALS = { username: 'lampyr-test', password: randomBytes(12).toString('hex') };

export interface TestBroker {
  url: string;
  username?: string;
  password?: string;
  /** Shared subscriptions on the real broker, none on Aedes (it has no `$share`). */
  shareGroup: string;
  close(): Promise<void>;
}

export async function startTestBroker(): Promise<TestBroker> {
  if (TEST_BROKER !== 'aedes') {
    // A share group of its own, so sessions left by other runs never take this run's messages.
    return { url: TEST_BROKER, shareGroup: `lampyr-test-${randomBytes(4).toString('hex')}`, close: async () => {} };
  }
  const broker: EmbeddedBroker = await startEmbeddedBroker({
    port: 0,
    host: '127.0.0.1',
    lampyr: BROKER_CREDENTIALS,
  });
  return { url: `mqtt://127.0.0.1:${broker.port}`, ...BROKER_CREDENTIALS, shareGroup: '', close: () => broker.close() };
}

export async function connectClient(broker: TestBroker, name: string): Promise<MqttClient> {
  const client = mqtt.connect(broker.url, {
    clientId: `${name}-${randomBytes(4).toString('hex')}`,
    username: broker.username,
    password: broker.password,
    clean: true,
    protocolVersion: 4,
    reconnectPeriod: 500,
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  return client;
}

export interface TelemetryTestApp {
  app: FastifyInstance;
  ctx: AppContext;
  commands: CommandEvents;
  baseUrl: string;
  database: Database;
  seeded: SeedResult;
  broker: TestBroker;
  ingest: Ingest;
  live: LiveEvents;
  alarms: AlarmEngine;
  autonomous: AutonomousEngine;
  close(): Promise<void>;
}

/** The HTTP app, listening, with a real broker, the ingest and the live stream wired as in main. */
export async function startTelemetryTestApp(
  options: {
    downlinkTimeoutMs?: number;
    brokerUrl?: (url: string) => string;
    logger?: AppOptions['logger'];
    /** The alarm engine's notifier and pace (alarm tests). */
    notifier?: AppOptions['notifier'];
    alarms?: AppOptions['alarms'];
    /** An existing database (a second app instance on it): not seeded again, not closed by this app. */
    database?: Database;
    /** How long a configuration command waits for the device's report before a resend. */
    configWaitMs?: number;
  } = {},
): Promise<TelemetryTestApp> {
  const database = options.database ?? (await testDatabase());
  const seeded = await seed(database.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: true });
  const live = new LiveEvents();
  const commands = new CommandEvents();
  const { app, ctx, alarms, autonomous, onCommitted } = await buildApp({
    db: database.db,
    jwtSecret: JWT_SECRET,
    secretBox: testSecretBox(),
    dataDir: 'unused',
    live,
    commands,
    logger: options.logger,
    notifier: options.notifier,
    alarms: options.alarms,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const broker = await startTestBroker();
  const ingest = await startIngest({
    db: database.db,
    databaseKind: database.kind,
    transactionWithClient: database.transactionWithClient,
    // A test may route the ingest through a proxy it can cut.
    url: options.brokerUrl ? options.brokerUrl(broker.url) : broker.url,
    username: broker.username,
    password: broker.password,
    clientId: `lampyr-test-${randomBytes(4).toString('hex')}`,
    shareGroup: broker.shareGroup,
    sessionExpirySeconds: 120,
    live,
    commands,
    downlinkTimeoutMs: options.downlinkTimeoutMs ?? 60_000,
    downlinkSweepMs: 250,
    onCommitted,
    configWaitMs: options.configWaitMs,
    log: { error: () => {}, warn: () => {} },
  });
  const port = (app.server.address() as AddressInfo).port;
  return {
    app,
    ctx,
    commands,
    baseUrl: `http://127.0.0.1:${port}`,
    database,
    seeded,
    broker,
    ingest,
    live,
    alarms,
    autonomous,
    async close() {
      await ingest.close({ endSession: true });
      await app.close();
      await broker.close();
      if (!options.database) await database.close();
    },
  };
}

export interface StreamReader {
  events: { event: string; data: Record<string, unknown> }[];
  status: number;
  /** The server ended the stream. */
  ended: boolean;
  close(): void;
}

/** Reads server-sent events as a browser's EventSource would (the ticket in the query). */
export function openStream(url: string): Promise<StreamReader> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      const reader: StreamReader = {
        events: [],
        status: response.statusCode ?? 0,
        ended: false,
        close: () => request.destroy(),
      };
      response.on('end', () => {
        reader.ended = true;
      });
      response.on('close', () => {
        reader.ended = true;
      });
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) reader.events.push({ event, data: JSON.parse(data) });
          end = buffer.indexOf('\n\n');
        }
      });
      response.on('error', () => {});
      resolve(reader);
    });
    request.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
  });
}

/** Opens the stream as the console does: a ticket with the client's token and account, then the stream. */
export async function openStreamAs(
  baseUrl: string,
  client: Client,
  accountId = client.accountId,
): Promise<StreamReader> {
  const saved = client.accountId;
  client.accountId = accountId;
  const ticket = await client.call('POST', '/query/api/stream/ticket', {});
  client.accountId = saved;
  if (ticket.status !== 200) throw new Error(`no stream ticket: ${ticket.status} ${ticket.raw}`);
  return openStream(`${baseUrl}/query/api/stream?ticket=${encodeURIComponent(ticket.body.data.ticket)}`);
}

/** Polls until `check` returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
) {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) throw last instanceof Error ? last : new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
