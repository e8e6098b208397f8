/**
 * PostgreSQL and Mosquitto processes of a test's own (other tests share the machine's), to stop
 * and start at will: outages for real. PostgreSQL runs as the `postgres` user when the tests run
 * as root (initdb refuses root).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const PG_BIN = '/usr/lib/postgresql/15/bin';
const asRoot = userInfo().uid === 0;

function pgTool(tool: string, args: string[]): string {
  const command = asRoot ? 'runuser' : join(PG_BIN, tool);
  const full = asRoot ? ['-u', 'postgres', '--', join(PG_BIN, tool), ...args] : args;
  return execFileSync(command, full, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

export class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'lampyr-private-pg-'));
  constructor(readonly port: number) {
    if (asRoot) chownSync(this.dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), 0);
    pgTool('initdb', ['-D', join(this.dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  }
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }
  start(): void {
    pgTool('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-l',
      join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }
  stop(): void {
    pgTool('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }
  stopQuietly(): void {
    try {
      this.stop();
    } catch {}
  }
}

export class PrivateMosquitto {
  readonly dir = mkdtempSync(join(tmpdir(), 'lampyr-private-mqtt-'));
  private process?: ChildProcess;
  constructor(readonly port: number) {
    writeFileSync(
      join(this.dir, 'mosquitto.conf'),
      [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous true',
        'persistence true',
        `persistence_location ${this.dir}/`,
        'user root',
        'max_queued_messages 100000',
        '',
      ].join('\n'),
    );
  }
  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    const child = spawn('mosquitto', ['-c', join(this.dir, 'mosquitto.conf')], { stdio: 'ignore' });
    this.process = child;
    // Listening once a connection is taken.
    for (let i = 0; i < 100; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const socket = net.connect(this.port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('mosquitto did not start');
  }
  /** A clean stop: the broker saves its sessions and queued messages. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

/**
 * A TCP proxy whose connections can be frozen: nothing passes either way and nothing is closed —
 * a half-open connection as a NAT or a dead peer makes it. New connections pass as before.
 */
export class FreezableProxy {
  private server?: net.Server;
  private pairs = new Set<{ client: net.Socket; upstream: net.Socket; frozen: boolean }>();
  port = 0;
  constructor(private readonly targetPort: number) {}
  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, '127.0.0.1');
      const pair = { client, upstream, frozen: false };
      this.pairs.add(pair);
      client.on('data', (chunk) => {
        if (!pair.frozen) upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (!pair.frozen) client.write(chunk);
      });
      const end = () => {
        if (pair.frozen) return; // a frozen connection stays open on the client's side
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('close', end);
      upstream.on('close', end);
      client.on('error', () => {});
      upstream.on('error', () => {});
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  freeze(): number {
    for (const pair of this.pairs) pair.frozen = true;
    return this.pairs.size;
  }
  async close(): Promise<void> {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
