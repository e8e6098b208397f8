import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/connect.ts';
import { LiveEvents } from '../src/events/live-events.ts';
import { BatchWriter, type Reading } from '../src/ingest/batch-writer.ts';
import { sqlStateOf } from '../src/ingest/store-errors.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * Readings go into channel_read_values by COPY on PostgreSQL (text format: fields escaped) and by
 * the unnest INSERT on PGlite; a reading already stored makes the COPY fail with 23505, and the
 * writer stores the batch again with the INSERT, which skips it — once each, nothing lost.
 */
const onPostgres = (process.env.LAMPYR_TEST_DB ?? 'pglite').startsWith('postgres');

let t: TestApp;
let account: number;
let deviceId: number;
let templateId: number;
const errors: unknown[] = [];
/** What the writer's COPY transactions did: 'ok', or the SQLSTATE they failed with. */
const copies: string[] = [];

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

function writer(): BatchWriter {
  const withClient = t.database.transactionWithClient;
  const counted: Database['transactionWithClient'] = withClient
    ? async (work) => {
        try {
          const result = await withClient(work);
          copies.push('ok');
          return result;
        } catch (error) {
          copies.push(sqlStateOf(error) ?? 'other');
          throw error;
        }
      }
    : undefined;
  return new BatchWriter(t.database.db, new LiveEvents(), { concurrency: 1, transactionWithClient: counted }, (error) =>
    errors.push(error),
  );
}

const at = (second: number) => new Date(Date.UTC(2026, 10, 20, 18, 0, second));
const reading = (second: number, value: number, frameKey: string, status = 'ok'): Reading => ({
  accountId: account,
  deviceId,
  templateId,
  subChannel: 0,
  channelCode: 'dim',
  value,
  status,
  dateTime: at(second),
  frameKey,
});

const stored = () =>
  rows<{ value: number; status: string; frame_key: string; date_time: string | Date }>(sql`
    SELECT value, status, frame_key, date_time FROM channel_read_values
    WHERE device_id = ${deviceId} ORDER BY date_time, frame_key`);

beforeAll(async () => {
  t = await startTestApp();
  account = t.seeded.subAccountIds[0] as number;
  const [device] = await rows<{ id: number; template: number }>(sql`
    SELECT d.id::int AS id, c.id::int AS template FROM devices d
    JOIN device_channel_templates c ON c.device_type_model_id = d.device_type_model_id AND c.channel_code = 'dim'
    WHERE d.account_id = ${account} ORDER BY d.id LIMIT 1`);
  deviceId = (device as { id: number }).id;
  templateId = (device as { template: number }).template;
  await t.database.db.execute(sql`SELECT lampyr_ensure_reading_partition(${at(0).toISOString()}::timestamptz)`);
  await t.database.db.execute(sql`DELETE FROM channel_read_values WHERE device_id = ${deviceId}`);
});
afterAll(() => t.close());

describe('readings into channel_read_values', () => {
  it('stores every field as given, frame keys and statuses with tabs, newlines and backslashes included', async () => {
    const w = writer();
    const hostile = ['h:a\tb', 'h:line\nbreak', 'h:back\\slash', 'h:cr\rlf', 'h:\\N', 'h:"quoted", {braces}', 'h:ünï€'];
    const values = [-12.5, 0, 1e21, 33.333333333333336, -0.001, 5e-324, 100];
    await Promise.all(
      hostile.map((key, i) =>
        w.submit({ readings: [reading(i, values[i] as number, key, i === 3 ? 'out\tof\\range' : 'ok')] }),
      ),
    );
    await w.drain();
    expect(errors).toEqual([]);
    const got = await stored();
    expect(got.map((r) => r.frame_key)).toEqual(hostile);
    expect(got.map((r) => Number(r.value))).toEqual(values);
    expect(got[3]?.status).toBe('out\tof\\range');
    expect(got.map((r) => new Date(r.date_time).getTime())).toEqual(hostile.map((_, i) => at(i).getTime()));
    // On PostgreSQL all of it went by COPY, which nothing refused.
    expect(copies).toEqual(onPostgres ? ['ok'] : []);
  });

  it('stores a batch holding readings already stored: the new ones once, the old ones not again', async () => {
    const w = writer();
    copies.length = 0;
    const before = (await stored()).length;
    // Two readings of frames stored above (a message delivered again), two new ones, and one new
    // frame twice in the same batch.
    await Promise.all([
      w.submit({ readings: [reading(0, -12.5, 'h:a\tb'), reading(1, 0, 'h:line\nbreak')] }),
      w.submit({ readings: [reading(20, 40, 'fcnt:20'), reading(21, 41, 'fcnt:21')] }),
      w.submit({ readings: [reading(22, 42, 'fcnt:22')] }),
      w.submit({ readings: [reading(22, 42, 'fcnt:22')] }),
    ]);
    await w.drain();
    expect(errors).toEqual([]);
    const got = await stored();
    expect(got.length).toBe(before + 3);
    expect(got.filter((r) => r.frame_key.startsWith('fcnt:')).map((r) => [r.frame_key, Number(r.value)])).toEqual([
      ['fcnt:20', 40],
      ['fcnt:21', 41],
      ['fcnt:22', 42],
    ]);
    // COPY refused the batch with a unique violation; the INSERT that skips stored readings took it.
    expect(copies).toEqual(onPostgres ? ['23505'] : []);
  });

  it.skipIf(!onPostgres)('returns the connection of a failed COPY to the pool in working order', async () => {
    const w = writer();
    for (let round = 0; round < 30; round++)
      await w.submit({ readings: [reading(0, -12.5, 'h:a\tb'), reading(40 + round, round, `fcnt:${40 + round}`)] });
    await w.drain();
    expect(errors).toEqual([]);
    expect((await stored()).filter((r) => r.frame_key.startsWith('fcnt:')).length).toBe(33);
    // Every pooled connection still answers (a COPY left half-done would make them fail).
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => rows<{ one: number }>(sql`SELECT 1 AS one`).then((r) => r[0]?.one)),
    );
    expect(answers.every((one) => one === 1)).toBe(true);
  });
});
