import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestApp } from './support/test-app.ts';

/** The write log keeps sent commands as they were sent. */
let t: TestApp;
let client: Client;

beforeAll(async () => {
  t = await startTestApp();
  client = new Client(t.app);
  await client.login();
  client.accountId = t.seeded.integratorId;
}, 240_000);
afterAll(() => t.close());

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function dimCommand() {
  const [target] = await rows<{ device: number; template: number; account: number }>(sql`
    SELECT d.id::int AS device, c.id::int AS template, d.account_id::int AS account FROM devices d
    JOIN device_channel_templates c ON c.device_type_model_id = d.device_type_model_id AND c.channel_code = 'dim'
    ORDER BY d.id LIMIT 1`);
  expect(target).toBeDefined();
  client.accountId = target?.account;
  const created = await client.create('channel-write-values', {
    deviceId: target?.device,
    deviceChannelTemplateId: target?.template,
    value: 40,
  });
  expect(created.status).toBe(201);
  const id = created.body.data.id as number;
  return {
    id,
    whole: {
      id,
      deviceId: target?.device,
      deviceChannelTemplateId: target?.template,
      updatedAt: created.body.data.updatedAt,
    },
  };
}

describe('commands in the write log', () => {
  it('may be changed or withdrawn while still waiting to be sent', async () => {
    const { id, whole } = await dimCommand();
    await t.database.db.execute(sql`UPDATE channel_write_values SET status = 'pending' WHERE id = ${id}`);
    const changed = await client.update('channel-write-values', { ...whole, value: 30 });
    expect(changed.status, changed.raw).toBe(200);
    expect((await client.remove('channel-write-values', id)).status).toBe(200);
  });

  it('are neither changed nor deleted once sent, and say why in the language asked', async () => {
    for (const status of ['sent', 'acknowledged', 'failed']) {
      const { id, whole } = await dimCommand();
      await t.database.db.execute(sql`UPDATE channel_write_values SET status = ${status}, value = 40 WHERE id = ${id}`);
      const changed = await client.update('channel-write-values', { ...whole, value: 90 });
      expect(changed.status).toBe(403);
      expect(changed.body.error?.message).toMatch(/cannot be changed or deleted/);
      client.language = 'tr';
      const removed = await client.remove('channel-write-values', id);
      client.language = undefined;
      expect(removed.status).toBe(403);
      expect(removed.body.error?.message).toMatch(/değiştirilemez veya silinemez/);
      const [row] = await rows<{ value: number; status: string }>(
        sql`SELECT value, status FROM channel_write_values WHERE id = ${id}`,
      );
      expect(row).toEqual({ value: 40, status });
    }
  });
});
