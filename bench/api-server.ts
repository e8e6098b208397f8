/**
 * The server side of `npm run bench:api`, in its own process: fills the database with 100,000
 * address rows (shaped like devices: name, street, city, postal code) in one account, measures
 * the list query straight through the driver, then serves the API for the load generator.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.ts';
import { loadSecretsKey, SecretBox } from '../packages/server/src/auth/secret-box.ts';
import { openDatabase } from '../packages/server/src/db/connect.ts';
import { seed } from '../packages/server/src/seed/seed.ts';

const ROWS = 100_000;
const CONNECTIONS = 32;
const url = process.env.BENCH_DATABASE_URL || undefined;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

if (url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    'DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;',
  );
  await client.end();
}
const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-bench-'));
const database = await openDatabase({ url, dataDir, poolSize: Number(process.env.BENCH_POOL ?? 20) });
const { db } = database;
const seeded = await seed(db, { adminEmail: 'admin@lampyr.local', adminPassword: 'lampyr-admin', demo: true });
const accountId = seeded.subAccountIds[0] as number;

// Four Istanbul districts and 100 streets: a street filter keeps 1,000 of the 100,000 rows.
await db.execute(sql`
  insert into addresses (account_id, name, address, street, neighbourhood, postal_code, city_id, state_id, country_id)
  select ${accountId}, 'SL-' || lpad(g::text, 6, '0'), 'Pole ' || g, 'Street ' || (g % 100), 'Quarter ' || (g % 7),
         '34' || lpad((g % 1000)::text, 3, '0'), c.id, c.state_id, c.country_id
  from generate_series(1, ${ROWS}) g
  join (select id, state_id, country_id, row_number() over (order by id) - 1 as k from cities where state_id = 1) c
    on c.k = g % 4`);
await db.execute(sql`vacuum analyze addresses`);

/**
 * The list call's two statements written out by hand and sent straight through the driver with the
 * same parameters: the page and the count, side by side, as the API runs them.
 */
const client = (db as unknown as { $client: { query(query: unknown, params?: unknown[]): Promise<unknown> } }).$client;
const columns = `id, created_at, updated_at, account_id, name, address, street, neighbourhood, postal_code, city_id, state_id, country_id`;
const pageSql = `select ${columns} from addresses where account_id = $1 and street = $2 order by name asc, id asc limit $3 offset $4`;
const countSql = `select count(*) from addresses where account_id = $1 and street = $2`;
// Named statements on PostgreSQL, as the API prepares its own; PGlite has one session and no names.
const statement = (name: string, text: string, values: unknown[]) =>
  url ? client.query({ name, text, values }) : client.query(text, values);
async function driverQuery(): Promise<void> {
  await Promise.all([
    statement('bench_page', pageSql, [accountId, 'Street 7', 20, 0]),
    statement('bench_count', countSql, [accountId, 'Street 7']),
  ]);
}

async function driverBaseline() {
  const cpuAtStart = process.cpuUsage();
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        await driverQuery();
        latencies.push(performance.now() - start);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  const cpu = process.cpuUsage(cpuAtStart);
  return {
    requests: latencies.length,
    requestsPerSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    cpuUsPerRequest: (cpu.user + cpu.system) / latencies.length,
  };
}

for (let i = 0; i < 200; i++) await driverQuery(); // warm-up

const { app } = await buildApp({
  db,
  jwtSecret: new TextEncoder().encode('bench-secret-bench-secret-bench-secret'),
  secretBox: new SecretBox({ current: loadSecretsKey(undefined, dataDir) }),
  dataDir,
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ address, accountId, kind: database.kind });
let cpuMark = process.cpuUsage();
// The load generator alternates rounds of the driver's callers (run here) and of the API (its
// load generator), so a drift of the shared machine falls on both.
process.on('message', async (message) => {
  if (message === 'driver') process.send?.({ driver: await driverBaseline() });
  // The load generator is about to start an API round: CPU is counted from here.
  if (message === 'mark') {
    cpuMark = process.cpuUsage();
    process.send?.('marked');
  }
  if (message === 'cpu') {
    const used = process.cpuUsage(cpuMark);
    process.send?.({ cpuMs: (used.user + used.system) / 1000 });
  }
  if (message === 'stop') {
    await app.close();
    await database.close();
    process.exit(0);
  }
});
