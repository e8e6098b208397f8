import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileSource } from '../src/api/security-headers.ts';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/connect.ts';
import { ADMIN, JWT_SECRET, testDatabase, testSecretBox } from './support/test-app.ts';

const FORGED = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
const map = { tileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png', attribution: '© Tiles' };

let database: Database;
let plain: FastifyInstance;
let published: FastifyInstance;
let proxied: FastifyInstance;

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'lampyr-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Lampyr</title>');
  writeFileSync(join(webDist, 'assets', 'app.js'), 'console.log(1)');
  database = await testDatabase();
  const common = { db: database.db, jwtSecret: JWT_SECRET, secretBox: testSecretBox(), dataDir: webDist, webDist, map };
  ({ app: plain } = await buildApp(common));
  ({ app: published } = await buildApp({ ...common, publicUrl: 'https://lampyr.example.com/' }));
  ({ app: proxied } = await buildApp({ ...common, trustedProxies: ['127.0.0.1'] }));
});
afterAll(async () => {
  await plain.close();
  await published.close();
  await proxied.close();
  await database.close();
});

describe('/config.json', () => {
  it('answers relative API URLs whatever Host the request claims', async () => {
    const honest = await plain.inject({ method: 'GET', url: '/config.json' });
    const forged = await plain.inject({ method: 'GET', url: '/config.json', headers: FORGED });
    expect(honest.json()).toMatchObject({ queryUrl: '/query/api', commandUrl: '/command/api' });
    expect(forged.json()).toEqual(honest.json());
    expect(forged.body).not.toContain('evil');
  });

  it('answers the configured PUBLIC_URL, not the forged Host', async () => {
    const forged = await published.inject({ method: 'GET', url: '/config.json', headers: FORGED });
    expect(forged.json()).toEqual({
      queryUrl: 'https://lampyr.example.com/query/api',
      commandUrl: 'https://lampyr.example.com/command/api',
      mapTileUrl: map.tileUrl,
      mapAttribution: map.attribution,
    });
    expect(forged.body).not.toContain('evil');
  });
});

describe('security headers', () => {
  const directives = (csp: string) =>
    Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );

  it('sends the CSP and its companions with the console, static files, the APIs and 404s', async () => {
    const answers = await Promise.all([
      plain.inject({ method: 'GET', url: '/' }),
      plain.inject({ method: 'GET', url: '/devices/devices' }),
      plain.inject({ method: 'GET', url: '/assets/app.js' }),
      plain.inject({ method: 'GET', url: '/config.json' }),
      plain.inject({ method: 'POST', url: '/command/api/auth/login', payload: { email: ADMIN.email, password: 'x' } }),
      plain.inject({ method: 'GET', url: '/query/api/no-such-thing' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 401, 404]);
    for (const answer of answers) {
      const csp = directives(String(answer.headers['content-security-policy']));
      expect(csp).toMatchObject({
        'default-src': "'self'",
        'script-src': "'self'",
        'style-src': "'self' 'unsafe-inline'",
        'img-src': "'self' data: https://*.tiles.example.org",
        'connect-src': "'self'",
        'object-src': "'none'",
        'frame-ancestors': "'none'",
      });
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it('sends HSTS only behind TLS: a trusted proxy saying https, or an https PUBLIC_URL', async () => {
    const overHttp = await plain.inject({ method: 'GET', url: '/config.json' });
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
    // Without TRUSTED_PROXIES, anyone could claim https: the claim is ignored.
    const claimed = await plain.inject({
      method: 'GET',
      url: '/config.json',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    const behindTls = await proxied.inject({
      method: 'GET',
      url: '/config.json',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(behindTls.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    const publishedHttps = await published.inject({ method: 'GET', url: '/config.json' });
    expect(publishedHttps.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    // A console served from another origin than its API may call the API there.
    expect(directives(String(publishedHttps.headers['content-security-policy']))['connect-src']).toBe(
      "'self' https://lampyr.example.com",
    );
  });

  it('lets images come from the tile host only, whatever the template looks like', () => {
    expect(tileSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://tile.openstreetmap.org');
    expect(tileSource('https://{s}.Tiles.example.org:8443/{z}/{x}/{y}.png')).toBe('https://*.tiles.example.org:8443');
    expect(tileSource('/tiles/{z}/{x}/{y}.png')).toBeUndefined();
    expect(tileSource("https://x.example'; script-src *")).toBeUndefined();
  });
});
