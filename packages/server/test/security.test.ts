import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, countRows, JWT_SECRET, lastCode, page, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let admin: Client;
let kadikoy: number;
let uskudar: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = new Client(t.app);
  await admin.login();
  [kadikoy, uskudar] = t.seeded.subAccountIds as [number, number];
});
afterAll(() => t.close());

/** A user who is a member of Üsküdar only. */
async function uskudarOperator(): Promise<Client> {
  admin.accountId = uskudar;
  const roles = await admin.list('roles', { filter: { name: 'Operator' }, pageable: page(1) });
  const email = `op-${Date.now()}-${Math.random().toString(36).slice(2)}@uskudar.test`;
  const created = await admin.create('users', {
    firstName: 'Ülkü',
    lastName: 'Operator',
    email,
    roleId: roles.body.data.content[0].id,
  });
  expect(created.status).toBe(201);
  // An administrator-made user chooses a password with the code of the invitation e-mail.
  const code = await lastCode(t.dataDir, email);
  const reset = { email, code, password: 'operator-pass' };
  expect((await admin.call('POST', '/command/api/auth/reset-password', reset)).status).toBe(200);
  const op = new Client(t.app);
  expect((await op.login(created.body.data.email, 'operator-pass')).status).toBe(200);
  op.accountId = uskudar;
  return op;
}

describe('every route is guarded or declared public', () => {
  it('lists each route with its access, and every non-public route refuses a call without a token', async () => {
    const routes = t.app.routeTable();
    expect(routes.length).toBeGreaterThan(50);
    const publicRoutes = routes.filter((r) => r.access === 'public').map((r) => `${r.method} ${r.url}`);
    // Outside the two APIs live the console's files, docs, health and locales; inside, only sign-in
    // (and renewal by the refresh cookie) and the stream, opened by a single-use ticket.
    const publicApi = publicRoutes.filter((r) => /\/(query|command)\/api\//.test(r));
    expect(publicApi.sort()).toEqual(
      [
        ...['forgot-password', 'login', 'refresh', 'register', 'resend-otp', 'reset-password', 'verify-otp'].map(
          (name) => `POST /command/api/auth/${name}`,
        ),
        'GET /query/api/stream',
        'HEAD /query/api/stream',
      ].sort(),
    );
    expect(publicRoutes).not.toContain('POST /command/api/auth/change-password');
    for (const route of routes.filter((r) => r.access === 'user')) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        const url = route.url.replace(':id', '1');
        const res = await t.app.inject({ method: method as 'GET', url, payload: method === 'GET' ? undefined : {} });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(JSON.parse(res.body).error.code).toBe('UNAUTHENTICATED');
      }
    }
  });
});

describe('tokens', () => {
  it('refuses a tampered token', async () => {
    const c = new Client(t.app);
    const [header, payload, signature] = (admin.token as string).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: '2', iss: 'lampyr', exp: 4_000_000_000 })).toString('base64url');
    c.token = `${header}.${forged}.${signature}`;
    expect((await c.call('GET', '/query/api/auth/me')).status).toBe(401);
    c.token = `${header}.${payload}.${signature?.slice(0, -2)}xx`;
    expect((await c.call('GET', '/query/api/auth/me')).status).toBe(401);
  });

  it('refuses an expired token and one signed with another secret', async () => {
    const c = new Client(t.app);
    c.token = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('lampyr')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(JWT_SECRET);
    expect((await c.call('GET', '/query/api/auth/me')).status).toBe(401);
    c.token = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('lampyr')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    expect((await c.call('GET', '/query/api/auth/me')).status).toBe(401);
  });
});

describe('tenant isolation', () => {
  it('an integrator member may act in its sub-accounts', async () => {
    admin.accountId = kadikoy;
    const res = await admin.list('regions', { filter: null, pageable: page(1, 10, ['name,asc']) });
    expect(res.body.data.content.map((r: { name: string }) => r.name)).toEqual(['Caferağa', 'Moda']);
  });

  it('needs an account for account-scoped data', async () => {
    admin.accountId = undefined;
    const res = await admin.list('regions', { filter: null, pageable: page(1) });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('ACCOUNT_REQUIRED');
  });

  it('refuses an account the user is not a member of, and a malformed one', async () => {
    const op = await uskudarOperator();
    op.accountId = kadikoy;
    const res = await op.list('regions', { filter: null, pageable: page(1) });
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('ACCOUNT_FORBIDDEN');
    op.accountId = 'abc' as never;
    expect((await op.list('regions', { filter: null, pageable: page(1) })).status).toBe(403);
  });

  it('answers 404 for a record of another account and cannot change or delete it', async () => {
    admin.accountId = kadikoy;
    const regions = await admin.list('regions', { filter: { name: 'Moda' }, pageable: page(1) });
    const moda = regions.body.data.content[0];
    const op = await uskudarOperator();
    expect((await op.get('regions', moda.id)).status).toBe(404);
    expect((await op.update('regions', { ...moda, name: 'Taken' })).status).toBe(404);
    expect((await op.remove('regions', moda.id)).status).toBe(404);
    admin.accountId = kadikoy;
    const after = await admin.get('regions', moda.id);
    expect(after.body.data).toEqual(moda);
  });

  it('cannot point a record at another account’s record', async () => {
    admin.accountId = kadikoy;
    const [region] = (await admin.list('regions', { filter: { name: 'Moda' }, pageable: page(1) })).body.data.content;
    const op = await uskudarOperator();
    const user = await op.create('users-roles', { userId: 1, roleId: region.id });
    expect(user.status).toBe(403); // an operator may not pair users at all
    // The parent of a new account is the integrator the caller acts in, never one from the body.
    admin.accountId = t.seeded.integratorId;
    const foreignAccount = await admin.create('accounts', { name: 'Child', accountId: 999_999 });
    expect(foreignAccount.status).toBe(422);
    expect(Object.keys(foreignAccount.body.error?.fields ?? {})).toEqual(['accountId']);
  });

  it('enforces role permissions on the server', async () => {
    const op = await uskudarOperator();
    const ok = await op.create('regions', { name: 'Çengelköy', cityId: 3, stateId: 1, countryId: 1 });
    expect(ok.status).toBe(201);
    expect(ok.body.data.accountId).toBe(uskudar);
    const refused = await op.create('system-log-settings', { name: 'x', level: 'info', retentionDays: 3 });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('FORBIDDEN');
    const countries = await op.create('countries', { name: 'Nowhere' });
    expect(countries.status).toBe(403);
  });
});

describe('hostile and malformed input', () => {
  it('treats a field name carrying SQL as an unknown field and changes nothing', async () => {
    admin.accountId = t.seeded.integratorId;
    const before = await countRows(t.database, 'countries');
    const attacks = [
      { filter: { 'name; DROP TABLE countries; --': 'x' }, pageable: page(1) },
      { filter: null, detailFilter: [{ field: 'name" OR 1=1 --', operator: 'eq', value: 'x' }], pageable: page(1) },
      { filter: null, pageable: page(1, 10, ['name;delete from countries']) },
      { filter: null, selectedColumns: { '(select password_hash from users)': true }, pageable: page(1) },
    ];
    for (const body of attacks) {
      const res = await admin.list('countries', body);
      expect(res.status).toBe(400);
      expect(['INVALID_FIELD', 'BAD_REQUEST']).toContain(res.body.error?.code);
      expect(res.raw).not.toMatch(/syntax error|relation "|at character|postgres/i);
    }
    const value = await admin.list('countries', { filter: { name: "x' OR '1'='1" }, pageable: page(1) });
    expect(value.body.data.totalElements).toBe(0);
    expect(await countRows(t.database, 'countries')).toBe(before);
  });

  it('answers malformed JSON, huge pages and wrong types with clear 4xx', async () => {
    admin.accountId = t.seeded.integratorId;
    const bad = await admin.call('POST', '/query/api/countries', '{"filter": nul');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe('The request body is not valid JSON.');
    const huge = await admin.list('countries', { filter: null, pageable: page(1, 1_000_000) });
    expect(huge.status).toBe(400);
    expect(huge.body.error?.message).toContain('pageable.size');
    const wrong = await admin.list('countries', { filter: 'all', pageable: { page: 'one', size: 10 } });
    expect(wrong.status).toBe(400);
    const big = await admin.call('POST', '/command/api/countries', { name: 'x'.repeat(2_000_000) });
    expect(big.status).toBe(413 === big.status ? 413 : 400);
    const array = await admin.call('POST', '/command/api/countries', [1, 2]);
    expect(array.status).toBe(400);
  });

  it('never sends a password hash or a stack trace', async () => {
    admin.accountId = t.seeded.integratorId;
    const users = await admin.list('users', { filter: null, pageable: page(1, 100) });
    const me = await admin.call('GET', '/query/api/auth/me');
    const login = await new Client(t.app).login();
    for (const res of [users, me, login]) {
      expect(res.raw).not.toMatch(/argon2|passwordHash|password_hash/);
    }
    const hashColumn = await admin.list('users', {
      filter: null,
      selectedColumns: { passwordHash: true },
      pageable: page(1),
    });
    expect(hashColumn.status).toBe(400);
    const secretFilter = await admin.list('users', {
      filter: null,
      detailFilter: [{ field: 'password', operator: 'startsWith', value: '$argon2' }],
      pageable: page(1),
    });
    expect(secretFilter.status).toBe(400);
    const broken = await admin.call('POST', '/query/api/countries', {
      filter: null,
      pageable: { page: 1, size: 10, sort: 5 },
    });
    expect(broken.raw).not.toMatch(/at .*\.ts:\d+|stack/i);
  });
});
