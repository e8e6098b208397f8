import net from 'node:net';
import { Aedes, type Client } from 'aedes';

export interface BrokerCredentials {
  username: string;
  password: string;
}

export interface EmbeddedBrokerOptions {
  port: number;
  /** When `port` is taken, take the next free one instead of failing (MQTT_PORT not set). */
  nextFreePort?: boolean;
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

const PORT_TRIES = 100;

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}

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
  // Unless the port was chosen explicitly, a taken one (another broker on 1883) moves to the next.
  const last = options.nextFreePort ? Math.min(options.port + PORT_TRIES - 1, 65535) : options.port;
  for (let port = options.port; ; port++) {
    try {
      await listen(server, port, options.host ?? '0.0.0.0');
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      if (port < last) continue;
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      throw new BrokerPortTakenError(
        options.nextFreePort
          ? `MQTT ports ${options.port}–${last} are all in use. Set MQTT_PORT to a free port, ` +
              `or MQTT_URL to use a running broker instead of the embedded one.`
          : `MQTT port ${options.port} is already in use (another broker?). Set MQTT_PORT to a free port, ` +
              `or MQTT_URL=mqtt://127.0.0.1:${options.port} to use that broker instead of the embedded one.`,
      );
    }
  }
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
