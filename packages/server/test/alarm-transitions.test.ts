import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearAlarms } from '../src/engines/alarms/alarm-transitions.ts';
import { GatewayHealth } from '../src/engines/faults/gateway-health.ts';
import { NodeLossWatcher } from '../src/engines/node-loss/node-loss-watcher.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * Every alarm raised or cleared by an engine reaches the transaction log (engines/alarms/
 * alarm-transitions.ts): a `raise` row with the new alarm, a `clear` row with the state it was
 * cleared from, why, and who — node loss and gateway loss here; the threshold and lamp fault
 * alarms in alarms.test.ts and faults.test.ts.
 */
let t: TestApp;
let kadikoy: number;
let deviceId: number;

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

interface LogRow {
  action: string;
  user_id: number | null;
  account_id: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
}
const logOf = (alarmId: unknown) =>
  rows<LogRow>(sql`
    SELECT action, user_id::int AS user_id, account_id::int AS account_id, before, after FROM transaction_logs
    WHERE resource = 'alert-logs' AND record_id = ${Number(alarmId)} ORDER BY id`);
const timersOf = (alarmId: unknown) => rows(sql`SELECT id FROM alarm_timers WHERE alert_log_id = ${Number(alarmId)}`);

beforeAll(async () => {
  t = await startTestApp();
  kadikoy = t.seeded.subAccountIds[0] as number;
  const [device] = await rows<{ id: number }>(
    sql`SELECT id::int AS id FROM devices WHERE account_id = ${kadikoy} ORDER BY id LIMIT 1`,
  );
  deviceId = device?.id as number;
  // Its own node-loss setting (5 minutes), and nobody else silent: only this device is lost.
  await rows(sql`DELETE FROM device_node_loss_settings WHERE device_id = ${deviceId}`);
  await rows(sql`
    INSERT INTO device_node_loss_settings (account_id, device_id, alert_level, is_active, heartbeat_threshold)
    VALUES (${kadikoy}, ${deviceId}, 'high', true, 5)`);
  await rows(sql`DELETE FROM device_connection_status`);
  await rows(sql`
    INSERT INTO device_connection_status (account_id, device_id, status, date_time)
    VALUES (${kadikoy}, ${deviceId}, 'online', now() - interval '10 minutes')`);
});
afterAll(() => t.close());

describe('alarm transitions in the transaction log', () => {
  it('node loss: the raise logs the new alarm, the recovery logs the clear from its state', async () => {
    const watcher = new NodeLossWatcher(t.database.db);
    const raised = (await watcher.sweep()).filter((r) => Number(r.device_id) === deviceId);
    expect(raised).toHaveLength(1);
    const id = raised[0]?.id;
    const [raise] = await logOf(id);
    expect(raise).toMatchObject({ action: 'raise', user_id: null, account_id: kadikoy, before: null });
    expect(raise?.after).toMatchObject({ kind: 'nodeLoss', state: 'active', is_active: true, device_id: deviceId });
    expect(await timersOf(id)).toHaveLength(1);
    // Raised once however often it sweeps.
    expect(await watcher.sweep()).toEqual([]);

    await rows(sql`UPDATE device_connection_status SET date_time = now() WHERE device_id = ${deviceId}`);
    const cleared = await watcher.recovered();
    expect(cleared.map((r) => Number(r.id))).toEqual([Number(id)]);
    expect(cleared[0]).toMatchObject({ state: 'cleared', is_active: false, clear_reason: 'recovery' });
    expect((await logOf(id)).map(({ action, user_id, before, after }) => ({ action, user_id, before, after }))).toEqual(
      [
        expect.objectContaining({ action: 'raise' }),
        {
          action: 'clear',
          user_id: null,
          before: { state: 'active' },
          after: { state: 'cleared', clearReason: 'recovery', comment: null },
        },
      ],
    );
    expect(await timersOf(id)).toEqual([]);
    expect(await watcher.recovered()).toEqual([]);
  });

  it('gateway loss: a silent gateway raises its alarm, heard again it clears, both logged', async () => {
    const [gateway] = await rows<{ id: number }>(sql`
      INSERT INTO gateways (account_id, name, dev_eui, stats_interval, last_seen_at)
      VALUES (${kadikoy}, 'Moda roof', 'a840411b2c3d4eff', 30, now() - interval '20 minutes')
      RETURNING id::int AS id`);
    const health = new GatewayHealth(t.database.db);
    const raised = (await health.sweep()).filter((r) => Number(r.gateway_id) === gateway?.id);
    expect(raised).toHaveLength(1);
    const id = raised[0]?.id;
    const [raise] = await logOf(id);
    expect(raise).toMatchObject({ action: 'raise', user_id: null, account_id: kadikoy, before: null });
    expect(raise?.after).toMatchObject({ kind: 'gatewayLoss', state: 'active', gateway_id: gateway?.id });

    await rows(sql`UPDATE gateways SET last_seen_at = now() WHERE id = ${gateway?.id}`);
    const cleared = await health.recovered();
    expect(cleared.map((r) => Number(r.id))).toEqual([Number(id)]);
    expect((await logOf(id)).at(-1)).toMatchObject({
      action: 'clear',
      user_id: null,
      before: { state: 'active' },
      after: { state: 'cleared', clearReason: 'recovery' },
    });
    expect(await timersOf(id)).toEqual([]);
  });

  it("an operator's clear logs who and why, of the account's alarms only, once", async () => {
    const [alarm] = await rows<{ id: number }>(sql`
      INSERT INTO alert_logs (account_id, alert_level, date_time, device_id, kind, state, is_active, comment)
      VALUES (${kadikoy}, 'medium', now(), ${deviceId}, 'threshold', 'acknowledged', true, 'looking into it')
      RETURNING id::int AS id`);
    const [user] = await rows<{ id: number }>(sql`SELECT id::int AS id FROM users ORDER BY id LIMIT 1`);
    const other = t.seeded.subAccountIds[1] as number;
    const how = { reason: 'operator', userId: user?.id, comment: 'lamp replaced' } as const;
    const byId = sql`a.id = ${alarm?.id}`;
    expect(await clearAlarms(t.database.db, { where: sql`${byId} AND a.account_id = ${other}` }, how)).toEqual([]);
    const [cleared] = await clearAlarms(t.database.db, { where: byId }, how);
    expect(cleared).toMatchObject({ state: 'cleared', clear_reason: 'operator', comment: 'lamp replaced' });
    expect(Number(cleared?.cleared_by)).toBe(user?.id);
    expect(await clearAlarms(t.database.db, { where: byId }, how)).toEqual([]);
    expect(await logOf(alarm?.id)).toEqual([
      {
        action: 'clear',
        user_id: user?.id,
        account_id: kadikoy,
        before: { state: 'acknowledged' },
        after: { state: 'cleared', clearReason: 'operator', comment: 'lamp replaced' },
      },
    ]);
  });
});
