import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AlarmEngine, type CommittedReading } from '../src/engines/alarms/alarm-engine.ts';
import { LiveEvents } from '../src/events/live-events.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * The ingest acknowledges a commit's messages in an immediate (mqtt-subscriber.ts); the alarm and
 * fault engines judge what the commit stored only after it, on a later turn of the event loop, so
 * their work never holds up the acknowledgements and the broker's next messages.
 */
let t: TestApp;
let engine: AlarmEngine;
let reading: CommittedReading;

beforeAll(async () => {
  t = await startTestApp();
  const found = (await t.database.db.execute(sql`
    SELECT d.id::int AS device_id, d.account_id::int AS account_id, c.id::int AS template_id
    FROM devices d JOIN device_channel_templates c ON c.device_type_model_id = d.device_type_model_id
    WHERE c.channel_code = 'power' ORDER BY d.id LIMIT 1`)) as unknown as {
    rows: { device_id: number; account_id: number; template_id: number }[];
  };
  const row = found.rows[0];
  if (!row) throw new Error('the seed has no device with a power channel');
  reading = {
    accountId: row.account_id,
    deviceId: row.device_id,
    templateId: row.template_id,
    subChannel: 0,
    value: 42,
    dateTime: new Date(),
  };
  engine = new AlarmEngine({
    db: t.database.db,
    live: new LiveEvents(),
    notifier: { notify: async () => {} },
    tickMs: 0,
    resyncMs: 0,
  });
  // Loaded first: an engine still reading its rules would wait on the database anyway.
  await engine.start();
}, 120_000);

afterAll(async () => {
  await engine?.stop();
  await t?.close();
});

describe('the engines judge a commit after its acknowledgements', () => {
  it('an immediate scheduled with the commit runs before either engine judges it; both judge it then', async () => {
    const alarmJudged = vi.spyOn(engine as unknown as { evaluate: () => Promise<void> }, 'evaluate');
    const faultJudged = vi.spyOn(engine.faults, 'evaluate');
    const seenByTheAcknowledgement: number[] = [];
    engine.onCommitted([reading], []);
    setImmediate(() => seenByTheAcknowledgement.push(alarmJudged.mock.calls.length, faultJudged.mock.calls.length));
    await engine.idle();
    expect(seenByTheAcknowledgement).toEqual([0, 0]);
    expect(alarmJudged).toHaveBeenCalledTimes(1);
    expect(faultJudged).toHaveBeenCalledTimes(1);
    expect(faultJudged.mock.calls[0]?.[0]).toEqual([reading]);
  });
});
