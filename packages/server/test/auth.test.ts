import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, lastCode, mailsTo, page, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const person = (email: string) => ({
  firstName: 'Ayşe',
  lastName: 'Yılmaz',
  phoneNumber: '+90 555 000 00 00',
  title: 'Engineer',
  email,
  password: 'street-lights-1',
});

describe('register → code → verify → login', () => {
  it('signs up a person with an e-mailed one-time code', async () => {
    const c = new Client(t.app);
    const email = 'ayse@example.test';
    const registered = await c.call('POST', '/command/api/auth/register', person(email));
    expect(registered.status).toBe(201);
    const early = await c.login(email, 'street-lights-1');
    expect(early.status).toBe(403);
    expect(early.body.error?.message).toBe('Please verify your email first.');

    const code = await lastCode(t.dataDir, email);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await c.call('POST', '/command/api/auth/verify-otp', { email, code: wrong })).status).toBe(422);
    const verified = await c.call('POST', '/command/api/auth/verify-otp', { email, code });
    expect(verified.status).toBe(200);
    // Single use.
    expect((await c.call('POST', '/command/api/auth/verify-otp', { email, code })).status).toBe(422);

    const login = await c.login(email, 'street-lights-1');
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ email, firstName: 'Ayşe', name: 'Ayşe Yılmaz', emailVerified: true });
    expect(login.body.data.accounts).toHaveLength(1);
    expect(login.body.data.accounts[0].name).toBe('Ayşe Yılmaz');
    expect(login.raw).not.toContain('password');

    const me = await c.call('GET', '/query/api/auth/me');
    expect(me.body.data.user.email).toBe(email);
    c.accountId = login.body.data.accounts[0].id;
    const own = await c.list('regions', { filter: null, pageable: page(1) });
    expect(own.body.data).toEqual({ content: [], totalElements: 0 });
  });

  it('answers a second registration of a verified address as any other, and mails its owner instead', async () => {
    const before = mailsTo(t.dataDir, 'admin@lampyr.local').length;
    const res = await new Client(t.app).call('POST', '/command/api/auth/register', person('admin@lampyr.local'));
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ email: 'admin@lampyr.local', verificationRequired: true });
    await vi.waitFor(() => expect(mailsTo(t.dataDir, 'admin@lampyr.local').length).toBe(before + 1));
    expect(mailsTo(t.dataDir, 'admin@lampyr.local').at(-1)).toContain('already has an account');
  });

  it('validates the registration form', async () => {
    const res = await new Client(t.app).call('POST', '/command/api/auth/register', {
      ...person('x@example.test'),
      firstName: '',
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain('firstName');
  });

  it('lets a code expire', async () => {
    const c = new Client(t.app);
    const email = 'late@example.test';
    await c.call('POST', '/command/api/auth/register', person(email));
    const code = await lastCode(t.dataDir, email);
    await t.database.db.execute(sql`update one_time_codes set expires_at = now() - interval '1 minute'`);
    expect((await c.call('POST', '/command/api/auth/verify-otp', { email, code })).status).toBe(422);
    const before = mailsTo(t.dataDir, email).length;
    await c.call('POST', '/command/api/auth/resend-otp', { email });
    const fresh = await lastCode(t.dataDir, email, before);
    expect((await c.call('POST', '/command/api/auth/verify-otp', { email, code: fresh })).status).toBe(200);
  });

  it('kills a code after five wrong tries', async () => {
    const c = new Client(t.app);
    const email = 'guess@example.test';
    await c.call('POST', '/command/api/auth/register', person(email));
    const code = await lastCode(t.dataDir, email);
    const wrong = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) await c.call('POST', '/command/api/auth/verify-otp', { email, code: wrong });
    expect((await c.call('POST', '/command/api/auth/verify-otp', { email, code })).status).toBe(422);
  });
});

describe('passwords', () => {
  it('forgot → reset → login with the new password', async () => {
    const c = new Client(t.app);
    const email = 'admin@lampyr.local';
    expect((await c.call('POST', '/command/api/auth/forgot-password', { email })).status).toBe(200);
    const unknown = await c.call('POST', '/command/api/auth/forgot-password', { email: 'nobody@example.test' });
    expect(unknown.status).toBe(200);
    const code = await lastCode(t.dataDir, email);
    const reset = await c.call('POST', '/command/api/auth/reset-password', { email, code, password: 'brand-new-pass' });
    expect(reset.status).toBe(200);
    expect((await c.login(email, 'lampyr-admin')).status).toBe(401);
    expect((await c.login(email, 'brand-new-pass')).status).toBe(200);
  });

  it('changes the password of the signed-in user after checking the current one', async () => {
    const c = new Client(t.app);
    await c.login('admin@lampyr.local', 'brand-new-pass');
    const wrong = await c.call('POST', '/command/api/auth/change-password', {
      currentPassword: 'nope',
      newPassword: 'another-pass-1',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error?.fields?.currentPassword).toBe('The current password is wrong.');
    const ok = await c.call('POST', '/command/api/auth/change-password', {
      currentPassword: 'brand-new-pass',
      newPassword: 'another-pass-1',
    });
    expect(ok.status).toBe(200);
    expect((await c.login('admin@lampyr.local', 'another-pass-1')).status).toBe(200);
  });

  it('stores argon2id hashes only', async () => {
    const result = await t.database.db.execute(sql`select password_hash from users`);
    const rows = (result as unknown as { rows: { password_hash: string }[] }).rows;
    for (const r of rows) expect(r.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('rate limits', () => {
  it('answers 429 after twenty sign-ins a minute from one address, whatever the e-mail', async () => {
    const c = new Client(t.app);
    const statuses: number[] = [];
    // Earlier tests of this file signed in from the same address, so the limit comes at most 21 calls in.
    for (let i = 0; i < 21; i++) statuses.push((await c.login(`victim${i}@example.test`, 'wrong')).status);
    const first = statuses.indexOf(429);
    expect(first).toBeGreaterThan(0);
    expect(statuses.slice(0, first).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(first).every((s) => s === 429)).toBe(true);
    const limited = await c.login('victim@example.test', 'wrong');
    expect(limited.body.error?.code).toBe('RATE_LIMITED');
  });

  it('limits code attempts too', async () => {
    const c = new Client(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await c.call('POST', '/command/api/auth/verify-otp', { email: 'x@example.test', code: '123456' })).status,
      );
    }
    const first = statuses.indexOf(429);
    expect(first).toBeGreaterThan(0);
    expect(statuses.slice(0, first).every((s) => s === 422)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
