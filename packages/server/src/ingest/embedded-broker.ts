import net from 'node:net';
import { Aedes, type Client } from 'aedes';
import { MAX_PACKET_BYTES } from './device-input.ts';

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
  /** A client sending a larger MQTT packet is disconnected before it is read (default 256 KiB). */
  maxPacketBytes?: number;
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
  const maxPacketBytes = options.maxPacketBytes ?? MAX_PACKET_BYTES;
  const server = net.createServer((socket) => {
    aedes.handle(socket);
    limitPacketSize(socket, maxPacketBytes);
  });
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

/**
 * Aedes reads a packet whole before anyone may look at it, up to MQTT's 256 MB. This follows the
 * packet boundaries of what Aedes reads from a client (each fixed header's remaining length) and
 * drops the client when a packet announces more than `max` bytes, so at most a chunk of it is read.
 */
function limitPacketSize(socket: net.Socket, max: number): void {
  let state: 'header' | 'length' | 'body' = 'header';
  let length = 0;
  let multiplier = 1;
  let remaining = 0;
  socket.on('data', (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length) {
      if (state === 'body') {
        const take = Math.min(remaining, chunk.length - i);
        i += take;
        remaining -= take;
        if (remaining === 0) state = 'header';
        continue;
      }
      const byte = chunk[i++] as number;
      if (state === 'header') {
        state = 'length';
        length = 0;
        multiplier = 1;
        continue;
      }
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      if (byte & 0x80) {
        // The remaining length takes four bytes at most.
        if (multiplier > 128 ** 3) socket.destroy();
        else continue;
        return;
      }
      if (length > max) {
        socket.destroy();
        return;
      }
      remaining = length;
      state = remaining ? 'body' : 'header';
    }
  });
}
