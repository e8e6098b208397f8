/**
 * `npm run bench:api`: a page of 20 filtered, sorted rows out of 100,000 in one account, through
 * the list API with 32 concurrent connections, against the same query straight through the driver
 * in the same run. PostgreSQL (BENCH_DATABASE_URL, default the local `test` database) and PGlite.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const postgresUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Load {
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  seconds: number;
}

/** wrk (C, one process, little CPU) when installed; autocannon otherwise. */
const hasWrk = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { status?: number }).status === 1; // wrk --version exits 1 after printing
  }
})();
const generator = process.env.BENCH_LOAD ?? (hasWrk ? 'wrk' : 'autocannon');

function wrk(o: LoadOptions): Load {
  const script = join(mkdtempSync(join(tmpdir(), 'lampyr-wrk-')), 'post.lua');
  const headers = Object.entries(o.headers)
    .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
    .join('\n');
  writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(o.body)}\n${headers}\n`);
  const out = execFileSync('wrk', ['-t2', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', '-s', script, o.url], {
    encoding: 'utf8',
  });
  const ms = (label: string) => {
    const m = out.match(new RegExp(`\\s${label}\\s+([\\d.]+)(us|ms|s)`));
    if (!m) return Number.NaN;
    const n = Number(m[1]);
    return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
  };
  const errors = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  return {
    requestsPerSecond: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1]),
    requests: Number(out.match(/(\d+) requests in/)?.[1]),
    p50: ms('50%'),
    p99: ms('99%'),
    errors,
  };
}

async function cannon(o: LoadOptions): Promise<Load> {
  const result = await autocannon({
    url: o.url,
    method: 'POST',
    headers: o.headers,
    body: o.body,
    connections: o.connections,
    duration: o.seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const load = (o: LoadOptions) => (generator === 'wrk' ? Promise.resolve(wrk(o)) : cannon(o));

interface Ready {
  address: string;
  accountId: number;
  kind: string;
}

interface Side {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuUsPerRequest: number;
}

/** Rounds pooled: requests over the whole time, CPU over all requests, the worst round's p50 and p99. */
function pooled(rounds: Side[]): Side {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  return {
    requests,
    requestsPerSecond: requests / (seconds * rounds.length),
    p50: Math.max(...rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    cpuUsPerRequest: rounds.reduce((n, r) => n + r.cpuUsPerRequest * r.requests, 0) / requests,
  };
}

async function run(databaseUrl: string | undefined) {
  const child = fork(new URL('./api-server.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [])],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl ?? '', BENCH_SECONDS: String(seconds) },
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const ask = <T>(message: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(message);
    });
  const login = await fetch(`${ready.address}/command/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@lampyr.local', password: 'lampyr-admin' }),
  });
  const { data } = await login.json();
  const body = JSON.stringify({
    filter: { street: 'Street 7' },
    detailFilter: null,
    selectedColumns: null,
    pageable: { page: 1, size: 20, sort: ['name,asc'] },
  });
  const headers = {
    authorization: `Bearer ${data.token}`,
    'x-account-id': String(ready.accountId),
    'content-type': 'application/json',
  };
  const check = await fetch(`${ready.address}/query/api/addresses`, { method: 'POST', headers, body });
  const page = await check.json();
  if (page.data?.content?.length !== 20) throw new Error(`unexpected answer: ${JSON.stringify(page).slice(0, 200)}`);
  const options = { url: `${ready.address}/query/api/addresses`, headers, body, connections: 32 };
  await load({ ...options, seconds: 2 }); // warm-up
  const drivers: Side[] = [];
  const apis: Side[] = [];
  let errors = 0;
  for (let round = 0; round < rounds; round++) {
    drivers.push((await ask<{ driver: Side }>('driver')).driver);
    await ask('mark');
    const api = await load({ ...options, seconds });
    const { cpuMs } = await ask<{ cpuMs: number }>('cpu');
    apis.push({ ...api, cpuUsPerRequest: (cpuMs * 1000) / api.requests });
    errors += api.errors;
  }
  child.send('stop');
  return {
    kind: ready.kind,
    api: pooled(apis),
    driver: pooled(drivers),
    ratios: apis.map((a, i) => a.requestsPerSecond / (drivers[i] as Side).requestsPerSecond),
    errors,
    total: page.data.totalElements as number,
  };
}

const fmt = (n: number) => n.toFixed(1).padStart(8);
console.log(
  `bench:api — 100,000 rows, page of 20 filtered and sorted, 32 connections, ${rounds} rounds of ${seconds} s each, driver and API alternating (load: ${generator})\n`,
);
for (const target of process.env.BENCH_ONLY_PG ? [postgresUrl] : [postgresUrl, undefined]) {
  const r = await run(target);
  console.log(`${r.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} (${r.total} rows match the filter)`);
  console.log('              req/s   p50 ms   p99 ms   server CPU µs/request   (p50, p99: worst round)');
  console.log(
    `  API      ${fmt(r.api.requestsPerSecond)} ${fmt(r.api.p50)} ${fmt(r.api.p99)} ${fmt(r.api.cpuUsPerRequest)}   (${r.errors} errors)`,
  );
  console.log(
    `  driver   ${fmt(r.driver.requestsPerSecond)} ${fmt(r.driver.p50)} ${fmt(r.driver.p99)} ${fmt(r.driver.cpuUsPerRequest)}`,
  );
  const ratio = r.api.requestsPerSecond / r.driver.requestsPerSecond;
  console.log(`  ratio API/driver by round: ${r.ratios.map((x) => x.toFixed(2)).join(' · ')}`);
  console.log(
    `  ratio API/driver: ${ratio.toFixed(2)}${r.kind === 'postgres' ? `   (bar: ≥ 0.75 and p99 < 50 ms: ${ratio >= 0.75 && r.api.p99 < 50 ? 'met' : 'NOT met'})` : `   (bar: API p99 < 200 ms: ${r.api.p99 < 200 ? 'met' : 'NOT met'})`}\n`,
  );
}
