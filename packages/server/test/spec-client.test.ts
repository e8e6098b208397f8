import { CONSTANTS } from '@lampyr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * A client written from SPEC §7 alone, over real HTTP: base URLs `{host}/api` for both APIs,
 * the three headers, the selected account stored as an object with id or as a bare id string.
 */
class SpecClient {
  storage = new Map<string, string>();
  constructor(
    private readonly queryUrl: string,
    private readonly commandUrl: string,
  ) {}

  private headers(): Record<string, string> {
    const raw = this.storage.get('selectedAccount');
    let accountId = '';
    if (raw) {
      try {
        const parsed = JSON.parse(raw);
        accountId = String(typeof parsed === 'object' && parsed ? parsed.id : parsed);
      } catch {
        accountId = raw;
      }
    }
    return {
      Authorization: `Bearer ${this.storage.get('authToken')}`,
      'X-Account-Id': accountId,
      'Content-Type': 'application/json',
    };
  }

  async send(base: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${base}/${path}`, {
      method,
      headers: this.headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }

  list(prefix: string) {
    return this.send(this.queryUrl, 'POST', prefix, {
      filter: null,
      detailFilter: [],
      selectedColumns: null,
      pageable: { page: CONSTANTS.defaultTableParams.page, size: CONSTANTS.defaultTableParams.size, sort: [] },
    });
  }
  fetchOne(prefix: string, id: number) {
    return this.send(this.queryUrl, 'GET', `${prefix}/${id}`);
  }
  fetchAll(prefix: string) {
    return this.send(this.queryUrl, 'POST', `${prefix}/search`, {
      filters: [],
      logic: 'AND',
      page: CONSTANTS.fetchAll.page,
      size: CONSTANTS.fetchAll.size,
      sortDirection: CONSTANTS.fetchAll.sortDirection,
    });
  }
  pairingSearch(prefix: string, filter: Record<string, unknown>) {
    return this.send(this.queryUrl, 'POST', `${prefix}/search`, {
      filter,
      pageable: {
        page: CONSTANTS.subChannelPairingSearch.page,
        size: CONSTANTS.subChannelPairingSearch.size,
        sort: [],
      },
    });
  }
  aggregate(prefix: string, aggregations: unknown[]) {
    return this.send(this.queryUrl, 'POST', `${prefix}/aggregate`, { filters: [], logic: 'AND', aggregations });
  }
  create(prefix: string, data: object) {
    return this.send(this.commandUrl, 'POST', prefix, data);
  }
  update(prefix: string, data: object) {
    return this.send(this.commandUrl, 'PUT', prefix, data);
  }
  remove(prefix: string, id: number) {
    return this.send(this.commandUrl, 'DELETE', prefix, { id });
  }
}

let t: TestApp;
let client: SpecClient;

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const config = await (await fetch(`${address}/config.json`)).json();
  expect(config.queryUrl).toMatch(/\/query\/api$/);
  // Relative to the page, as the browser resolves them.
  const queryUrl = new URL(config.queryUrl, address).href;
  const commandUrl = new URL(config.commandUrl, address).href;
  client = new SpecClient(queryUrl, commandUrl);
  const login = await fetch(`${commandUrl}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'admin@lampyr.local', password: 'lampyr-admin' }),
  });
  const { data } = await login.json();
  // What the console stores after sign-in (SPEC §3 storage keys).
  client.storage.set('authToken', data.token);
  client.storage.set('userData', JSON.stringify(data.user));
  client.storage.set('userId', String(data.user.id));
  client.storage.set('accounts', JSON.stringify(data.accounts));
  client.storage.set('isAuthenticated', 'true');
  const kadikoy = data.accounts.find((a: { name: string }) => a.name === 'Kadıköy Municipality');
  client.storage.set('selectedAccount', JSON.stringify(kadikoy));
});
afterAll(() => t.close());

describe('a client written from SPEC §7', () => {
  it('lists with filter null and default table parameters', async () => {
    const res = await client.list('regions');
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data.totalElements).toBe(2);
    expect(res.json.data.content).toHaveLength(2);
  });

  it('sends the selected account stored as a bare id string too', async () => {
    const stored = JSON.parse(client.storage.get('selectedAccount') as string);
    client.storage.set('selectedAccount', String(stored.id));
    const res = await client.list('regions');
    expect(res.json.data.totalElements).toBe(2);
    client.storage.set('selectedAccount', JSON.stringify(stored));
  });

  it('fetches all with page 0, size 1000, DESC', async () => {
    const res = await client.fetchAll('cities');
    expect(res.status).toBe(200);
    const ids = res.json.data.content.map((c: { id: number }) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(res.json.data.totalElements).toBe(ids.length);
  });

  it('runs a sub-channel-style pairing search with pageable page 0', async () => {
    const res = await client.pairingSearch('cities', { stateId: 1, countryId: 1 });
    expect(res.status).toBe(200);
    expect(res.json.data.content.map((c: { name: string }) => c.name).sort()).toEqual(
      ['Beşiktaş', 'Kadıköy', 'Üsküdar', 'İstanbul'].sort(),
    );
  });

  it('creates, fetches, updates and deletes through the command API', async () => {
    const created = await client.create('regions', { name: 'Fenerbahçe', cityId: 2, stateId: 1, countryId: 1 });
    expect(created.status).toBe(201);
    const one = await client.fetchOne('regions', created.json.data.id);
    expect(one.json.data.name).toBe('Fenerbahçe');
    const updated = await client.update('regions', { ...one.json.data, notes: 'Coastal park lighting' });
    expect(updated.json.data.notes).toBe('Coastal park lighting');
    const removed = await client.remove('regions', created.json.data.id);
    expect(removed.json).toEqual({ success: true, data: { id: created.json.data.id } });
  });

  it('aggregates with filters, logic AND and aggregations', async () => {
    const res = await client.aggregate('regions', [{ field: 'id', fn: 'count', as: 'regions' }]);
    expect(res.json).toEqual({ success: true, data: { rows: [{ regions: 2 }] } });
  });
});
