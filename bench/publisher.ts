/**
 * The load generator of `bench:ingest`: a bare MQTT 3.1.1 client on mqtt-packet that publishes QoS 1
 * messages and counts the broker's PUBACKs. mqtt.js spends more CPU per message than the ingest
 * under test (its outgoing store, callbacks and timers), which on a 2-core machine would measure
 * the load generator; this one, like wrk for the API benchmark, stays out of the way.
 */
import net from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';

export interface Publisher {
  /** Queues a QoS 1 publish; written with the rest of the current burst. */
  publish(topic: string, payload: string): void;
  /** Writes the queued publishes in one go. */
  flush(): void;
  /** PUBACKs received so far. */
  readonly acknowledged: number;
  end(): Promise<void>;
}

export async function connectPublisher(url: string, clientId: string, username?: string, password?: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port || 1883) });
  socket.setNoDelay(true);
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  let acknowledged = 0;
  let messageId = 0;
  let burst: Buffer[] = [];
  const connack = new Promise<void>((resolve, reject) => {
    parser.on('packet', (packet: Packet) => {
      if (packet.cmd === 'puback') acknowledged++;
      else if (packet.cmd === 'connack') {
        if (packet.returnCode) reject(new Error(`the broker refused the publisher (code ${packet.returnCode})`));
        else resolve();
      }
    });
    socket.once('error', reject);
  });
  socket.on('data', (chunk) => parser.parse(chunk));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clientId,
      clean: true,
      keepalive: 0,
      ...(username ? { username, password: Buffer.from(password ?? '') } : {}),
    }),
  );
  await connack;
  const publisher: Publisher = {
    publish(topic, payload) {
      messageId = (messageId % 65535) + 1;
      burst.push(mqttPacket.generate({ cmd: 'publish', topic, payload, qos: 1, messageId, retain: false, dup: false }));
    },
    flush() {
      if (!burst.length) return;
      socket.write(Buffer.concat(burst));
      burst = [];
    },
    get acknowledged() {
      return acknowledged;
    },
    end: () =>
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.end(mqttPacket.generate({ cmd: 'disconnect' }));
      }),
  };
  return publisher;
}
