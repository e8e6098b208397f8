import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { LiveEvent } from '@lampyr/contract';
import { and, eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_BUFFERED_BYTES } from '../src/api/stream-routes.ts';
import { hashSecret } from '../src/auth/passwords.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { oneTimeCodes, roles, users, usersRoles } from '../src/db/schema/index.ts';
import { LiveEvents } from '../src/events/live-events.ts';
import { ADMIN, Client, lastCode, mailsTo, startTestApp, type TestApp } from './support/test-app.ts';
import { openStream, type StreamReader } from './support/test-telemetry.ts';

// Two replicas of Lampyr on one database: `direct` trusts no proxy (the default), `proxied` trusts
// the test's own address as its reverse proxy (TRUSTED_PROXIES=127.0.0.1).
let direct: TestApp;
let proxied: TestApp;
let baseUrl: string;
let kadikoy: number;
const live = new LiveEvents();
const logLines: string[] = [];

const db = () => direct.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
const userRow = async (email: string) => (await db().select().from(users).where(eq(users.email, email)))[0];
const codesOf = async (userId: number, purpose: string) =>
  (
    await db()
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)))
  ).length;

let addressSeq = 0;
/** A new client address for each call, as a botnet (or a forged header) would bring. */
const nextAddress = () => `198.51.100.${(addressSeq++ % 250) + 1}`;
const fromAddress = (address = nextAddress()) => ({ 'x-forwarded-for': address });

const person = (email: string, overrides: Record<string, string> = {}) => ({
  firstName: 'Deniz',
  lastName: 'Kaya',
  phoneNumber: '+90 555 111 22 33',
  title: 'Engineer',
  email,
  password: 'first-password-1',
  ...overrides,
});

/** A verified user with its own password, a member of Kadıköy with `roleId`. */
async function member(email: string, roleId?: number): Promise<Client> {
  const [adminRole] = await db().select().from(roles).where(eq(roles.name, 'Administrator'));
  const role = roleId ?? (adminRole?.id as number);
  const [created] = await db()
    .insert(users)
    .values({
      email,
      firstName: 'Test',
      lastName: 'Member',
      passwordHash: await hashSecret('member-password'),
      roleId: role,
      emailVerified: true,
    })
    .returning();
  await db()
    .insert(usersRoles)
    .values({ accountId: kadikoy, userId: created?.id as number, roleId: role });
  const c = new Client(direct.app);
  expect((await c.login(email, 'member-password')).status).toBe(200);
  c.accountId = kadikoy;
  return c;
}

async function streamOf(c: Client): Promise<StreamReader> {
  const ticket = await c.call('POST', '/query/api/stream/ticket', {});
  expect(ticket.status).toBe(200);
  const reader = await openStream(`${baseUrl}/query/api/stream?ticket=${ticket.body.data.ticket}`);
  expect(reader.status).toBe(200);
  return reader;
}

const valueEvent = (n: number): LiveEvent => ({
  type: 'value',
  deviceId: 1,
  deviceChannelTemplateId: 1,
  subChannel: 0,
  channelCode: 'dim',
  value: n,
  status: 'ok',
  dateTime: new Date().toISOString(),
});
const statusEvent = (): LiveEvent =>
  ({ type: 'status', deviceId: 1, status: 'online', dateTime: new Date().toISOString() }) as unknown as LiveEvent;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  direct = await startTestApp({ live, logger: { level: 'trace', stream: sink } });
  proxied = await startTestApp({ database: direct.database, seeded: direct.seeded, trustedProxies: ['127.0.0.1'] });
  await direct.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(direct.app.server.address() as AddressInfo).port}`;
  kadikoy = direct.seeded.subAccountIds[0] as number;
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
});
// Each test starts with fresh limits; the tests of the limits make their own history.
beforeEach(async () => {
  await db().execute(sql`DELETE FROM auth_limits`);
});

describe('TRUSTED_PROXIES', () => {
  it('trusts no proxy by default, takes addresses and CIDRs, and names a bad entry', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,::1' }).TRUSTED_PROXIES).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(() => loadConfig({ TRUSTED_PROXIES: 'everyone' })).toThrow(/TRUSTED_PROXIES/);
    expect(() => loadConfig({ TRUSTED_PROXIES: 'everyone' })).toThrow(ConfigError);
  });
});

describe('rate limits that hold', () => {
  it('counts failures only: a whole office behind one address signs in, uncounted', async () => {
    const c = new Client(direct.app);
    for (let i = 0; i < 25; i++) expect((await c.login()).status).toBe(200);
  });

  it('ignores a forged X-Forwarded-For without a trusted proxy: the address limit still answers 429', async () => {
    const c = new Client(direct.app);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await c.call(
        'POST',
        '/command/api/auth/login',
        { email: `spray${i}@example.test`, password: 'guess' },
        fromAddress(),
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(5).fill(429));
    // Nobody signed in.
    expect(statuses).not.toContain(200);
  });

  it('honours X-Forwarded-For from a configured proxy, one limit per client address', async () => {
    const c = new Client(proxied.app);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await c.call(
        'POST',
        '/command/api/auth/login',
        { email: `spray${i}@example.test`, password: 'guess' },
        fromAddress(),
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array(25).fill(401));
    // One client address behind the proxy is still limited.
    const one: number[] = [];
    for (let i = 0; i < 21; i++)
      one.push(
        (
          await c.call(
            'POST',
            '/command/api/auth/login',
            { email: `one${i}@example.test`, password: 'guess' },
            fromAddress('203.0.113.7'),
          )
        ).status,
      );
    expect(one.at(-1)).toBe(429);
  });

  it('backs off one e-mail after five failures from any addresses, even for the right password, then lets its owner in', async () => {
    const c = new Client(proxied.app);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push(
        (await c.call('POST', '/command/api/auth/login', { email: ADMIN.email, password: `guess-${i}` }, fromAddress()))
          .status,
      );
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(401));
    expect(statuses.slice(5)).toEqual(Array(3).fill(429));
    const blocked = await c.call('POST', '/command/api/auth/login', ADMIN, fromAddress());
    expect(blocked.status).toBe(429);
    expect(blocked.body.data).toBeUndefined();
    expect(Number(blocked.raw.length)).toBeGreaterThan(0);
    // The backoff is short: a second after the last failure the owner signs in (and is forgotten).
    await new Promise((r) => setTimeout(r, 1200));
    expect((await c.call('POST', '/command/api/auth/login', ADMIN, fromAddress())).status).toBe(200);
    const [left] = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM auth_limits WHERE key LIKE 'login:email:%'`,
    );
    expect(left?.n).toBe(0);
  });

  it('grows the backoff with each failure, up to a few minutes at most', async () => {
    const c = new Client(proxied.app);
    const email = 'growing@example.test';
    for (let i = 0; i < 5; i++)
      await c.call('POST', '/command/api/auth/login', { email, password: 'x' }, fromAddress());
    const waitAfter = async () => {
      const [row] = await rows<{ s: number }>(
        sql`SELECT extract(epoch FROM blocked_until - now())::float AS s FROM auth_limits WHERE key = ${`login:email:${email}`}`,
      );
      return Number(row?.s);
    };
    expect(await waitAfter()).toBeLessThanOrEqual(1);
    // Pretend many failures went before: the block never exceeds five minutes.
    await db().execute(
      sql`UPDATE auth_limits SET hits = 40, blocked_until = now() WHERE key = ${`login:email:${email}`}`,
    );
    await c.call('POST', '/command/api/auth/login', { email, password: 'x' }, fromAddress());
    const wait = await waitAfter();
    expect(wait).toBeGreaterThan(200);
    expect(wait).toBeLessThanOrEqual(300);
  });

  it('sends at most five codes an hour, however many forgot-password calls come from however many addresses', async () => {
    const email = 'forgetful@example.test';
    await db()
      .insert(users)
      .values({
        email,
        firstName: 'F',
        lastName: 'G',
        roleId: (await userRow(ADMIN.email))?.roleId as number,
        emailVerified: true,
      });
    const user = (await userRow(email)) as { id: number };
    const c = new Client(proxied.app);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++)
      statuses.push((await c.call('POST', '/command/api/auth/forgot-password', { email }, fromAddress())).status);
    expect(statuses).toEqual(Array(50).fill(200));
    await vi.waitFor(() => expect(mailsTo(proxied.dataDir, email).length).toBe(5));
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(proxied.dataDir, email)).toHaveLength(5);
    expect(await codesOf(user.id, 'reset')).toBe(5);
    // And from one address without a trusted proxy, the address limit answers first.
    const d = new Client(direct.app);
    const one: number[] = [];
    for (let i = 0; i < 15; i++)
      one.push((await d.call('POST', '/command/api/auth/forgot-password', { email: `x${i}@example.test` })).status);
    expect(one.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(one.slice(10)).toEqual(Array(5).fill(429));
    expect(await codesOf(user.id, 'reset')).toBe(5);
  });

  it('caps wrong guesses across re-issued codes: a new code brings no new tries', async () => {
    const email = 'guesser@example.test';
    const c = new Client(proxied.app);
    expect((await c.call('POST', '/command/api/auth/register', person(email), fromAddress())).status).toBe(201);
    let code = await lastCode(proxied.dataDir, email);
    const wrong = (right: string) => (right === '000000' ? '111111' : '000000');
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5; i++) {
        const res = await c.call('POST', '/command/api/auth/verify-otp', { email, code: wrong(code) }, fromAddress());
        expect(res.status).toBe(422);
      }
      const before = mailsTo(proxied.dataDir, email).length;
      await c.call('POST', '/command/api/auth/resend-otp', { email }, fromAddress());
      code = await lastCode(proxied.dataDir, email, before);
    }
    // Ten wrong guesses in the hour: even the right, fresh code is refused.
    const right = await c.call('POST', '/command/api/auth/verify-otp', { email, code }, fromAddress());
    expect(right.status).toBe(422);
    expect((await userRow(email))?.emailVerified).toBe(false);
    // Once the hour has passed the owner can verify.
    await db().execute(sql`UPDATE one_time_codes SET created_at = now() - interval '2 hours' WHERE attempts > 0`);
    expect((await c.call('POST', '/command/api/auth/verify-otp', { email, code }, fromAddress())).status).toBe(200);
  });

  it('limits register and resend-otp per address whatever the e-mail', async () => {
    const c = new Client(direct.app);
    for (const route of ['register', 'resend-otp'] as const) {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const email = `${route}-${i}@example.test`;
        const body = route === 'register' ? person(email) : { email };
        statuses.push((await c.call('POST', `/command/api/auth/${route}`, body, fromAddress())).status);
      }
      expect(statuses.slice(10)).toEqual([429, 429]);
    }
    expect(await userRow('register-11@example.test')).toBeUndefined();
  });
});

describe('answers that do not enumerate', () => {
  it('answers register of a new, an unverified and a verified e-mail alike, and never rewrites an existing row', async () => {
    const c = new Client(proxied.app);
    const email = 'existing@example.test';
    const first = await c.call('POST', '/command/api/auth/register', person(email), fromAddress());
    expect(first.status).toBe(201);
    await lastCode(proxied.dataDir, email);
    const before = await userRow(email);
    const mailsBefore = mailsTo(proxied.dataDir, email).length;

    // An attacker re-registers the unverified address with their own name and password.
    const again = await c.call(
      'POST',
      '/command/api/auth/register',
      person(email, { firstName: 'Mallory', lastName: 'Evil', password: 'attacker-password' }),
      fromAddress(),
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await userRow(email)).toEqual(before);
    // Only a new code went to the owner's mailbox.
    const code = await lastCode(proxied.dataDir, email, mailsBefore);
    expect((await c.call('POST', '/command/api/auth/verify-otp', { email, code }, fromAddress())).status).toBe(200);
    expect((await c.call('POST', '/command/api/auth/login', { email, password: 'attacker-password' })).status).toBe(
      401,
    );
    expect((await c.call('POST', '/command/api/auth/login', { email, password: 'first-password-1' })).status).toBe(200);

    // A verified address: the same answer, no code, the row untouched, its owner told by mail.
    const verified = await userRow(email);
    const owner = mailsTo(proxied.dataDir, email).length;
    const taken = await c.call('POST', '/command/api/auth/register', person(email, { password: 'another-one-1' }));
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual(first.body);
    expect(await userRow(email)).toEqual(verified);
    await vi.waitFor(() => expect(mailsTo(proxied.dataDir, email).length).toBe(owner + 1));
    expect(mailsTo(proxied.dataDir, email).at(-1)).not.toMatch(/\b\d{6}\b/);
  });

  it('answers forgot-password, resend-otp and a wrong sign-in the same for known and unknown e-mails', async () => {
    const c = new Client(proxied.app);
    for (const route of ['forgot-password', 'resend-otp']) {
      const known = await c.call('POST', `/command/api/auth/${route}`, { email: ADMIN.email }, fromAddress());
      const unknown = await c.call(
        'POST',
        `/command/api/auth/${route}`,
        { email: 'nobody@example.test' },
        fromAddress(),
      );
      expect(known.status).toBe(unknown.status);
      expect(Object.keys(known.body.data)).toEqual(Object.keys(unknown.body.data));
    }
    const known = await c.call(
      'POST',
      '/command/api/auth/login',
      { email: ADMIN.email, password: 'nope' },
      fromAddress(),
    );
    const unknown = await c.call(
      'POST',
      '/command/api/auth/login',
      { email: 'nobody@example.test', password: 'nope' },
      fromAddress(),
    );
    expect(known.status).toBe(401);
    expect(unknown.body).toEqual(known.body);
    // An unknown e-mail costs an argon2 verification too (the known one takes tens of ms).
    const timed = async (email: string) => {
      const started = performance.now();
      await c.call('POST', '/command/api/auth/login', { email, password: 'nope' }, fromAddress());
      return performance.now() - started;
    };
    // The fastest of three each, taken in turns: a moment of load on the machine (a CI run beside
    // it) made one known sign-in 72 ms against 17 ms, and one sample each failed the comparison.
    let knownMs = Number.POSITIVE_INFINITY;
    let unknownMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      knownMs = Math.min(knownMs, await timed(ADMIN.email));
      unknownMs = Math.min(unknownMs, await timed(`nobody-else-${i}@example.test`));
    }
    expect(unknownMs).toBeGreaterThan(knownMs / 4);
  });
});

describe('revocable, short-lived tokens', () => {
  it('issues access tokens of at most 15 minutes and a refresh cookie that is httpOnly, SameSite=Strict and scoped to auth', async () => {
    const res = await direct.app.inject({ method: 'POST', url: '/command/api/auth/login', payload: ADMIN });
    expect(res.statusCode).toBe(200);
    const claims = decodeJwt(JSON.parse(res.body).data.token);
    expect((claims.exp as number) - (claims.iat as number)).toBeLessThanOrEqual(15 * 60);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^lampyr_refresh=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/command\/api\/auth/);
  });

  it('renews with the refresh cookie, rotating it; a rotated cookie replayed later ends that sign-in', async () => {
    const c = new Client(direct.app);
    await c.login();
    const first = c.refreshCookie as string;
    const renewed = await c.call('POST', '/command/api/auth/refresh', {});
    expect(renewed.status).toBe(200);
    expect(c.refreshCookie).not.toBe(first);
    c.token = renewed.body.data.token;
    expect((await c.call('GET', '/query/api/auth/me')).status).toBe(200);
    const second = c.refreshCookie as string;
    // The stolen first cookie, replayed after the grace period: refused, and the family ends.
    await db().execute(
      sql`UPDATE refresh_tokens SET replaced_at = now() - interval '5 minutes' WHERE replaced_at IS NOT NULL`,
    );
    const thief = new Client(direct.app);
    thief.refreshCookie = first;
    expect((await thief.call('POST', '/command/api/auth/refresh', {})).status).toBe(401);
    c.refreshCookie = second;
    expect((await c.call('POST', '/command/api/auth/refresh', {})).status).toBe(401);
    // No cookie, a made-up cookie: refused.
    expect((await new Client(direct.app).call('POST', '/command/api/auth/refresh', {})).status).toBe(401);
    const forged = new Client(direct.app);
    forged.refreshCookie = 'x'.repeat(43);
    expect((await forged.call('POST', '/command/api/auth/refresh', {})).status).toBe(401);
  });

  it('refuses every token and refresh cookie of the user after a password change; the changing session continues', async () => {
    const a = await member('changer@example.test');
    const b = new Client(direct.app);
    await b.login('changer@example.test', 'member-password');
    const oldToken = a.token as string;
    const changed = await a.call('POST', '/command/api/auth/change-password', {
      currentPassword: 'member-password',
      newPassword: 'member-password-2',
    });
    expect(changed.status).toBe(200);
    const stolen = new Client(direct.app);
    stolen.token = oldToken;
    expect((await stolen.call('GET', '/query/api/auth/me')).status).toBe(401);
    expect((await b.call('GET', '/query/api/auth/me')).status).toBe(401);
    expect((await b.call('POST', '/command/api/auth/refresh', {})).status).toBe(401);
    a.token = changed.body.data.token;
    expect((await a.call('GET', '/query/api/auth/me')).status).toBe(200);
    expect((await a.call('POST', '/command/api/auth/refresh', {})).status).toBe(200);
  });

  it('refuses a token after a password reset', async () => {
    const c = await member('resetter@example.test');
    const before = mailsTo(direct.dataDir, 'resetter@example.test').length;
    await new Client(direct.app).call('POST', '/command/api/auth/forgot-password', { email: 'resetter@example.test' });
    const code = await lastCode(direct.dataDir, 'resetter@example.test', before);
    const reset = await new Client(direct.app).call('POST', '/command/api/auth/reset-password', {
      email: 'resetter@example.test',
      code,
      password: 'after-reset-1',
    });
    expect(reset.status).toBe(200);
    expect((await c.call('GET', '/query/api/auth/me')).status).toBe(401);
    expect((await c.call('POST', '/command/api/auth/refresh', {})).status).toBe(401);
  });

  it('refuses the token and refresh cookie after logout, and closes the open stream', async () => {
    const c = await member('leaver@example.test');
    const stream = await streamOf(c);
    const logout = await c.call('POST', '/command/api/auth/logout', {});
    expect(logout.status).toBe(200);
    expect(String(logout.raw)).not.toContain('eyJ');
    expect((await c.call('GET', '/query/api/auth/me')).status).toBe(401);
    // The cookie was cleared, and the old value is dead in the database too.
    const [left] = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM refresh_tokens r JOIN users u ON u.id = r.user_id WHERE u.email = 'leaver@example.test'`,
    );
    expect(left?.n).toBe(0);
    await vi.waitFor(() => expect(stream.ended).toBe(true), { timeout: 2000 });
    expect((await c.call('POST', '/query/api/stream/ticket', {})).status).toBe(401);
  });

  it('sees a token version bumped by another replica within seconds', async () => {
    const c = await member('elsewhere@example.test');
    expect((await c.call('GET', '/query/api/auth/me')).status).toBe(200);
    await db().execute(sql`UPDATE users SET token_version = token_version + 1 WHERE email = 'elsewhere@example.test'`);
    await vi.waitFor(async () => expect((await c.call('GET', '/query/api/auth/me')).status).toBe(401), {
      timeout: 4000,
      interval: 200,
    });
  });
});

describe('the live stream', () => {
  it('opens only with a fresh single-use ticket, never with a token in its URL', async () => {
    const c = await member('ticket@example.test');
    const ticket = (await c.call('POST', '/query/api/stream/ticket', {})).body.data.ticket as string;
    const first = await openStream(`${baseUrl}/query/api/stream?ticket=${ticket}`);
    expect(first.status).toBe(200);
    const replay = await openStream(`${baseUrl}/query/api/stream?ticket=${ticket}`);
    expect(replay.status).toBe(401);
    const late = (await c.call('POST', '/query/api/stream/ticket', {})).body.data.ticket as string;
    await db().execute(sql`UPDATE stream_tickets SET expires_at = now() - interval '1 second'`);
    expect((await openStream(`${baseUrl}/query/api/stream?ticket=${late}`)).status).toBe(401);
    const token = await openStream(`${baseUrl}/query/api/stream?token=${c.token}&accountId=${kadikoy}`);
    expect(token.status).toBe(401);
    for (const s of [first, replay, token]) s.close();
  });

  it('writes no token or ticket into the server log', async () => {
    logLines.length = 0;
    const c = await member('logged@example.test');
    const ticket = (await c.call('POST', '/query/api/stream/ticket', {})).body.data.ticket as string;
    const stream = await openStream(`${baseUrl}/query/api/stream?ticket=${ticket}`);
    // An old console still putting its token in the URL must not get it logged either.
    const old = await openStream(`${baseUrl}/query/api/stream?token=${c.token}&accountId=${kadikoy}`);
    await new Promise((r) => setTimeout(r, 100));
    stream.close();
    old.close();
    await new Promise((r) => setTimeout(r, 100));
    const log = logLines.join('');
    expect(log).toContain('/query/api/stream');
    expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    expect(log).not.toContain(c.token as string);
    expect(log).not.toContain(ticket);
    expect(log).not.toContain(c.refreshCookie as string);
  });

  it('sends each event only to roles that may read its resource', async () => {
    const [noValues] = await db()
      .insert(roles)
      .values({ name: 'Status watcher', permissions: { devices: ['read'], 'device-connection-status': ['read'] } })
      .returning();
    const watcher = await member('watcher@example.test', noValues?.id);
    const admin = await member('reader@example.test');
    const limited = await streamOf(watcher);
    const full = await streamOf(admin);
    live.publish(kadikoy, [valueEvent(1), statusEvent()]);
    await vi.waitFor(() => expect(full.events.map((e) => e.event)).toEqual(['value', 'status']));
    await vi.waitFor(() => expect(limited.events.map((e) => e.event)).toEqual(['status']));
    await new Promise((r) => setTimeout(r, 100));
    expect(limited.events.map((e) => e.event)).toEqual(['status']);
    limited.close();
    full.close();
  });

  it('closes a stream when its membership ends', async () => {
    const c = await member('removed@example.test');
    const stream = await streamOf(c);
    const user = (await userRow('removed@example.test')) as { id: number };
    await db().delete(usersRoles).where(eq(usersRoles.userId, user.id));
    await vi.waitFor(() => expect(stream.ended).toBe(true), { timeout: 15_000, interval: 200 });
  }, 20_000);

  it('drops a reader that does not keep up before its backlog grows without bound', async () => {
    const c = await member('slow@example.test');
    await vi.waitFor(() => expect(live.hasListeners(kadikoy)).toBe(false));
    const ticket = (await c.call('POST', '/query/api/stream/ticket', {})).body.data.ticket as string;
    let ended = false;
    const request = http.get(`${baseUrl}/query/api/stream?ticket=${ticket}`, (response) => {
      response.pause(); // never reads
      response.on('close', () => {
        ended = true;
      });
      response.on('error', () => {});
    });
    request.on('error', () => {});
    await vi.waitFor(() => expect(live.hasListeners(kadikoy)).toBe(true));
    const big = 'x'.repeat(64 * 1024);
    let published = 0;
    // Far more than the socket buffers and the cap hold: 64 MB if nobody stopped it.
    while (live.hasListeners(kadikoy) && published < 1024) {
      live.publish(kadikoy, [{ ...valueEvent(published), status: big } as LiveEvent]);
      published++;
      if (published % 16 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(live.hasListeners(kadikoy)).toBe(false);
    expect(published * big.length).toBeLessThan(64 * 1024 * 1024);
    expect(published).toBeGreaterThan(MAX_BUFFERED_BYTES / big.length);
    await vi.waitFor(() => expect(ended).toBe(true));
    request.destroy();
  });
});
