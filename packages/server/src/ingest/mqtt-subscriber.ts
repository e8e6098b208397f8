import net from 'node:net';
import tls from 'node:tls';
import mqttPacket, { type IConnackPacket, type IPublishPacket, type Packet } from 'mqtt-packet';

/**
 * The ingest side's MQTT connection. mqtt.js hands a QoS 1 message over only once the previous one
 * has been acknowledged (its `customHandleAcks` holds the whole connection until the ack), which
 * would make one database commit per message. This small client on mqtt-packet keeps up to
 * `receiveMaximum` messages in flight and acknowledges each when the handler's promise resolves
 * (after the commit), in the order they arrived, as MQTT requires.
 */
export interface SubscriberOptions {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  topics: string[];
  /** `$share/<group>/` before each topic; no sharing when empty (Aedes does not support it). */
  shareGroup?: string;
  /** Persistent session: the broker keeps what this client has not acknowledged across restarts. */
  sessionExpirySeconds?: number;
  receiveMaximum?: number;
  /** The largest packet the broker may send this client (MQTT 5); larger messages are not delivered to it. */
  maximumPacketSize?: number;
  keepaliveSeconds?: number;
  onMessage(topic: string, payload: Buffer, delivery: Delivery): Promise<void>;
  onError?(error: Error): void;
  onAcknowledged?(count: number): void;
  /** Told when the subscription is up (granted) and when the connection is lost. */
  onConnection?(up: boolean, detail?: string): void;
}

export interface Delivery {
  /** When the message arrived, or first arrived if this client received it before without acknowledging. */
  receivedAt: Date;
  /** Flagged by the broker as sent before (DUP), and not received by this client since it started. */
  redelivered: boolean;
}

interface Inflight {
  messageId: number | undefined;
  settled: boolean;
  failed: boolean;
  topic: string;
  /** Its payload's length: with the packet id and topic, enough to know it again (no buffer kept). */
  length: number;
  receivedAt: Date;
}

/** How long messages left unacknowledged by a lost connection are remembered for their redelivery. */
const UNACKNOWLEDGED_MEMORY_MS = 10 * 60_000;

export class MqttSubscriber {
  private socket?: net.Socket;
  private parser?: ReturnType<typeof mqttPacket.parser>;
  private protocolVersion: 4 | 5 = 5;
  private queue: Inflight[] = [];
  private acksScheduled = false;
  private closed = false;
  private pingTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private connected?: { resolve(): void; reject(error: Error): void };
  private attempt = 0;
  private subscribed = false;
  /** When the broker last sent anything on this connection (a keep-alive answer counts). */
  private lastHeard = 0;
  /**
   * Messages in flight when the last connection ended, by packet id: the broker sends them again
   * with the same id when the session resumes, and they keep their first receive time (an uplink
   * dated by its arrival then keeps its identity, and lands once).
   */
  private unacknowledged = new Map<number, Inflight>();
  private unacknowledgedSince = 0;

  constructor(private readonly options: SubscriberOptions) {}

  /** Connects and subscribes; resolves once the broker has granted the subscriptions. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.connected = { resolve, reject };
      this.open();
    });
  }

  /**
   * Like start, but a broker that cannot be reached does not hold the caller: resolves once
   * subscribed or once the first attempt failed to reach the broker (it keeps trying in the
   * background); rejects only when the broker refused (credentials, subscription).
   */
  startInBackground(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.connected = { resolve, reject };
      // A broker that takes the connection but never answers holds nobody longer than this either.
      const timer = setTimeout(() => this.unreachable?.(), 10_000);
      timer.unref();
      this.unreachable = () => {
        clearTimeout(timer);
        this.unreachable = undefined;
        // Still trying; a refusal later is reported, not thrown.
        this.connected = undefined;
        resolve();
      };
      this.open();
    });
  }
  private unreachable?: () => void;
  /** Why this side ended the connection, when it did (told with the loss). */
  private lostBecause?: string;
  /** Whether the current connection attempt reached the broker (TCP). */
  private reached = false;

  /** Subscribed and hearing from the broker. */
  get isConnected(): boolean {
    return this.subscribed;
  }

  private open(): void {
    const url = new URL(this.options.url);
    const secure = url.protocol === 'mqtts:';
    const port = Number(url.port || (secure ? 8883 : 1883));
    const socket = secure
      ? tls.connect({ host: url.hostname, port, servername: url.hostname })
      : net.connect({ host: url.hostname, port });
    socket.setNoDelay(true);
    this.socket = socket;
    this.queue = [];
    const parser = mqttPacket.parser({ protocolVersion: this.protocolVersion });
    this.parser = parser;
    parser.on('packet', (packet: Packet) => this.onPacket(socket, packet));
    parser.on('error', (error: Error) => this.fail(socket, error));
    socket.on('data', (chunk) => {
      this.lastHeard = Date.now();
      parser.parse(chunk);
    });
    socket.on('error', (error) => this.fail(socket, error));
    socket.on('close', () => this.onClose(socket));
    this.reached = false;
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      this.reached = true;
      this.send({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: this.protocolVersion,
        clientId: this.options.clientId,
        clean: false,
        keepalive: this.options.keepaliveSeconds ?? 30,
        ...(this.options.username ? { username: this.options.username } : {}),
        ...(this.options.password ? { password: Buffer.from(this.options.password) } : {}),
        ...(this.protocolVersion === 5
          ? {
              properties: {
                sessionExpiryInterval: this.options.sessionExpirySeconds ?? 86_400,
                receiveMaximum: this.options.receiveMaximum ?? 4096,
                ...(this.options.maximumPacketSize ? { maximumPacketSize: this.options.maximumPacketSize } : {}),
              },
            }
          : {}),
      });
    });
  }

  private send(packet: Packet, socket = this.socket): void {
    if (socket?.writable) socket.write(mqttPacket.generate(packet, { protocolVersion: this.protocolVersion }));
  }

  private onPacket(socket: net.Socket, packet: Packet): void {
    if (socket !== this.socket) return;
    switch (packet.cmd) {
      case 'connack':
        this.onConnack(socket, packet);
        return;
      case 'suback': {
        const granted = (packet.granted ?? []) as number[];
        if (granted.some((code) => code >= 0x80)) {
          this.fail(socket, new Error(`the broker refused the subscription (codes ${granted.join(', ')})`), true);
          return;
        }
        this.attempt = 0;
        this.subscribed = true;
        this.unreachable = undefined;
        this.connected?.resolve();
        this.connected = undefined;
        this.options.onConnection?.(true);
        return;
      }
      case 'publish':
        this.onPublish(socket, packet);
        return;
      default:
        return;
    }
  }

  private onConnack(socket: net.Socket, packet: IConnackPacket): void {
    const code = packet.reasonCode ?? packet.returnCode ?? 0;
    // MQTT 3.1.1-only brokers (Aedes) answer a version 5 CONNECT with "unacceptable protocol version".
    if (this.protocolVersion === 5 && (code === 1 || code === 132)) {
      this.protocolVersion = 4;
      socket.destroy();
      return;
    }
    if (code !== 0) {
      this.fail(socket, new Error(`the broker refused the connection (code ${code})`), true);
      return;
    }
    // A new session holds nothing from before: nothing will be sent again.
    if (!packet.sessionPresent) this.unacknowledged.clear();
    const keepalive = (this.options.keepaliveSeconds ?? 30) * 1000;
    clearInterval(this.pingTimer);
    this.lastHeard = Date.now();
    this.pingTimer = setInterval(() => {
      // A half-open connection (the broker gone without a FIN, a NAT forgetting it): pings go out
      // and nothing comes back. 1.5 keep-alives of silence end it, and the session is resumed anew.
      if (Date.now() - this.lastHeard > keepalive * 1.5) {
        this.lostBecause = 'no answer to keep-alive pings';
        this.fail(socket, new Error('the broker stopped answering keep-alive pings'));
        return;
      }
      this.send({ cmd: 'pingreq' }, socket);
    }, keepalive / 2);
    const prefix = this.options.shareGroup ? `$share/${this.options.shareGroup}/` : '';
    this.send({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: this.options.topics.map((topic) => ({ topic: prefix + topic, qos: 1 as const })),
    });
  }

  private onPublish(socket: net.Socket, packet: IPublishPacket): void {
    const topic = packet.topic;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    const messageId = packet.qos > 0 ? packet.messageId : undefined;
    const delivery: Delivery = { receivedAt: new Date(), redelivered: packet.dup === true };
    if (this.unacknowledged.size && messageId !== undefined) {
      const before = this.unacknowledged.get(messageId);
      this.unacknowledged.delete(messageId);
      if (Date.now() - this.unacknowledgedSince > UNACKNOWLEDGED_MEMORY_MS) this.unacknowledged.clear();
      else if (before && before.topic === topic && before.length === payload.length) {
        delivery.receivedAt = before.receivedAt;
        delivery.redelivered = false;
      }
    }
    const entry: Inflight = {
      messageId,
      settled: false,
      failed: false,
      topic,
      length: payload.length,
      receivedAt: delivery.receivedAt,
    };
    this.queue.push(entry);
    this.options.onMessage(topic, payload, delivery).then(
      () => {
        entry.settled = true;
        this.scheduleAcks();
      },
      (error: Error) => {
        // Not stored: drop the connection without acknowledging, so the broker delivers it again
        // (after a pause, so a database that is down is not hammered).
        entry.failed = true;
        this.attempt = Math.max(this.attempt, 4);
        this.lostBecause = 'storing failed';
        this.fail(socket, error);
      },
    );
  }

  /**
   * A committed batch settles its messages one promise callback after another: their PUBACKs are
   * written once those callbacks have all run, in one write, not one 4-byte write (and TCP segment
   * for the broker to read) per message.
   */
  private scheduleAcks(): void {
    if (this.acksScheduled) return;
    this.acksScheduled = true;
    setImmediate(() => {
      this.acksScheduled = false;
      if (this.socket) this.flushAcks(this.socket);
    });
  }

  /**
   * Acknowledges, in arrival order, every message whose values are committed, in one write. A
   * PUBACK of success is four bytes in MQTT 3.1.1 and 5 alike (5 lets the reason code go when 0).
   */
  private flushAcks(socket: net.Socket): void {
    if (socket !== this.socket) return;
    let count = 0;
    while (count < this.queue.length && this.queue[count]?.settled) count++;
    if (!count) return;
    const acks = this.queue.splice(0, count).filter((entry) => entry.messageId !== undefined);
    if (acks.length && socket.writable) {
      const bytes = Buffer.allocUnsafe(acks.length * 4);
      acks.forEach((entry, i) => {
        bytes[i * 4] = 0x40;
        bytes[i * 4 + 1] = 2;
        bytes.writeUInt16BE(entry.messageId as number, i * 4 + 2);
      });
      socket.write(bytes);
    }
    this.options.onAcknowledged?.(count);
  }

  private fail(socket: net.Socket, error: Error, fatal = false): void {
    if (socket !== this.socket) return;
    this.options.onError?.(error);
    if (fatal && this.connected) {
      this.connected.reject(error);
      this.connected = undefined;
      this.closed = true;
    }
    socket.destroy();
  }

  private onClose(socket: net.Socket): void {
    if (socket !== this.socket) return;
    clearInterval(this.pingTimer);
    this.socket = undefined;
    const was = this.subscribed;
    this.subscribed = false;
    if (this.closed) return;
    if (was) this.options.onConnection?.(false, this.lostBecause);
    this.lostBecause = undefined;
    // Not reached at all (refused port, no route): the first attempt's caller is not held.
    if (this.unreachable && !this.reached) this.unreachable();
    for (const entry of this.queue) if (entry.messageId !== undefined) this.unacknowledged.set(entry.messageId, entry);
    if (this.queue.length) this.unacknowledgedSince = Date.now();
    this.queue = [];
    const delay = Math.min(5000, 100 * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => this.open(), this.attempt === 1 ? 0 : delay);
  }

  /**
   * Disconnects. `endSession` asks the broker to forget the session (MQTT 5), for a worker that
   * leaves for good; otherwise messages published meanwhile wait for it.
   */
  async close(options: { endSession?: boolean } = {}): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      this.send(
        {
          cmd: 'disconnect',
          ...(this.protocolVersion === 5 && options.endSession ? { properties: { sessionExpiryInterval: 0 } } : {}),
        },
        socket,
      );
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  }
}
