import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/connect.ts';
import { JWT_SECRET, testDatabase, testSecretBox } from './support/test-app.ts';

/** The built console is served at / and for every client-side route; API misses stay JSON 404s. */
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>['app'];

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'lampyr-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Lampyr</title>');
  writeFileSync(join(webDist, 'assets', 'app.js'), 'console.log(1)');
  database = await testDatabase();
  ({ app } = await buildApp({
    db: database.db,
    jwtSecret: JWT_SECRET,
    secretBox: testSecretBox(),
    dataDir: webDist,
    webDist,
  }));
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('console files', () => {
  it('answers the console for /, a client-side route and a reload deep in the menu', async () => {
    for (const url of ['/', '/system/regions', '/device-topology/1?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<title>Lampyr</title>');
    }
  });

  it('serves assets and answers a missing one or an unknown API path with 404', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await app.inject({ method: 'POST', url: '/query/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(JSON.parse(api.body).error.code).toBe('NOT_FOUND');
  });
});
