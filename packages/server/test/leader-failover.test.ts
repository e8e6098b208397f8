/**
 * Engines once (issue 14): two replicas on one PostgreSQL, the engines' leader (one advisory lock)
 * decides who runs the timers, watchers, rollups and retention. While both live only one works;
 * when the leader is killed, the other takes over within seconds; their work never overlaps.
 * (The scheduler's own failover, switch points sent exactly once, is scheduler-failover.test.ts.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from './support/test-telemetry.ts';

const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
const onPostgres = target.startsWith('postgres');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// A lock key of this run's own: other suites' replicas on the same database never interfere.
const lockKey = BigInt(0x6c616d70_00000000) + BigInt(Math.floor(Math.random() * 2 ** 31));

const children: ChildProcess[] = [];
let admin: pg.Client | undefined;
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await admin?.end();
});

function replica(name: string): { child: ChildProcess; out: string[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'support', 'leader-child.ts')], {
    env: { ...process.env, CHILD_DB: target, CHILD_NAME: name, CHILD_LOCK_KEY: lockKey.toString() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out: string[] = [];
  child.stdout?.on('data', (c: Buffer) => out.push(...c.toString().split('\n').filter(Boolean)));
  child.stderr?.on('data', (c: Buffer) => out.push(`! ${c.toString()}`));
  return { child, out };
}

describe.skipIf(!onPostgres)('the engines run once, on one leader', () => {
  it('one replica works while both live; the other takes over within seconds of the leader being killed; never both', async () => {
    admin = new pg.Client({ connectionString: target });
    await admin.connect();
    await admin.query('DROP TABLE IF EXISTS leader_ticks; CREATE TABLE leader_ticks (replica text, at timestamptz)');
    const a = replica('a');
    const b = replica('b');
    await eventually(() => a.out.includes('ready') && b.out.includes('ready'), 60_000);
    await eventually(() => a.out.includes('lead') || b.out.includes('lead'), 10_000);
    await sleep(3000);
    const ticks = async () =>
      (
        await admin?.query<{ replica: string; n: number; first: Date; last: Date }>(
          'SELECT replica, count(*)::int AS n, min(at) AS first, max(at) AS last FROM leader_ticks GROUP BY replica',
        )
      )?.rows ?? [];
    const before = await ticks();
    // One leader, working; the follower did nothing.
    expect(before).toHaveLength(1);
    expect(before[0]?.n).toBeGreaterThan(10);
    const [leader, follower] = before[0]?.replica === 'a' ? [a, b] : [b, a];
    expect(follower.out.includes('lead')).toBe(false);

    leader.child.kill('SIGKILL');
    const killedAt = Date.now();
    await eventually(() => follower.out.includes('lead'), 15_000);
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(5000);
    await sleep(1500);
    const after = await ticks();
    expect(after).toHaveLength(2);
    const old = after.find((r) => r.replica === before[0]?.replica);
    const successor = after.find((r) => r.replica !== before[0]?.replica);
    expect(successor?.n).toBeGreaterThan(5);
    // Never both: the successor's first tick comes after the killed leader's last.
    expect(new Date(successor?.first as Date).getTime()).toBeGreaterThan(new Date(old?.last as Date).getTime());
    process.stdout.write(`leader failover: ${tookMs} ms\n`);
  }, 120_000);
});
