import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { seed } from '../src/seed/seed.ts';
import { serverTimedGroup } from './support/scheduler-fixture.ts';
import { ADMIN, testDatabase } from './support/test-app.ts';
import { connectClient, startTestBroker, type TestBroker } from './support/test-telemetry.ts';

/**
 * Two replicas on one PostgreSQL, the leader killed mid-night: the other takes the lead within
 * seconds, and every switch point is executed and published exactly once.
 */
const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
const onPostgres = target.startsWith('postgres');
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const children: ChildProcess[] = [];
let broker: TestBroker | undefined;
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await broker?.close();
});

function replica(env: Record<string, string>): { child: ChildProcess; log: string[] } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'support', 'scheduler-child.ts')],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const log: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr?.on('data', (chunk: Buffer) => log.push(`! ${chunk.toString()}`));
  return { child, log };
}

async function until(test: () => boolean, ms: number): Promise<number> {
  const start = Date.now();
  while (!test()) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await sleep(50);
  }
  return Date.now() - start;
}

// Eight switch points a minute apart, each a change: 21:00 … 21:07, Istanbul time.
const POINTS = [
  { slot: 'on1', time: '21:00', value: 100 },
  { slot: 'off1', time: '21:01', value: 20 },
  { slot: 'on2', time: '21:02', value: 80 },
  { slot: 'off2', time: '21:03', value: 0 },
  { slot: 'on3', time: '21:04', value: 100 },
  { slot: 'off3', time: '21:05', value: 30 },
  { slot: 'on4', time: '21:06', value: 60 },
  { slot: 'off4', time: '21:07', value: 0 },
];

describe.skipIf(!onPostgres)('scheduler failover on PostgreSQL', () => {
  it('the follower takes over within seconds; no switch point is sent twice or lost', async () => {
    const setup = await testDatabase();
    await seed(setup.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: true });
    const fixture = await serverTimedGroup(setup.db, POINTS);
    const euis = new Map(
      rowsOf(
        await setup.db.execute(
          sql`SELECT id, dev_eui FROM devices WHERE id IN (${sql.join(
            fixture.deviceIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        ),
      ).map((r) => [String(r.dev_eui), Number(r.id)]),
    );

    broker = await startTestBroker();
    const listener = await connectClient(broker, 'failover-listener');
    const downlinks: { devEui: string; id: string }[] = [];
    listener.on('message', (topic, payload) => {
      const devEui = topic.split('/')[3] as string;
      if (euis.has(devEui)) downlinks.push({ devEui, id: JSON.parse(payload.toString()).id });
    });
    await listener.subscribeAsync('application/+/device/+/command/down', { qos: 1 });

    // The virtual clock: 20 virtual seconds per real second, 20:59:40 local at real0.
    const speed = 20;
    const real0 = Date.now() + 20_000;
    const virtual0 = Date.parse('2026-11-20T20:59:40+03:00');
    const realAt = (local: string) => real0 + (Date.parse(`${local}+03:00`) - virtual0) / speed;
    const env = (name: string) => ({
      CHILD_DB: target,
      CHILD_MQTT_URL: broker?.url as string,
      CHILD_MQTT_USERNAME: broker?.username ?? '',
      CHILD_MQTT_PASSWORD: broker?.password ?? '',
      CHILD_CLIENT_ID: `lampyr-failover-${name}-${randomBytes(4).toString('hex')}`,
      CHILD_SHARE_GROUP: broker?.shareGroup ?? '',
      CLOCK_REAL0: String(real0),
      CLOCK_VIRTUAL0: String(virtual0),
      CLOCK_SPEED: String(speed),
    });
    const a = replica(env('a'));
    await until(() => a.log.includes('lead'), 20_000);
    const b = replica(env('b'));
    await until(() => b.log.includes('ready'), 20_000);
    expect(b.log).not.toContain('lead');
    expect(Date.now()).toBeLessThan(real0);

    // Mid-night, after 21:03 and before 21:04: the leader dies without a word.
    await sleep(realAt('2026-11-20T21:03:30') - Date.now());
    const before = downlinks.length;
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    const takeover = await until(() => b.log.includes('lead'), 15_000);
    expect(takeover).toBeLessThan(5_000);
    expect(before).toBeGreaterThanOrEqual(4 * fixture.deviceIds.length);

    // After the last point, and the sender's sweep of any write the dead leader left unsent.
    await sleep(Math.max(0, realAt('2026-11-20T21:07:00') - Date.now()) + 7_000);
    const logs = rowsOf(
      await setup.db.execute(sql`
        SELECT device_id, planned_at, level FROM task_control_logs
        WHERE task_group_id = ${fixture.groupId} ORDER BY device_id, planned_at`),
    );
    // Per device: the level in force when the first leader started (the night before ended at 0 at
    // 21:07), then the eight points of this night, each once.
    const tonight = Date.parse('2026-11-20T21:00:00+03:00');
    for (const id of fixture.deviceIds) {
      const mine = logs.filter((l) => Number(l.device_id) === id);
      expect(
        mine.filter((l) => new Date(l.planned_at as string).getTime() >= tonight).map((l) => Number(l.level)),
      ).toEqual(POINTS.map((p) => p.value));
      expect(mine).toHaveLength(POINTS.length + 1);
    }
    const writes = rowsOf(
      await setup.db.execute(sql`SELECT status, count(*)::int AS n FROM channel_write_values
        WHERE operation_source = 'scheduler' GROUP BY status`),
    );
    expect(writes.reduce((n, w) => n + Number(w.n), 0)).toBe(logs.length);
    expect(writes.every((w) => w.status === 'sent' || w.status === 'acknowledged')).toBe(true);
    // Each switch point reached the broker once: every scheduler write's downlink was heard exactly
    // once (the broker is shared: other downlinks to the same demo DevEUIs are not ours).
    const sent = rowsOf(
      await setup.db.execute(sql`SELECT downlink_id FROM channel_write_values WHERE operation_source = 'scheduler'`),
    ).map((r) => String(r.downlink_id));
    expect(sent).toHaveLength(logs.length);
    for (const id of sent) expect(downlinks.filter((d) => d.id === id)).toHaveLength(1);
    process.stdout.write(
      `scheduler failover: leader killed at +${((killedAt - real0) / 1000).toFixed(1)} s, follower led after ${takeover} ms; ${sent.length} downlinks, ${logs.length} control log rows\n`,
    );
    b.child.kill('SIGTERM');
    await listener.endAsync();
    await setup.close();
  }, 120_000);
});
