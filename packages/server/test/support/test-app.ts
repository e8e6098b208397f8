import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { SecretBox, secretKey } from '../../src/auth/secret-box.ts';
import { type Database, openDatabase } from '../../src/db/connect.ts';
import type { NotificationService } from '../../src/engines/notifications/notification-service.ts';
import { type SeedResult, seed } from '../../src/seed/seed.ts';

export const ADMIN = { email: 'admin@lampyr.local', password: 'lampyr-admin' };
export const JWT_SECRET = new TextEncoder().encode('test-secret-test-secret-test-secret-!!');
export const SECRETS_KEY = secretKey('7465737420736563726574206b65792074657374207365637265742021212121');
/** The tests' box: their own secrets key, and the JWT secret for `v1` values. */
export const testSecretBox = () => new SecretBox({ current: SECRETS_KEY, legacyServerSecret: JWT_SECRET });

/** The database the tests run on: PGlite in memory, or the real PostgreSQL named by LAMPYR_TEST_DB. */
export async function testDatabase(): Promise<Database> {
  const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
  if (target === 'pglite') return openDatabase({ dataDir: 'memory://' });
  // Each test file starts from an empty database.
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  await client.query(
    'DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;',
  );
  await client.end();
  return openDatabase({ url: target, dataDir: 'unused' });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  seeded: SeedResult;
  dataDir: string;
  /** The app's notification service (started with the app). */
  notifications: NotificationService;
  close(): Promise<void>;
}

/**
 * The app on a fresh database (or the one given), seeded with the demo data unless `demo: false`;
 * `app` adds options of buildApp.
 */
export async function startTestApp(
  options: Pick<AppOptions, 'trustedProxies' | 'logger' | 'live'> & {
    demo?: boolean;
    app?: Partial<Omit<AppOptions, 'db'>>;
    database?: Database;
    seeded?: SeedResult;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await testDatabase());
  const seeded =
    options.seeded ??
    (await seed(database.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: options.demo ?? true }));
  const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-test-'));
  const { app, notifications } = await buildApp({
    db: database.db,
    jwtSecret: JWT_SECRET,
    secretBox: testSecretBox(),
    dataDir,
    trustedProxies: options.trustedProxies,
    logger: options.logger,
    live: options.live,
    ...options.app,
  });
  await app.ready();
  return {
    app,
    database,
    seeded,
    dataDir,
    notifications,
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

export interface Call {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions, not by types.
  body: { success: boolean; data?: any; error?: { code: string; message: string; fields?: Record<string, string> } };
  raw: string;
}

/** A client of the two APIs as the console uses them: token, account and language headers. */
export class Client {
  token?: string;
  accountId?: number;
  language?: string;
  /** The refresh cookie, kept and sent back as a browser would (to the auth path only). */
  refreshCookie?: string;

  constructor(private readonly app: FastifyInstance) {}

  async call(method: string, url: string, payload?: unknown, extra: Record<string, string> = {}): Promise<Call> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (this.accountId !== undefined) headers['x-account-id'] = String(this.accountId);
    if (this.language) headers['accept-language'] = this.language;
    if (this.refreshCookie && url.startsWith('/command/api/auth/'))
      headers.cookie = `lampyr_refresh=${this.refreshCookie}`;
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    const refresh = response.cookies.find((c) => c.name === 'lampyr_refresh');
    if (refresh) this.refreshCookie = refresh.value || undefined;
    let body: Call['body'];
    try {
      body = JSON.parse(response.body);
    } catch {
      body = { success: false };
    }
    return { status: response.statusCode, body, raw: response.body };
  }

  async login(email = ADMIN.email, password = ADMIN.password): Promise<Call> {
    const res = await this.call('POST', '/command/api/auth/login', { email, password });
    if (res.status === 200) this.token = res.body.data.token;
    return res;
  }

  list(prefix: string, body: unknown) {
    return this.call('POST', `/query/api/${prefix}`, body);
  }
  search(prefix: string, body: unknown) {
    return this.call('POST', `/query/api/${prefix}/search`, body);
  }
  get(prefix: string, id: number | string) {
    return this.call('GET', `/query/api/${prefix}/${id}`);
  }
  create(prefix: string, record: unknown) {
    return this.call('POST', `/command/api/${prefix}`, record);
  }
  update(prefix: string, record: unknown) {
    return this.call('PUT', `/command/api/${prefix}`, record);
  }
  remove(prefix: string, id: unknown) {
    return this.call('DELETE', `/command/api/${prefix}`, { id });
  }
}

export const page = (page: number, size = 10, sort: string[] = []) => ({ page, size, sort });

/** The mails to `email` in the development outbox, oldest first. */
export function mailsTo(dataDir: string, email: string): string[] {
  const outbox = join(dataDir, 'outbox');
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .filter((f) => f.endsWith(`${email}.eml`))
    .sort()
    .map((f) => readFileSync(join(outbox, f), 'utf8'));
}

/**
 * The newest code e-mailed to `email`, read from the development outbox. Mail leaves after the
 * answer, so this waits for one newer than `after` (a count of earlier mails) for a while.
 */
export async function lastCode(dataDir: string, email: string, after?: number): Promise<string> {
  const until = Date.now() + 5000;
  for (;;) {
    const mails = mailsTo(dataDir, email);
    const last = mails.length > (after ?? 0) ? mails.at(-1) : undefined;
    const match = last?.match(/\b(\d{6})\b/);
    if (match?.[1]) return match[1];
    if (Date.now() > until) throw new Error(`no code mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function countRows(database: Database, table: string): Promise<number> {
  const result = await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
  const rows = (result as unknown as { rows: { n: number }[] }).rows;
  return rows[0]?.n ?? 0;
}
