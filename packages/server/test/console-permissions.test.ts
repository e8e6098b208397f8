import { catalogue } from '@lampyr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, lastCode, page, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * The permissions `GET /query/api/auth/me` gives the console are what the server enforces: for
 * every catalogue entity and action, a call the answer allows passes the access check (whatever
 * the body then makes of it) and a call it does not allow is refused.
 */
let t: TestApp;
let admin: Client;
const roleIds: Record<string, number> = {};
let serial = 0;

beforeAll(async () => {
  t = await startTestApp();
  admin = new Client(t.app);
  await admin.login();
  const roles = await admin.list('roles', { filter: null, pageable: page(1, 100) });
  for (const r of roles.body.data.content) roleIds[r.name] = r.id;
});
afterAll(() => t.close());

async function invited(accountId: number, role: string) {
  const email = `perm-${Date.now()}-${serial++}@permissions.test`;
  admin.accountId = accountId;
  const created = await admin.create('users', { firstName: 'Perm', lastName: role, email, roleId: roleIds[role] });
  expect(created.status).toBe(201);
  const code = await lastCode(t.dataDir, email);
  await new Client(t.app).call('POST', '/command/api/auth/reset-password', { email, code, password: 'perm-pass-123' });
  const client = new Client(t.app);
  expect((await client.login(email, 'perm-pass-123')).status).toBe(200);
  client.accountId = accountId;
  return client;
}

const refused = (status: number, code?: string) => status === 403 || code === 'ACCOUNT_REQUIRED';

/** Whether the server lets the call past its access check. */
async function passes(client: Client, name: string, action: string): Promise<boolean> {
  const res =
    action === 'read'
      ? await client.list(name, { filter: null, pageable: page(1, 1) })
      : action === 'create'
        ? await client.create(name, { __probe: 'x' })
        : action === 'update'
          ? await client.update(name, { __probe: 'x' })
          : name === 'overrides'
            ? await client.call('DELETE', '/command/api/overrides/2000000000', {})
            : await client.remove(name, 2_000_000_000);
  expect(res.status, `${name} ${action}: ${res.raw.slice(0, 200)}`).toBeLessThan(500);
  return !refused(res.status, res.body.error?.code);
}

async function checkAgainstServer(client: Client) {
  const me = await client.call('GET', '/query/api/auth/me');
  expect(me.status).toBe(200);
  const permissions = me.body.data.permissions as Record<string, string[]>;
  expect(Object.keys(permissions).sort()).toEqual(catalogue.map((r) => r.name).sort());
  const mismatches: string[] = [];
  for (const resource of catalogue) {
    for (const action of ['read', 'create', 'update', 'delete']) {
      // A new account is only made by an integrator's staff: the policy answers after the role check.
      if (resource.name === 'accounts' && action === 'create') continue;
      const exposed = permissions[resource.name]?.includes(action) ?? false;
      if (exposed !== (await passes(client, resource.name, action)))
        mismatches.push(`${resource.name} ${action}: exposed ${exposed}`);
    }
  }
  expect(mismatches).toEqual([]);
  return permissions;
}

describe('the permissions the console is given', () => {
  it('match the server for a platform operator in the integrator account', async () => {
    const client = new Client(t.app);
    await client.login();
    client.accountId = t.seeded.integratorId;
    const permissions = await checkAgainstServer(client);
    expect(permissions.countries).toEqual(['read', 'create', 'update', 'delete']);
    expect(permissions.accounts).toContain('create');
    expect(permissions.sunsetsunrises).toEqual(['read']);
  });

  it("match the server for a sub-account's administrator, who may not write shared reference data", async () => {
    const sub = t.seeded.subAccountIds[0] as number;
    const client = await invited(sub, 'Administrator');
    const permissions = await checkAgainstServer(client);
    for (const shared of ['countries', 'states', 'cities', 'roles', 'devices-types', 'sunsetsunrises'])
      expect(permissions[shared], shared).toEqual(['read']);
    expect(permissions.devices).toEqual(['read', 'create', 'update', 'delete']);
    // Not an integrator: no new sub-accounts.
    expect(permissions.accounts).not.toContain('create');
    const made = await client.create('accounts', { name: 'Not allowed' });
    expect(made.status).toBe(403);
  });

  it('match the server for an operator and a viewer', async () => {
    const operator = await checkAgainstServer(await invited(t.seeded.integratorId, 'Operator'));
    const viewer = await checkAgainstServer(await invited(t.seeded.integratorId, 'Viewer'));
    for (const [name, actions] of Object.entries(viewer)) expect(actions, name).toEqual(['read']);
    expect(operator.users).not.toContain('create');
  });

  it('without an account, only shared reference data may be read', async () => {
    const client = new Client(t.app);
    await client.login();
    const me = await client.call('GET', '/query/api/auth/me');
    const permissions = me.body.data.permissions as Record<string, string[]>;
    expect(permissions.devices).toEqual([]);
    expect(permissions.countries).toContain('read');
  });

  it("refuses another account's id in the header instead of answering its permissions", async () => {
    const sub = t.seeded.subAccountIds[1] as number;
    const client = await invited(t.seeded.subAccountIds[0] as number, 'Administrator');
    client.accountId = sub;
    const me = await client.call('GET', '/query/api/auth/me');
    expect(me.status).toBe(403);
  });
});
