import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleGroups } from '../src/data/config-commands.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { eventually } from './support/test-telemetry.ts';

/**
 * A task group's publication status under concurrent settles: a settle that began before the last
 * confirmation committed must not write over the one that saw it. Needs two sessions, so PostgreSQL.
 */
const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
const onPostgres = target.startsWith('postgres');

describe.skipIf(!onPostgres)('settling a task group while its rows change', () => {
  let t: TestApp;
  let holder: pg.Client;
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    t = await startTestApp();
    holder = new pg.Client({ connectionString: target });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await t?.close();
  });

  it('counts the confirmations committed while it waited for the group, not those before it began', async () => {
    const [device] = await rows<{ id: number; account_id: number; dev_eui: string }>(
      sql`SELECT id::int, account_id::int, dev_eui FROM devices WHERE dev_eui IS NOT NULL ORDER BY id LIMIT 1`,
    );
    if (!device) throw new Error('the demo has no LoRaWAN device');
    const [group] = await rows<{ id: number }>(sql`
      INSERT INTO task_groups (account_id, name, publication_status, message)
      VALUES (${device.account_id}, 'Settle race', 'publishing', '0/2') RETURNING id::int`);
    const batch = `settle-race-${Date.now()}`;
    const logs = await rows<{ id: number }>(sql`
      INSERT INTO deploy_response_logs (account_id, device_id, dev_eui, status, operation, resend_count, task_group_id, batch_id)
      SELECT ${device.account_id}, ${device.id}, ${device.dev_eui}, 'sent', 'deploy', 0, ${group?.id}, ${batch}
      FROM generate_series(1, 2) RETURNING id::int`);

    // Another settle holds the group; this one starts while both rows are still open.
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM task_groups WHERE id = $1 FOR UPDATE', [group?.id]);
    const settling = settleGroups(t.database.db, [batch]);
    // Polled from the app's pool: the holder's transaction would keep one snapshot of the activity.
    await eventually(async () => {
      const [waiting] = await rows<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND query LIKE '%task_groups g%' AND query NOT LIKE '%pg_stat_activity%'`);
      return (waiting?.n ?? 0) > 0;
    });
    // Both devices confirm (committed on their own) before the waiting settle gets the group.
    await t.database.db.execute(
      sql`UPDATE deploy_response_logs SET status = 'confirmed' WHERE id IN (${logs[0]?.id}, ${logs[1]?.id})`,
    );
    await holder.query('COMMIT');
    await settling;

    const [after] = await rows<{ publication_status: string; message: string }>(
      sql`SELECT publication_status, message FROM task_groups WHERE id = ${group?.id}`,
    );
    expect(after).toEqual({ publication_status: 'published', message: '2/2' });
  });
});
