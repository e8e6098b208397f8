import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * `/docs` documents every registered route: each entry of the route table (HEAD aside, GET's
 * shadow) is an operation of one of the served documents, at the document's server + path.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ demo: false });
});
afterAll(async () => {
  await t?.close();
});

type Doc = { servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };

async function documented(): Promise<Set<string>> {
  const operations = new Set<string>();
  for (const name of ['query', 'command', 'service']) {
    const response = await t.app.inject({ method: 'GET', url: `/docs/${name}.json` });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as Doc;
    const server = (doc.servers[0]?.url ?? '').replace(/\/$/, '');
    for (const [path, item] of Object.entries(doc.paths)) {
      const url = `${server}${path}`.replace(/\{wildcard\}$/, '*').replace(/\{(\w+)\}/g, ':$1');
      for (const method of Object.keys(item)) operations.add(`${method.toUpperCase()} ${url}`);
    }
  }
  return operations;
}

describe('OpenAPI at /docs', () => {
  it('has an operation for every registered route', async () => {
    const operations = await documented();
    const routes = t.app
      .routeTable()
      .flatMap((r) => [r.method].flat().map((m) => `${m} ${r.url}`))
      .filter((r) => !r.startsWith('HEAD '));
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.filter((r) => !operations.has(r));
    expect(missing).toEqual([]);
    // The routes outside the catalogue are there too, not only the generic resources.
    for (const route of [
      'GET /health',
      'POST /query/api/stream/ticket',
      'GET /query/api/dashboard-summary',
      'POST /command/api/devices/:id/credentials/rotate',
      'POST /query/api/channel-read-values1/search',
      'POST /command/api/auth/login',
      'POST /command/api/notifications/resend',
      'GET /query/api/notifications/vapid-public-key',
      'POST /command/api/notifications/push-subscriptions',
      'DELETE /command/api/notifications/push-subscriptions',
    ]) {
      expect(operations).toContain(route);
    }
  });

  it('describes a route from its own schema', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/query.json' });
    const doc = response.json() as Doc;
    const dashboard = doc.paths['/dashboard-summary']?.get as { tags?: string[]; summary?: string };
    expect(dashboard.tags).toEqual(['dashboard']);
    expect(dashboard.summary).toBe('Dashboard summary');
  });
});
