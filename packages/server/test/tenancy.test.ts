import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, countRows, lastCode, page, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let admin: Client;
let integrator: number;
let kadikoy: number;
let uskudar: number;
const roleIds: Record<string, number> = {};
let serial = 0;

beforeAll(async () => {
  t = await startTestApp();
  admin = new Client(t.app);
  await admin.login();
  integrator = t.seeded.integratorId;
  [kadikoy, uskudar] = t.seeded.subAccountIds as [number, number];
  const roles = await admin.list('roles', { filter: null, pageable: page(1, 100) });
  for (const r of roles.body.data.content) roleIds[r.name] = r.id;
});
afterAll(() => t.close());

async function rows<T = Record<string, unknown>>(query: string): Promise<T[]> {
  const result = await t.database.db.execute(sql.raw(query));
  return (result as unknown as { rows: T[] }).rows;
}
const one = async <T = Record<string, unknown>>(query: string) => (await rows<T>(query))[0] as T;
const accountRow = (id: number) =>
  one(
    `select account_id::int as account_id, is_sub_account, is_integrator, is_active, name from accounts where id = ${id}`,
  );
const userRow = (id: number) =>
  one(
    `select email, password_hash, role_id::int as role_id, is_platform_operator, first_name from users where id = ${id}`,
  );

/** A person an administrator invited into `accountId`, who chose a password with the e-mailed code. */
async function invited(accountId: number, role = 'Administrator', by = admin) {
  const email = `person-${Date.now()}-${serial++}@tenancy.test`;
  by.accountId = accountId;
  const created = await by.create('users', { firstName: 'Invited', lastName: 'Person', email, roleId: roleIds[role] });
  expect(created.status).toBe(201);
  const code = await lastCode(t.dataDir, email);
  const reset = await new Client(t.app).call('POST', '/command/api/auth/reset-password', {
    email,
    code,
    password: 'chosen-password-1',
  });
  expect(reset.status).toBe(200);
  const client = new Client(t.app);
  expect((await client.login(email, 'chosen-password-1')).status).toBe(200);
  client.accountId = accountId;
  return { client, id: created.body.data.id as number, email };
}

/** A person who signed up alone: an Administrator of an account of their own. */
async function selfRegistered() {
  const email = `self-${Date.now()}-${serial++}@tenancy.test`;
  const client = new Client(t.app);
  const body = {
    firstName: 'Self',
    lastName: 'Made',
    phoneNumber: '+90 555',
    title: 'Owner',
    email,
    password: 'self-made-pass',
  };
  expect((await client.call('POST', '/command/api/auth/register', body)).status).toBe(201);
  const code = await lastCode(t.dataDir, email);
  expect((await client.call('POST', '/command/api/auth/verify-otp', { email, code })).status).toBe(200);
  const login = await client.login(email, 'self-made-pass');
  client.accountId = login.body.data.accounts[0].id;
  return { client, id: login.body.data.user.id as number, accountId: client.accountId as number };
}

/** Memberships changed by SQL: a no-op write to an account drops the server's cached access. */
async function dropCachedAccess() {
  const saved = admin.accountId;
  admin.accountId = integrator;
  const record = (await admin.get('accounts', integrator)).body.data;
  expect((await admin.update('accounts', record)).status).toBe(200);
  admin.accountId = saved;
}

const platform = (c: Client, path: string, body: unknown) => c.call('POST', `/command/api/platform/${path}`, body);

describe('the self-made integrator', () => {
  it('cannot make its own account an integrator or move it under another', async () => {
    const self = await selfRegistered();
    const own = (await self.client.get('accounts', self.accountId)).body.data;
    const before = await accountRow(self.accountId);
    for (const change of [
      { isIntegrator: true },
      { accountId: integrator },
      { isSubAccount: true },
      { isActive: false },
    ]) {
      const res = await self.client.update('accounts', { ...own, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(Object.keys(res.body.error?.fields ?? {})).toEqual(Object.keys(change));
      expect(res.body.error?.fields?.[Object.keys(change)[0] as string]).toMatch(/only by a platform operator/);
    }
    expect(await accountRow(self.accountId)).toEqual(before);
    // The same values it already has are accepted (the console sends the record back), and nothing moves.
    const same = await self.client.update('accounts', { ...own, name: 'Renamed' });
    expect(same.status).toBe(200);
    expect(await accountRow(self.accountId)).toEqual({ ...before, name: 'Renamed' });
  });

  it('cannot create accounts, write roles or channel templates, or make itself a platform operator', async () => {
    const self = await selfRegistered();
    const accounts = await countRows(t.database, 'accounts');
    const created = await self.client.create('accounts', { name: 'My customer', isIntegrator: true });
    expect(created.status).toBe(403);
    expect(await countRows(t.database, 'accounts')).toBe(accounts);

    const rolesBefore = await rows('select id, name, permissions from roles order by id');
    const newRole = await self.client.create('roles', { name: 'Root', permissions: { '*': ['read'] } });
    expect(newRole.status).toBe(403);
    expect(newRole.body.error?.message).toBe('Only a platform operator may do this.');
    const adminRole = (await self.client.get('roles', roleIds.Administrator as number)).body.data;
    const rewrite = await self.client.update('roles', { ...adminRole, permissions: {} });
    expect(rewrite.status).toBe(403);
    expect(await rows('select id, name, permissions from roles order by id')).toEqual(rolesBefore);

    const templates = await self.client.list('device-channel-templates', { filter: null, pageable: page(1, 1) });
    const template = templates.body.data.content[0];
    expect(template).toBeDefined();
    const formulaBefore = await rows(
      `select formula, updated_at from device_channel_templates where id = ${template.id}`,
    );
    const formula = await self.client.update('device-channel-templates', { ...template, formula: 'x * 1000' });
    expect(formula.status).toBe(403);
    expect(await self.client.remove('device-channel-templates', template.id)).toMatchObject({ status: 403 });
    const count = await countRows(t.database, 'sub_device_channel_templates');
    const sub = await self.client.create('sub-device-channel-templates', { parentTemplateId: template.id });
    expect(sub.status).toBe(403);
    expect(await countRows(t.database, 'sub_device_channel_templates')).toBe(count);
    expect(await rows(`select formula, updated_at from device_channel_templates where id = ${template.id}`)).toEqual(
      formulaBefore,
    );
    for (const [resource, body] of [
      ['countries', { name: 'Atlantis' }],
      ['devices-types', { name: 'Fake' }],
      ['channel-value-types', { name: 'Fake' }],
    ] as const) {
      expect((await self.client.create(resource, body)).status, resource).toBe(403);
    }

    const grant = await platform(self.client, 'operators', { userId: self.id, isPlatformOperator: true });
    expect(grant.status).toBe(403);
    const me = (await self.client.get('users', self.id)).body.data;
    const generic = await self.client.update('users', { ...me, isPlatformOperator: true });
    expect(generic.status).toBe(200);
    expect((await userRow(self.id)).is_platform_operator).toBe(false);
    expect((await self.client.call('GET', '/query/api/auth/me')).body.data.user.isPlatformOperator).toBe(false);
  });
});

describe('the customer administrator and the integrator', () => {
  it('cannot take over the integrator account, its staff or the platform', async () => {
    const customer = await invited(kadikoy);
    const staff = await invited(integrator);
    // The integrator's staff member is also a member of the customer's account.
    await rows(
      `insert into users_roles (account_id, user_id, role_id) values (${kadikoy}, ${staff.id}, ${roleIds.Administrator})`,
    );
    const c = customer.client;
    const integratorBefore = await accountRow(integrator);
    const record = (await admin.get('accounts', integrator)).body.data;
    expect((await c.update('accounts', { ...record, name: 'Ours now' })).status).toBe(404);
    expect((await c.remove('accounts', integrator)).status).toBe(404);
    c.accountId = integrator;
    expect((await c.update('accounts', { ...record, name: 'Ours now' })).status).toBe(403);
    c.accountId = kadikoy;
    const own = (await c.get('accounts', kadikoy)).body.data;
    expect((await c.update('accounts', { ...own, accountId: null })).status).toBe(422);
    expect((await c.update('accounts', { ...own, isIntegrator: true })).status).toBe(422);
    expect((await c.remove('accounts', kadikoy)).status).toBe(403);
    expect(await accountRow(integrator)).toEqual(integratorBefore);

    const staffBefore = await userRow(staff.id);
    const target = (await c.get('users', staff.id)).body.data;
    const email = await c.update('users', { ...target, email: 'mine@evil.test' });
    expect(email.status).toBe(422);
    expect(email.body.error?.fields?.email).toMatch(/Only the user changes their e-mail/);
    const password = await c.update('users', { ...target, password: 'taken-over-1' });
    expect(password.status).toBe(422);
    expect(password.body.error?.fields?.password).toMatch(/Only the user sets their password/);
    const role = await c.update('users', { ...target, roleId: roleIds.Viewer, firstName: 'Demoted' });
    expect(role.status).toBe(403);
    expect(role.body.error?.message).toBe('This user also belongs to accounts outside yours.');
    const membership = (
      await rows<{ id: number; updated_at: string }>(
        `select id, updated_at from users_roles where user_id = ${staff.id} and account_id = ${kadikoy}`,
      )
    )[0] as { id: number; updated_at: string };
    const pairing = await c.update('users-roles', {
      id: Number(membership.id),
      userId: staff.id,
      roleId: roleIds.Viewer,
      updatedAt: new Date(membership.updated_at).toISOString(),
    });
    expect(pairing.status).toBe(403);
    expect(await userRow(staff.id)).toEqual(staffBefore);
    expect(await one(`select role_id::int as role_id from users_roles where id = ${membership.id}`)).toEqual({
      role_id: roleIds.Administrator,
    });
    // The staff member still signs in with their own password.
    expect((await new Client(t.app).login(staff.email, 'chosen-password-1')).status).toBe(200);

    expect((await platform(c, 'operators', { userId: customer.id, isPlatformOperator: true })).status).toBe(403);
    expect((await platform(c, 'accounts/integrator', { accountId: kadikoy, isIntegrator: true })).status).toBe(403);
    expect((await platform(c, 'accounts/parent', { accountId: kadikoy, parentId: null })).status).toBe(403);
    expect((await c.call('GET', '/query/api/platform/accounts')).status).toBe(403);
    expect((await userRow(customer.id)).is_platform_operator).toBe(false);
    expect(await accountRow(kadikoy)).toMatchObject({ account_id: integrator, is_integrator: false });
  });

  it('may edit the profile and role of a person wholly inside its account', async () => {
    const customer = await invited(kadikoy);
    const colleague = await invited(kadikoy, 'Viewer', customer.client);
    const record = (await customer.client.get('users', colleague.id)).body.data;
    const res = await customer.client.update('users', { ...record, firstName: 'Renamed', roleId: roleIds.Operator });
    expect(res.status).toBe(200);
    expect(await userRow(colleague.id)).toMatchObject({ first_name: 'Renamed', role_id: roleIds.Operator });
  });
});

describe("a sub-account's people", () => {
  const listed = async (c: Client) =>
    (await c.list('users', { filter: null, pageable: page(1, 500) })).body.data.content as {
      id: number;
      email: string;
      integratorStaff: boolean;
    }[];

  it('are its members and the integrator staff who act there, marked', async () => {
    const customer = await invited(kadikoy);
    const neighbour = await invited(uskudar);
    const staff = await invited(integrator);
    const adminId = (await admin.call('GET', '/query/api/auth/me')).body.data.user.id as number;
    const here = await listed(customer.client);
    const mark = (id: number) => here.find((u) => u.id === id)?.integratorStaff;
    expect(mark(customer.id)).toBe(false);
    expect(mark(adminId)).toBe(true);
    expect(mark(staff.id)).toBe(true);
    // Another municipality's members are not people of this one.
    expect(mark(neighbour.id)).toBeUndefined();
    // One at a time too, and in the integrator's own list nobody is its staff from elsewhere.
    expect((await customer.client.get('users', adminId)).body.data.integratorStaff).toBe(true);
    admin.accountId = integrator;
    const own = await listed(admin);
    expect(own.find((u) => u.id === adminId)?.integratorStaff).toBe(false);
    expect(own.some((u) => u.id === customer.id)).toBe(false);
    // The mark is worked out, not stored: it cannot be filtered or sorted on.
    const filtered = await customer.client.list('users', { filter: { integratorStaff: true }, pageable: page(1) });
    expect(filtered.status).toBe(400);
    const sorted = await customer.client.list('users', {
      filter: null,
      pageable: page(1, 10, ['integratorStaff,asc']),
    });
    expect(sorted.status).toBe(400);
  });

  it('do not include the integrator staff for editing or removing: they are managed in the integrator', async () => {
    const customer = await invited(kadikoy);
    const staff = await invited(integrator);
    const before = await userRow(staff.id);
    const memberships = () => rows(`select account_id::int, role_id::int from users_roles where user_id = ${staff.id}`);
    const kept = await memberships();
    const record = (await customer.client.get('users', staff.id)).body.data;
    for (const c of [customer.client, admin]) {
      c.accountId = kadikoy;
      const renamed = await c.update('users', { ...record, firstName: 'Renamed' });
      expect(renamed.status).toBe(403);
      expect(renamed.body.error?.message).toBe(
        "Invited Person works for the integrator: edit or remove them in the integrator's account.",
      );
      const demoted = await c.update('users', { ...record, roleId: roleIds.Viewer });
      expect(demoted.status).toBe(403);
      const removed = await c.remove('users', staff.id);
      expect(removed.status).toBe(403);
    }
    admin.language = 'tr';
    const turkish = await admin.remove('users', staff.id);
    expect(turkish.body.error?.message).toBe(
      'Invited Person entegratör personeli: onu entegratörün hesabında düzenleyin veya kaldırın.',
    );
    admin.language = undefined;
    expect(await userRow(staff.id)).toEqual(before);
    expect(await memberships()).toEqual(kept);
    // In the integrator's account they are managed as before.
    admin.accountId = integrator;
    const there = (await admin.get('users', staff.id)).body.data;
    const renamed = await admin.update('users', { ...there, firstName: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.integratorStaff).toBe(false);
  });
});

describe('a write to an account is checked against that account', () => {
  it('refuses an administrator of one account updating another it only views', async () => {
    const self = await selfRegistered();
    await rows(
      `insert into users_roles (account_id, user_id, role_id) values (${uskudar}, ${self.id}, ${roleIds.Viewer})`,
    );
    await dropCachedAccess();
    const c = new Client(t.app);
    await c.login((await userRow(self.id)).email as string, 'self-made-pass');
    c.accountId = self.accountId;
    const before = await accountRow(uskudar);
    const record = (await c.get('accounts', uskudar)).body.data;
    expect(record?.id).toBe(uskudar);
    const res = await c.update('accounts', { ...record, name: 'Taken' });
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('FORBIDDEN');
    expect(await accountRow(uskudar)).toEqual(before);
  });
});

describe('people: identity belongs to the person', () => {
  it('an administrator creates a user without a password; the invitation carries a code', async () => {
    admin.accountId = kadikoy;
    const email = `invite-${Date.now()}@tenancy.test`;
    const withPassword = await admin.create('users', {
      firstName: 'A',
      lastName: 'B',
      email,
      password: 'admin-chosen-1',
      roleId: roleIds.Viewer,
    });
    expect(withPassword.status).toBe(422);
    expect(Object.keys(withPassword.body.error?.fields ?? {})).toEqual(['password']);
    expect(await rows(`select id from users where email = '${email}'`)).toEqual([]);

    const person = await invited(kadikoy, 'Viewer');
    const login = await new Client(t.app).login(person.email, 'chosen-password-1');
    expect(login.body.data.user.emailVerified).toBe(true);
    expect(login.body.data.accounts.map((a: { id: number }) => a.id)).toEqual([kadikoy]);
  });

  it('a user changes their own e-mail only with a code sent to the new address', async () => {
    const person = await invited(kadikoy);
    const c = person.client;
    const newEmail = `moved-${Date.now()}@tenancy.test`;
    const wrongPassword = await c.call('POST', '/command/api/auth/change-email', { newEmail, password: 'nope-nope' });
    expect(wrongPassword.status).toBe(422);
    const taken = await c.call('POST', '/command/api/auth/change-email', {
      newEmail: 'admin@lampyr.local',
      password: 'chosen-password-1',
    });
    expect(taken.status).toBe(422);
    expect(Object.keys(taken.body.error?.fields ?? {})).toEqual(['newEmail']);
    const asked = await c.call('POST', '/command/api/auth/change-email', { newEmail, password: 'chosen-password-1' });
    expect(asked.status).toBe(200);
    expect((await userRow(person.id)).email).toBe(person.email);
    const code = await lastCode(t.dataDir, newEmail);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await c.call('POST', '/command/api/auth/confirm-email', { code: wrong })).status).toBe(422);
    expect((await userRow(person.id)).email).toBe(person.email);
    const confirmed = await c.call('POST', '/command/api/auth/confirm-email', { code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.user.email).toBe(newEmail);
    expect((await new Client(t.app).login(newEmail, 'chosen-password-1')).status).toBe(200);
    expect((await new Client(t.app).login(person.email, 'chosen-password-1')).status).toBe(401);
    // Not through the generic API, not even one's own.
    const me = (await c.get('users', person.id)).body.data;
    c.accountId = kadikoy;
    expect((await c.update('users', { ...me, email: 'other@tenancy.test' })).status).toBe(422);
  });
});

describe('sub-accounts', () => {
  it('are created under the integrator the caller acts in, without making the creator a member', async () => {
    admin.accountId = integrator;
    const created = await admin.create('accounts', { name: 'Beykoz Municipality' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ accountId: integrator, isSubAccount: true, isIntegrator: false });
    expect(await rows(`select id from users_roles where account_id = ${created.body.data.id}`)).toEqual([]);
    admin.accountId = created.body.data.id;
    expect((await admin.list('regions', { filter: null, pageable: page(1) })).status).toBe(200);
    admin.accountId = kadikoy;
    const nested = await admin.create('accounts', { name: 'Nested' });
    expect(nested.status).toBe(403);
    expect(nested.body.error?.message).toBe('Accounts are created from an integrator account.');
  });
});

describe('roles.permissions', () => {
  it('is validated on write with a message per field, in English and Turkish', async () => {
    admin.accountId = integrator;
    const count = await countRows(t.database, 'roles');
    const bad = [
      'everything',
      ['read'],
      { regions: ['read', 'fly'] },
      { regions: 'read,create' },
      { nosuch: ['read'] },
      { regions: ['read', 'read'] },
    ];
    for (const permissions of bad) {
      const res = await admin.create('roles', { name: `Bad ${serial++}`, permissions });
      expect(res.status, JSON.stringify(permissions)).toBe(422);
      expect(res.body.error?.fields?.permissions).toMatch(/^Permissions/);
    }
    admin.language = 'tr';
    const tr = await admin.create('roles', { name: 'Kötü', permissions: { nosuch: ['read'] } });
    expect(tr.body.error?.fields?.permissions).toBe('Yetkiler: nosuch bir kaynak değil');
    admin.language = undefined;
    expect(await countRows(t.database, 'roles')).toBe(count);
    const good = await admin.create('roles', {
      name: 'Region keeper',
      permissions: { '*': ['read'], regions: ['read', 'create', 'update', 'delete'] },
    });
    expect(good.status).toBe(201);
  });

  it('malformed in the database grants nothing, and never a 500', async () => {
    for (const junk of [`'"everything"'`, `'{"*": "read,create,update,delete"}'`, `'[1,2]'`, `'{"regions": [null]}'`]) {
      const name = `Junk ${serial++}`;
      const [role] = await rows<{ id: number }>(
        `insert into roles (name, permissions) values ('${name}', ${junk}::jsonb) returning id`,
      );
      const person = await invited(uskudar, 'Viewer');
      await rows(`update users_roles set role_id = ${role?.id} where user_id = ${person.id}`);
      await dropCachedAccess();
      const c = new Client(t.app);
      await c.login(person.email, 'chosen-password-1');
      c.accountId = uskudar;
      const regions = await countRows(t.database, 'regions');
      const list = await c.list('regions', { filter: null, pageable: page(1) });
      expect(list.status, junk).toBe(403);
      expect(list.body.error?.code).toBe('FORBIDDEN');
      const create = await c.create('regions', { name: 'X', cityId: 3, stateId: 1, countryId: 1 });
      expect(create.status).toBe(403);
      expect(await countRows(t.database, 'regions')).toBe(regions);
    }
  });
});

describe('platform operators', () => {
  it('grant and revoke the flag; the last one cannot be revoked', async () => {
    const person = await invited(kadikoy, 'Viewer');
    expect((await person.client.create('countries', { name: 'Narnia' })).status).toBe(403);
    const grant = await platform(admin, 'operators', { userId: person.id, isPlatformOperator: true });
    expect(grant.status).toBe(200);
    const c = new Client(t.app);
    await c.login(person.email, 'chosen-password-1');
    expect((await c.call('GET', '/query/api/auth/me')).body.data.user.isPlatformOperator).toBe(true);
    expect((await c.create('countries', { name: 'Narnia' })).status).toBe(201);
    expect((await platform(c, 'operators', { userId: person.id, isPlatformOperator: false })).status).toBe(200);
    // A change of operator status is a security edit: the person's sessions end with it.
    expect((await c.create('countries', { name: 'Narnia 2' })).status).toBe(401);
    await c.login(person.email, 'chosen-password-1');
    expect((await c.create('countries', { name: 'Narnia 2' })).status).toBe(403);

    const adminId = (await admin.call('GET', '/query/api/auth/me')).body.data.user.id;
    const last = await platform(admin, 'operators', { userId: adminId, isPlatformOperator: false });
    expect(last.status).toBe(409);
    expect((await userRow(adminId)).is_platform_operator).toBe(true);
  });

  it('set integrator, move accounts in the tree (no loops), and refuse bad bodies', async () => {
    expect((await platform(admin, 'accounts/parent', { accountId: integrator, parentId: kadikoy })).status).toBe(409);
    expect((await platform(admin, 'accounts/parent', { accountId: kadikoy, parentId: kadikoy })).status).toBe(409);
    const bad = await platform(admin, 'accounts/parent', { accountId: 'x', parentId: null });
    expect(bad.status).toBe(400);
    expect((await platform(admin, 'accounts/integrator', { accountId: 999_999, isIntegrator: true })).status).toBe(404);
    const moved = await platform(admin, 'accounts/parent', { accountId: uskudar, parentId: null });
    expect(moved.body.data).toMatchObject({ accountId: null, isSubAccount: false });
    admin.accountId = uskudar;
    expect((await admin.list('regions', { filter: null, pageable: page(1) })).status).toBe(403);
    admin.accountId = undefined;
    const back = await platform(admin, 'accounts/parent', { accountId: uskudar, parentId: integrator });
    expect(back.body.data).toMatchObject({ accountId: integrator, isSubAccount: true });
    admin.accountId = uskudar;
    expect((await admin.list('regions', { filter: null, pageable: page(1) })).status).toBe(200);
    const all = await admin.call('GET', '/query/api/platform/accounts');
    expect(all.body.data.find((a: { id: number }) => a.id === integrator)).toMatchObject({ isIntegrator: true });
  });
});

describe('deactivated accounts', () => {
  it('stop working: not offered at sign-in, ACCOUNT_FORBIDDEN in the API, sub-accounts of an inactive integrator too', async () => {
    const member = await invited(uskudar, 'Viewer');
    const kadikoyMember = await invited(kadikoy, 'Viewer');
    expect((await platform(admin, 'accounts/active', { accountId: uskudar, isActive: false })).status).toBe(200);
    const login = await new Client(t.app).login(member.email, 'chosen-password-1');
    expect(login.body.data.accounts).toEqual([]);
    const c = new Client(t.app);
    c.token = login.body.data.token;
    c.accountId = uskudar;
    const refused = await c.list('regions', { filter: null, pageable: page(1) });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('ACCOUNT_FORBIDDEN');
    admin.accountId = uskudar;
    expect((await admin.list('regions', { filter: null, pageable: page(1) })).body.error?.code).toBe(
      'ACCOUNT_FORBIDDEN',
    );
    admin.accountId = undefined;
    const adminAccounts = (await admin.call('GET', '/query/api/auth/me')).body.data.accounts.map(
      (a: { id: number }) => a.id,
    );
    expect(adminAccounts).not.toContain(uskudar);

    // An inactive integrator: its own staff lose it and its sub-accounts; a sub-account's own members keep theirs.
    expect((await platform(admin, 'accounts/active', { accountId: integrator, isActive: false })).status).toBe(200);
    admin.accountId = kadikoy;
    expect((await admin.list('regions', { filter: null, pageable: page(1) })).body.error?.code).toBe(
      'ACCOUNT_FORBIDDEN',
    );
    expect((await kadikoyMember.client.list('regions', { filter: null, pageable: page(1) })).status).toBe(200);
    // The platform operator still reaches the platform routes, and turns both back on.
    admin.accountId = undefined;
    expect((await platform(admin, 'accounts/active', { accountId: integrator, isActive: true })).status).toBe(200);
    expect((await platform(admin, 'accounts/active', { accountId: uskudar, isActive: true })).status).toBe(200);
    c.accountId = uskudar;
    expect((await c.list('regions', { filter: null, pageable: page(1) })).status).toBe(200);
  });
});
