import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');

export interface RunningServer {
  url: string;
  /** The embedded broker's address. */
  mqttUrl: string;
  dataDir: string;
  log: () => string;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the compiled server (`packages/server/dist/main.js`, built by the global setup) on a free port with a fresh data directory (embedded PGlite); `extraEnv`
 * adds settings (a test that publishes to the broker gives Lampyr's MQTT login).
 */
export async function startServer(extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const port = await freePort();
  const mqttPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    // The demo's 14 days of history take the embedded database a minute; a test that wants them asks.
    DEMO_HISTORY_DAYS: '0',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.MQTT_URL;
  delete env.SMTP_URL;
  const child: ChildProcess = spawn(process.execPath, ['packages/server/dist/main.js'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  // Generous: on a machine busy with other test runs the first start (migrations, demo seed) is slow.
  const deadline = Date.now() + 280_000;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`The server exited early:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/config.json`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`The server did not start within 280 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    dataDir,
    log: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The newest six-digit code mailed to `email`, read from the development outbox. */
export async function readCode(dataDir: string, email: string, after = 0, timeoutMs = 15_000): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const mails = readdirSync(outbox)
        .map((name) => join(outbox, name))
        .filter((file) => statSync(file).mtimeMs > after)
        .map((file) => ({ file, text: readFileSync(file, 'utf8'), time: statSync(file).mtimeMs }))
        .filter(({ text }) => new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'im').test(text))
        .sort((a, b) => b.time - a.time);
      const code = mails[0]?.text
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n')
        .match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
    } catch {
      // no outbox yet
    }
    if (Date.now() > deadline) throw new Error(`No code mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
