import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_BATCH, RetentionEngine, runRetention } from '../src/engines/retention/retention.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * The data lifecycle on the database under test: readings partitions made ahead and dropped whole
 * past the longest retention; data logs, system logs and finished notifications deleted past their
 * account's retention, in batches; nothing at all without an active setting.
 */
let t: TestApp;
let shortAccount: number;
let longAccount: number;
const DAY = 86_400_000;
const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
const monthName = (at: Date) =>
  `channel_read_values_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;

const exec = (query: ReturnType<typeof sql>) => t.database.db.execute(query);
const rows = async <T>(query: ReturnType<typeof sql>) => ((await exec(query)) as unknown as { rows: T[] }).rows;
const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(query))[0]?.n);
const partitions = async () =>
  (
    await rows<{ name: string }>(sql`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'channel_read_values'::regclass`)
  ).map((r) => r.name);

async function reading(at: string, frame: string) {
  await exec(sql`SELECT lampyr_ensure_reading_partition(${at}::timestamptz)`);
  await exec(sql`
    INSERT INTO channel_read_values (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key)
    SELECT d.account_id, d.id, c.id, 0, 1, ${at}::timestamptz, 'ok', ${frame}
    FROM devices d JOIN device_channel_templates c ON c.device_type_model_id = d.device_type_model_id
    WHERE d.account_id = ${shortAccount} ORDER BY d.id, c.id LIMIT 1`);
}

async function settings(list: { accountId: number; days: number; active?: boolean }[]) {
  await exec(sql`UPDATE system_log_settings SET is_active = false`);
  for (const s of list)
    await exec(sql`INSERT INTO system_log_settings (account_id, name, level, retention_days, is_active)
      VALUES (${s.accountId}, 'Retention test', 'info', ${s.days}, ${s.active ?? true})`);
}

beforeAll(async () => {
  t = await startTestApp({ demo: true });
  [shortAccount, longAccount] = t.seeded.subAccountIds as [number, number];
});
afterAll(() => t?.close());

describe('retention', () => {
  it('without an active setting, drops and deletes nothing, but makes the partitions ahead', async () => {
    await settings([{ accountId: shortAccount, days: 1, active: false }]);
    await reading(daysAgo(700), 'none-1');
    await exec(
      sql`INSERT INTO data_logs (account_id, topic, reason, created_at) VALUES (${shortAccount}, 'x', 'old', ${daysAgo(700)}::timestamptz)`,
    );
    const result = await runRetention(t.database.db, now);
    expect(result.partitionsDropped).toEqual([]);
    expect(result.dataLogs).toBe(0);
    expect(await partitions()).toContain(monthName(new Date(daysAgo(700))));
    const ahead = [0, 1, 2].map((m) => monthName(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + m, 1))));
    expect(result.partitionsAhead).toEqual(ahead);
    for (const name of ahead) expect(await partitions()).toContain(name);
  });

  it('drops whole partitions past the longest retention and keeps the rest untouched', async () => {
    // 30 days for one account, 400 for the other: readings are kept 400 days (partitions are shared).
    await settings([
      { accountId: shortAccount, days: 30 },
      { accountId: longAccount, days: 400 },
    ]);
    await reading(daysAgo(500), 'old-1');
    await reading(daysAgo(200), 'kept-1');
    await reading(daysAgo(40), 'recent-1');
    const old = monthName(new Date(daysAgo(500)));
    const kept = monthName(new Date(daysAgo(200)));
    const keptBefore = await count(sql`SELECT count(*)::int AS n FROM ${sql.raw(`"${kept}"`)}`);
    expect(keptBefore).toBeGreaterThan(0);

    const result = await runRetention(t.database.db, now);
    expect(result.partitionsDropped).toContain(old);
    expect(result.partitionsDropped).toContain(monthName(new Date(daysAgo(700))));
    expect(result.partitionsDropped).not.toContain(kept);
    const left = await partitions();
    expect(left).not.toContain(old);
    expect(left).toContain(kept);
    // Never a row delete: the kept months hold what they held.
    expect(await count(sql`SELECT count(*)::int AS n FROM ${sql.raw(`"${kept}"`)}`)).toBe(keptBefore);
    expect(await count(sql`SELECT count(*)::int AS n FROM channel_read_values WHERE frame_key = 'recent-1'`)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM channel_read_values WHERE frame_key = 'old-1'`)).toBe(0);
    // A partition of a month inside the retention is never dropped on a second run.
    expect((await runRetention(t.database.db, now)).partitionsDropped).toEqual([]);
  });

  it("deletes data logs, system logs and finished notifications past each account's retention, in batches", async () => {
    await settings([
      { accountId: shortAccount, days: 30 },
      { accountId: longAccount, days: 400 },
    ]);
    await exec(sql`DELETE FROM data_logs`);
    const old = daysAgo(40);
    const fresh = daysAgo(10);
    // More old rows than one batch takes.
    await exec(sql`INSERT INTO data_logs (account_id, topic, reason, created_at)
      SELECT ${shortAccount}, 'old', 'test', ${old}::timestamptz FROM generate_series(1, ${RETENTION_BATCH * 2 + 7})`);
    await exec(sql`INSERT INTO data_logs (account_id, topic, reason, created_at) VALUES
      (${shortAccount}, 'fresh', 'test', ${fresh}::timestamptz), (${longAccount}, 'other-old', 'test', ${old}::timestamptz)`);
    await exec(sql`INSERT INTO system_logs (account_id, level, source, message, created_at) VALUES
      (${shortAccount}, 'info', 'test', 'old', ${old}::timestamptz), (${shortAccount}, 'info', 'test', 'fresh', ${fresh}::timestamptz),
      (${longAccount}, 'info', 'test', 'other-old', ${old}::timestamptz)`);
    await exec(sql`INSERT INTO alert_notification_list (account_id, date_time, channel, recipient, status) VALUES
      (${shortAccount}, ${old}::timestamptz, 'mail', 'sent-old@x.test', 'sent'),
      (${shortAccount}, ${old}::timestamptz, 'mail', 'dead-old@x.test', 'dead'),
      (${shortAccount}, ${old}::timestamptz, 'mail', 'queued-old@x.test', 'queued'),
      (${shortAccount}, ${old}::timestamptz, 'mail', 'failed-old@x.test', 'failed'),
      (${shortAccount}, ${fresh}::timestamptz, 'mail', 'sent-fresh@x.test', 'sent'),
      (${longAccount}, ${old}::timestamptz, 'mail', 'other-old@x.test', 'sent')`);

    const result = await runRetention(t.database.db, now);
    expect(result.dataLogs).toBe(RETENTION_BATCH * 2 + 7);
    expect(result.systemLogs).toBe(1);
    expect(result.notifications).toBe(2);
    expect(
      await rows<{ topic: string }>(
        sql`SELECT topic FROM data_logs WHERE topic IN ('old', 'fresh', 'other-old') ORDER BY topic`,
      ),
    ).toEqual([{ topic: 'fresh' }, { topic: 'other-old' }]);
    expect(
      (
        await rows<{ message: string }>(sql`SELECT message FROM system_logs WHERE source = 'test' ORDER BY message`)
      ).map((r) => r.message),
    ).toEqual(['fresh', 'other-old']);
    expect(
      (
        await rows<{ recipient: string }>(
          sql`SELECT recipient FROM alert_notification_list WHERE recipient LIKE '%@x.test' ORDER BY recipient`,
        )
      ).map((r) => r.recipient),
    ).toEqual(['failed-old@x.test', 'other-old@x.test', 'queued-old@x.test', 'sent-fresh@x.test']);
  });

  it('an account without a setting of its own takes the longest one', async () => {
    const root = t.seeded.integratorId;
    await settings([{ accountId: longAccount, days: 20 }]);
    await exec(sql`INSERT INTO data_logs (account_id, topic, reason, created_at) VALUES
      (${root}, 'root-old', 'test', ${daysAgo(25)}::timestamptz), (${root}, 'root-fresh', 'test', ${daysAgo(15)}::timestamptz)`);
    await runRetention(t.database.db, now);
    expect(
      (await rows<{ topic: string }>(sql`SELECT topic FROM data_logs WHERE topic LIKE 'root-%'`)).map((r) => r.topic),
    ).toEqual(['root-fresh']);
  });

  it('the engine runs one pass at a time and reports it', async () => {
    const runs: unknown[] = [];
    const engine = new RetentionEngine(
      t.database.db,
      (e) => runs.push(e),
      () => now,
      (r) => runs.push(r),
    );
    const [a, b] = [engine.tick(), engine.tick()];
    expect(a).toBe(b);
    await a;
    expect(runs).toHaveLength(1);
    expect((runs[0] as { partitionsAhead: string[] }).partitionsAhead).toHaveLength(3);
  });
});
