import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { Aedes, type Client } from 'aedes';
import type { DeviceAuthority } from '../auth/device-credentials.ts';
import { MAX_PACKET_BYTES } from './device-input.ts';

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
  /** ChirpStack's MQTT integration: publishes every device's events, takes their commands. */
  chirpstack?: BrokerCredentials;
  /** IP devices speaking Lampyr JSON, each with its own credentials, each limited to its own topics. */
  devices?: DeviceAuthority;
  /** A client sending a larger MQTT packet is disconnected before it is read (default 256 KiB). */
  maxPacketBytes?: number;
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

type Role = { kind: 'lampyr' } | { kind: 'chirpstack' } | { kind: 'device'; uid: string };
const roles = new WeakMap<Client, Role>();

/** ChirpStack's integration events, and its gateways' stats (Gateway Bridge / MQTT Forwarder, region prefix or none). */
const CHIRPSTACK_PUBLISH = [
  /^application\/[^/+#]+\/device\/[^/+#]+\/event\/[^/+#]+$/,
  /^(?:[^/+#]+\/)?gateway\/[^/+#]+\/event\/stats$/,
];
/** ChirpStack takes the commands of its applications' devices; `+` stands for any application or device. */
const CHIRPSTACK_SUBSCRIBE = [
  /^application\/[^/#]+\/device\/[^/#]+\/command\/down$/,
  // The simulator (which plays ChirpStack) takes fault injections here; only Lampyr may publish it.
  /^simulator\/fault$/,
];

/** What a client may publish: Lampyr anything, ChirpStack device events and gateway stats, a device its own up and ack. */
function mayPublish(role: Role | undefined, topic: string): boolean {
  if (role?.kind === 'lampyr') return true;
  if (role?.kind === 'chirpstack') return CHIRPSTACK_PUBLISH.some((pattern) => pattern.test(topic));
  if (role?.kind === 'device') return topic === `lampyr/${role.uid}/up` || topic === `lampyr/${role.uid}/ack`;
  return false;
}

/** What a client may subscribe to; a device its own commands only, and never with a wildcard. */
function maySubscribe(role: Role | undefined, topic: string): boolean {
  if (role?.kind === 'lampyr') return true;
  if (role?.kind === 'chirpstack') return CHIRPSTACK_SUBSCRIBE.some((pattern) => pattern.test(topic));
  if (role?.kind === 'device') return !/[+#]/.test(topic) && topic === `lampyr/${role.uid}/down`;
  return false;
}

/** A Lampyr JSON command whose `expiresAt` has passed (kept for a client that was offline) is dropped. */
function expired(topic: string, payload: Buffer | string): boolean {
  if (!topic.startsWith('lampyr/') || !topic.endsWith('/down')) return false;
  try {
    const expiresAt = (JSON.parse(payload.toString()) as { expiresAt?: unknown }).expiresAt;
    return typeof expiresAt === 'string' && Date.parse(expiresAt) < Date.now();
  } catch {
    return false;
  }
}

const same = (given: Buffer | undefined, expected: string) => {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, createHash('sha256').update(expected).digest());
};

/**
 * The broker of `npm start` (Aedes, MQTT 3.1.1, in memory): QoS 1 and persistent sessions for as long
 * as the process lives. Three kinds of client: Lampyr, ChirpStack, and each IP device on its own
 * credentials. No anonymous clients. Production points MQTT_URL at a real broker instead, whose
 * operator configures the same rules (README).
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const byDevice = new Map<string, Set<Client>>();
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const refuse = () =>
        done(Object.assign(new Error('Bad user name or password'), { returnCode: 4 as const }), false);
      let role: Role | undefined;
      // A service's user name is never also tried as a device's.
      if (username === options.lampyr.username)
        role = same(password, options.lampyr.password) ? { kind: 'lampyr' } : undefined;
      else if (options.chirpstack && username === options.chirpstack.username)
        role = same(password, options.chirpstack.password) ? { kind: 'chirpstack' } : undefined;
      else if (username !== undefined && password !== undefined && options.devices) {
        const device = options.devices.authenticate(username, password);
        if (device) role = { kind: 'device', uid: device.uid };
      }
      if (!role) return refuse();
      roles.set(client, role);
      if (role.kind === 'device') {
        const clients = byDevice.get(role.uid) ?? new Set<Client>();
        byDevice.set(role.uid, clients);
        clients.add(client);
      }
      return done(null, true);
    },
    // A publish outside the client's topics closes its connection (MQTT 3.1.1 has no refusal code).
    authorizePublish: (client, packet, done) => {
      if (!client || mayPublish(roles.get(client), packet.topic)) return done(null);
      return done(new Error(`not allowed to publish on ${packet.topic.slice(0, 200)}`));
    },
    // A refused topic is answered "not granted" (0x80) in the SUBACK; the connection stays.
    authorizeSubscribe: (client, subscription, done) => {
      if (!client || maySubscribe(roles.get(client), subscription.topic)) return done(null, subscription);
      return done(null, null);
    },
    authorizeForward: (_client, packet) => (expired(packet.topic, packet.payload) ? undefined : packet),
  });
  aedes.on('clientDisconnect', (client) => {
    const role = roles.get(client);
    if (role?.kind === 'device') byDevice.get(role.uid)?.delete(client);
  });
  const stopRevoking = options.devices?.onRevoke((uid) => {
    for (const client of byDevice.get(uid) ?? []) client.close();
    byDevice.delete(uid);
  });
  const maxPacketBytes = options.maxPacketBytes ?? MAX_PACKET_BYTES;
  const server = net.createServer((socket) => {
    aedes.handle(socket);
    limitPacketSize(socket, maxPacketBytes);
  });
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
        stopRevoking?.();
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
