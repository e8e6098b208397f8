import net from 'node:net';
import { Aedes, type Client } from 'aedes';

export interface BrokerCredentials {
  username: string;
  password: string;
}

export interface EmbeddedBrokerOptions {
  port: number;
  host?: string;
  /** Lampyr itself: may publish and subscribe anywhere. */
  lampyr: BrokerCredentials;
  /** Devices and ChirpStack: publish uplinks and answers, subscribe to their commands. */
  devices?: BrokerCredentials;
  allowAnonymous: boolean;
}

export interface EmbeddedBroker {
  port: number;
  close(): Promise<void>;
}

export class BrokerPortTakenError extends Error {}

type Role = 'lampyr' | 'device';
const roles = new WeakMap<Client, Role>();
const DEVICE_SUBSCRIBE = [
  /^application\/[^/#]+\/device\/[^/#]+\/command\/down$/,
  /^lampyr\/[^/#]+\/down$/,
  // The simulator (a device-side client) takes fault injections here.
  /^simulator\/fault$/,
];

const same = (given: Buffer | undefined, expected: string) => given !== undefined && given.toString() === expected;

/**
 * The broker of `npm start` (Aedes, MQTT 3.1.1, in memory): QoS 1 and persistent sessions for as long
 * as the process lives. Production points MQTT_URL at a real broker instead.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      if (username === options.lampyr.username && same(password, options.lampyr.password)) {
        roles.set(client, 'lampyr');
        return done(null, true);
      }
      if (options.devices && username === options.devices.username && same(password, options.devices.password)) {
        roles.set(client, 'device');
        return done(null, true);
      }
      if (options.allowAnonymous && username === undefined) {
        roles.set(client, 'device');
        return done(null, true);
      }
      const error = Object.assign(new Error('Bad user name or password'), { returnCode: 4 as const });
      return done(error, false);
    },
    // Devices may listen to their own commands only, not to each other's uplinks. A refused topic
    // is answered "not granted" in the SUBACK; the connection stays.
    authorizeSubscribe: (client, subscription, done) => {
      if (!client || roles.get(client) === 'lampyr') return done(null, subscription);
      if (DEVICE_SUBSCRIBE.some((pattern) => pattern.test(subscription.topic))) return done(null, subscription);
      return done(null, null);
    },
  });
  const server = net.createServer(aedes.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new BrokerPortTakenError(
            `MQTT port ${options.port} is already in use (another broker?). Set MQTT_PORT to a free port, ` +
              `or MQTT_URL=mqtt://127.0.0.1:${options.port} to use that broker instead of the embedded one.`,
          ),
        );
      } else reject(error);
    });
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        aedes.close(() => server.close(() => resolve()));
        // Open client sockets would hold server.close() forever.
        setTimeout(resolve, 2000).unref();
      }),
  };
}
