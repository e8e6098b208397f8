import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, page, startTestApp, type TestApp } from './support/test-app.ts';

/** The generic path, tested once through real HTTP handling on a real database. */
let t: TestApp;
let api: Client;
let countryId: number;
let stateId: number;
const cityIds: number[] = [];

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  api.accountId = t.seeded.integratorId;
  const country = await api.create('countries', { name: 'Testland' });
  countryId = country.body.data.id;
  const state = await api.create('states', { name: 'Test State', countryId });
  stateId = state.body.data.id;
  const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf'];
  for (const [i, name] of names.entries()) {
    const res = await api.create('cities', { name, stateId, countryId, latitude: 10 + i, longitude: 20 + i });
    expect(res.status).toBe(201);
    cityIds.push(res.body.data.id);
  }
});
afterAll(() => t.close());

const inState = (extra: object[] = []) => [{ field: 'stateId', operator: 'eq', value: stateId }, ...extra];
const names = (res: { body: { data?: { content: { name: string }[] } } }) => res.body.data?.content.map((c) => c.name);

describe('paging', () => {
  it('counts list pages from 1 and search pages from 0', async () => {
    const list1 = await api.list('cities', { filter: { stateId }, pageable: page(1, 3, ['name,asc']) });
    expect(names(list1)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(list1.body.data.totalElements).toBe(7);
    const list3 = await api.list('cities', { filter: { stateId }, pageable: page(3, 3, ['name,asc']) });
    expect(names(list3)).toEqual(['Golf']);
    const search0 = await api.search('cities', { filter: { stateId }, pageable: page(0, 3, ['name,asc']) });
    expect(names(search0)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    const service1 = await api.search('cities', {
      filters: inState(),
      page: 1,
      size: 3,
      sortBy: 'name',
      sortDirection: 'ASC',
    });
    expect(names(service1)).toEqual(['Delta', 'Echo', 'Foxtrot']);
    expect(service1.body.data.totalElements).toBe(7);
  });

  it('refuses page 0 in a list call and sizes beyond 1000', async () => {
    expect((await api.list('cities', { filter: null, pageable: page(0) })).status).toBe(400);
    expect((await api.list('cities', { filter: null, pageable: page(1, 1001) })).status).toBe(400);
    expect((await api.search('cities', { filters: [], page: 0, size: 5000 })).status).toBe(400);
  });
});

describe('sorting', () => {
  it('sorts by any field in either direction, id breaking ties', async () => {
    const desc = await api.list('cities', { filter: { stateId }, pageable: page(1, 7, ['latitude,desc']) });
    expect(names(desc)).toEqual(['Golf', 'Foxtrot', 'Echo', 'Delta', 'Charlie', 'Bravo', 'Alpha']);
    const byId = await api.search('cities', { filters: inState(), sortDirection: 'DESC', size: 2 });
    expect(byId.body.data.content.map((c: { id: number }) => c.id)).toEqual([cityIds[6], cityIds[5]]);
  });

  it('rejects sorting by an unknown field', async () => {
    const res = await api.list('cities', { filter: null, pageable: page(1, 5, ['nope,asc']) });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_FIELD');
  });
});

describe('filter operators', () => {
  const cases: [string, unknown, string[]][] = [
    ['eq', 'Bravo', ['Bravo']],
    ['ne', 'Bravo', ['Alpha', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf']],
    ['contains', 'LT', ['Delta']],
    ['startsWith', 'g', ['Golf']],
    ['in', ['Echo', 'Alpha', 'Nope'], ['Alpha', 'Echo']],
    ['notIn', ['Alpha', 'Bravo', 'Charlie', 'Delta'], ['Echo', 'Foxtrot', 'Golf']],
    ['isNotNull', undefined, ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf']],
    ['isNull', undefined, []],
  ];
  for (const [operator, value, expected] of cases) {
    it(`${operator} on a text field`, async () => {
      const res = await api.list('cities', {
        filter: null,
        detailFilter: inState([{ field: 'name', operator, value }]),
        pageable: page(1, 20, ['name,asc']),
      });
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(expected);
    });
  }

  const numeric: [string, unknown, string[]][] = [
    ['gt', 14, ['Foxtrot', 'Golf']],
    ['gte', 14, ['Echo', 'Foxtrot', 'Golf']],
    ['lt', 11, ['Alpha']],
    ['lte', 11, ['Alpha', 'Bravo']],
    ['between', [11, 13], ['Bravo', 'Charlie', 'Delta']],
    ['notBetween', [11, 15], ['Alpha', 'Golf']],
    ['eq', '12', ['Charlie']],
  ];
  for (const [operator, value, expected] of numeric) {
    it(`${operator} on a number field`, async () => {
      const res = await api.list('cities', {
        filter: null,
        detailFilter: inState([{ field: 'latitude', operator, value }]),
        pageable: page(1, 20, ['name,asc']),
      });
      expect(names(res)).toEqual(expected);
    });
  }

  it('filters by time with ISO dates', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const res = await api.list('cities', {
      filter: null,
      detailFilter: inState([{ field: 'createdAt', operator: 'lt', value: future }]),
      pageable: page(1, 20),
    });
    expect(res.body.data.totalElements).toBe(7);
    const none = await api.list('cities', {
      filter: null,
      detailFilter: inState([{ field: 'createdAt', operator: 'gt', value: future }]),
      pageable: page(1, 20),
    });
    expect(none.body.data.totalElements).toBe(0);
  });

  it('treats a filter object as equals / one of, and q as a text search', async () => {
    const one = await api.list('cities', { filter: { stateId, name: 'Echo' }, pageable: page(1, 10) });
    expect(names(one)).toEqual(['Echo']);
    const many = await api.list('cities', {
      filter: { stateId, name: ['Echo', 'Golf'] },
      pageable: page(1, 10, ['name,asc']),
    });
    expect(names(many)).toEqual(['Echo', 'Golf']);
    const q = await api.list('cities', { filter: { stateId, q: 'oxt' }, pageable: page(1, 10) });
    expect(names(q)).toEqual(['Foxtrot']);
    const wildcard = await api.list('cities', { filter: { stateId, q: '%' }, pageable: page(1, 10) });
    expect(wildcard.body.data.totalElements).toBe(0);
  });

  it('joins conditions with OR when asked', async () => {
    const res = await api.search('cities', {
      filters: [
        { field: 'name', operator: 'eq', value: 'Alpha' },
        { field: 'name', operator: 'eq', value: 'Golf' },
      ],
      logic: 'OR',
      sortBy: 'name',
      sortDirection: 'ASC',
    });
    expect(names(res)).toEqual(['Alpha', 'Golf']);
    const and = await api.search('cities', {
      filters: [
        { field: 'name', operator: 'eq', value: 'Alpha' },
        { field: 'name', operator: 'eq', value: 'Golf' },
      ],
    });
    expect(and.body.data.totalElements).toBe(0);
  });

  it('answers a wrongly typed filter value with a 400 naming the field', async () => {
    const res = await api.list('cities', {
      filter: null,
      detailFilter: [{ field: 'latitude', operator: 'gt', value: 'high' }],
      pageable: page(1, 10),
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain('latitude');
    const between = await api.list('cities', {
      filter: null,
      detailFilter: [{ field: 'latitude', operator: 'between', value: [1] }],
      pageable: page(1, 10),
    });
    expect(between.status).toBe(400);
  });
});

describe('selectedColumns', () => {
  it('returns the chosen columns and always the id', async () => {
    const res = await api.list('cities', {
      filter: { stateId },
      selectedColumns: { name: true, latitude: true, longitude: false },
      pageable: page(1, 1, ['name,asc']),
    });
    expect(res.body.data.content[0]).toEqual({ id: cityIds[0], name: 'Alpha', latitude: 10 });
  });

  it('rejects an unknown column', async () => {
    const res = await api.list('cities', { filter: null, selectedColumns: { secret: true }, pageable: page(1) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_FIELD' });
  });
});

describe('aggregate', () => {
  it('counts, sums and averages per group', async () => {
    const res = await api.call('POST', '/query/api/cities/aggregate', {
      filters: inState(),
      aggregations: [
        { field: 'id', fn: 'count', as: 'n' },
        { field: 'latitude', fn: 'avg', as: 'avgLat' },
        { field: 'latitude', fn: 'sum', as: 'sumLat' },
        { field: 'longitude', fn: 'max' },
        { field: 'longitude', fn: 'min' },
      ],
      groupBy: ['stateId'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toEqual([{ stateId, n: 7, avgLat: 13, sumLat: 91, maxLongitude: 26, minLongitude: 20 }]);
  });

  it('buckets by time', async () => {
    const res = await api.call('POST', '/query/api/cities/aggregate', {
      filters: inState(),
      aggregations: [{ field: 'id', fn: 'count', as: 'n' }],
      groupBy: [{ field: 'createdAt', interval: '1d' }],
    });
    expect(res.status).toBe(200);
    const rows = res.body.data.rows as { createdAt: string; n: number }[];
    expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(7);
    for (const r of rows) expect(new Date(r.createdAt).toISOString()).toMatch(/T00:00:00.000Z$/);
  });

  it('refuses sums of text, buckets of numbers and unknown fields', async () => {
    const sum = await api.call('POST', '/query/api/cities/aggregate', { aggregations: [{ field: 'name', fn: 'sum' }] });
    expect(sum.status).toBe(400);
    const bucket = await api.call('POST', '/query/api/cities/aggregate', {
      aggregations: [{ field: 'id', fn: 'count' }],
      groupBy: [{ field: 'latitude', interval: '1h' }],
    });
    expect(bucket.status).toBe(400);
    const unknown = await api.call('POST', '/query/api/cities/aggregate', {
      aggregations: [{ field: 'zzz', fn: 'count' }],
    });
    expect(unknown.body.error?.code).toBe('INVALID_FIELD');
  });
});

describe('validation', () => {
  it('names every missing required field with the SPEC message, in English and Turkish', async () => {
    const en = await api.create('cities', { name: '' });
    expect(en.status).toBe(422);
    expect(en.body.error?.code).toBe('VALIDATION');
    expect(en.body.error?.fields).toEqual({
      name: 'Name is required',
      stateId: 'State is required',
      countryId: 'Country is required',
      latitude: 'Latitude is required',
      longitude: 'Longitude is required',
    });
    api.language = 'tr-TR,tr;q=0.9';
    const tr = await api.create('cities', { name: ' ' });
    api.language = undefined;
    expect(tr.body.error?.fields?.name).toBe('Ad zorunludur');
    expect(tr.body.error?.message).toBe('Bazı alanlar düzeltilmeli.');
  });

  it('checks bounds and types', async () => {
    const res = await api.create('cities', { name: 'X', stateId, countryId, latitude: 91, longitude: 'east' });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields).toEqual({
      latitude: 'Latitude must be at most 90',
      longitude: 'Longitude has the wrong type',
    });
  });

  it('refuses an unknown field in a body', async () => {
    const res = await api.create('countries', { name: 'Y', planet: 'Mars' });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_FIELD');
  });

  it('refuses a reference to a record that does not exist', async () => {
    const res = await api.create('states', { name: 'Orphan', countryId: 999_999 });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields?.countryId).toContain('does not exist');
  });
});

describe('update', () => {
  it('updates with the updatedAt that was read, and refuses a stale one with 409', async () => {
    const read = await api.get('cities', cityIds[0] as number);
    const first = await api.update('cities', { ...read.body.data, name: 'Alpha One' });
    expect(first.status).toBe(200);
    expect(first.body.data.name).toBe('Alpha One');
    expect(first.body.data.updatedAt).not.toBe(read.body.data.updatedAt);
    const stale = await api.update('cities', { ...read.body.data, name: 'Alpha Two' });
    expect(stale.status).toBe(409);
    expect(stale.body.error?.code).toBe('CONFLICT');
    const after = await api.get('cities', cityIds[0] as number);
    expect(after.body.data.name).toBe('Alpha One');
  });

  it('needs updatedAt and a known id', async () => {
    const noStamp = await api.update('cities', { id: cityIds[1], name: 'B' });
    expect(noStamp.status).toBe(422);
    expect(noStamp.body.error?.fields?.updatedAt).toBe('Updated at is required');
    const missing = await api.update('cities', { id: 987_654, updatedAt: new Date().toISOString(), name: 'B' });
    expect(missing.status).toBe(404);
  });
});

describe('delete', () => {
  it('refuses to delete a record still referenced, naming who references it', async () => {
    const res = await api.remove('states', stateId);
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toContain('Cities');
    expect((await api.get('states', stateId)).status).toBe(200);
  });

  it('deletes an unreferenced record and answers its id', async () => {
    const id = cityIds[6] as number;
    const res = await api.remove('cities', id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id });
    expect((await api.get('cities', id)).status).toBe(404);
    expect((await api.remove('cities', id)).status).toBe(404);
  });
});

describe('transaction log', () => {
  it('records who, where, what, before and after for every accepted command', async () => {
    const created = await api.create('countries', { name: 'Logland' });
    const id = created.body.data.id;
    const updated = await api.update('countries', { ...created.body.data, name: 'Logland II' });
    await api.remove('countries', id);
    await api.create('countries', { name: '' }); // refused: not logged
    const log = await api.list('transaction-logs', {
      filter: { resource: 'countries', recordId: id },
      pageable: page(1, 10, ['id,asc']),
    });
    const entries = log.body.data.content;
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['create', 'update', 'delete']);
    const me = await api.call('GET', '/query/api/auth/me');
    for (const e of entries)
      expect(e).toMatchObject({ userId: me.body.data.user.id, accountId: t.seeded.integratorId });
    expect(entries[0].before).toBeNull();
    expect(entries[0].after.name).toBe('Logland');
    expect(entries[1].before.name).toBe('Logland');
    expect(entries[1].after).toMatchObject({ name: 'Logland II', updatedAt: updated.body.data.updatedAt });
    expect(entries[2].before.name).toBe('Logland II');
    expect(entries[2].after).toBeNull();
  });

  it('is read-only', async () => {
    const res = await api.create('transaction-logs', { resource: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.error?.message).toMatch(/written by Lampyr alone/);
  });
});
