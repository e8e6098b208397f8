import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/connect.ts';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/**
 * Makes the demo's SLC-L1 lights (the first ten) server-timed and gives them a group and a profile
 * whose timing names the given switch points (custom clock times, Istanbul); answers their ids.
 */
export async function serverTimedGroup(
  db: Db,
  points: { slot: string; time: string; value: number }[],
): Promise<{ accountId: number; deviceIds: number[]; groupId: number; dimTemplateId: number }> {
  const model = rowsOf(await db.execute(sql`SELECT id FROM device_models WHERE model_name LIKE 'SLC-L1 %'`))[0];
  const modelId = Number(model?.id);
  await db.execute(sql`UPDATE device_models SET support_task = false WHERE id = ${modelId}`);
  const devices = rowsOf(
    await db.execute(sql`SELECT id, account_id FROM devices WHERE device_type_model_id = ${modelId} ORDER BY id`),
  );
  const accountId = Number(devices[0]?.account_id);
  const one = async (q: ReturnType<typeof sql>) => Number(rowsOf(await db.execute(q))[0]?.id);
  const typeId = await one(
    sql`INSERT INTO task_types (account_id, name) VALUES (${accountId}, 'Server-timed') RETURNING id`,
  );
  const profileId = await one(sql`
    INSERT INTO task_profiles (account_id, name, task_type_id, operation, dim_level, color, cyclic_type, priority)
    VALUES (${accountId}, 'Steps', ${typeId}, 'dimming', 50, '#2e9e4f', 'everyday', 5) RETURNING id`);
  const groupId = await one(sql`
    INSERT INTO task_groups (account_id, name, device_type_model_id, status)
    VALUES (${accountId}, 'L1 server-timed', ${modelId}, 'active') RETURNING id`);
  await db.execute(sql`
    INSERT INTO task_group_profiles (account_id, task_group_id, task_profile_id, mode, method, operation, hour, minute,
      start_day, end_day, priority, color, unlimited)
    VALUES (${accountId}, ${groupId}, ${profileId}, 'time', 'fixed', 'on', 0, 0, 1, 31, 9, '#2e9e4f', true)`);
  const columns = points.flatMap((p) => [`${p.slot}_type`, `${p.slot}_time`, `${p.slot}_value`]);
  const values = points.flatMap((p) => [sql`'custom'`, sql`${p.time}::time`, sql`${p.value}`]);
  await db.execute(sql`
    INSERT INTO task_profile_timings (account_id, task_profile_id, ${sql.raw(columns.join(', '))})
    VALUES (${accountId}, ${profileId}, ${sql.join(values, sql`, `)})`);
  const dim = rowsOf(
    await db.execute(
      sql`SELECT id FROM device_channel_templates WHERE device_type_model_id = ${modelId} AND channel_code = 'dim'`,
    ),
  )[0];
  return { accountId, deviceIds: devices.map((d) => Number(d.id)), groupId, dimTemplateId: Number(dim?.id) };
}
