import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alwaysLeader, type Leadership } from '../src/engines/scheduler/leadership.ts';
import { nightOf, Scheduler } from '../src/engines/scheduler/scheduler.ts';
import { type CommandEvent, CommandEvents } from '../src/events/command-events.ts';
import { serverTimedGroup } from './support/scheduler-fixture.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** The scheduler on the embedded database, its clock driven by the test through one night. */
let t: TestApp;
let fixture: Awaited<ReturnType<typeof serverTimedGroup>>;
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const commands = new CommandEvents();
const emitted: CommandEvent[] = [];
commands.on('channel-write-values', 'create', (e) => {
  emitted.push(e);
});

const scheduler = (now: () => Date, leadership: Leadership = alwaysLeader) =>
  new Scheduler(t.database.db, commands, leadership, { now, graceMinutes: 10 });
// Istanbul is UTC+3 all year.
const at = (local: string) => new Date(`${local}+03:00`);

const writes = async () =>
  rowsOf(
    await t.database.db.execute(sql`
      SELECT w.device_id, w.value, w.device_channel_template_id, w.operation_source, l.planned_at, l.control_type,
             l.task_group_id, l.status
      FROM task_control_logs l JOIN channel_write_values w ON w.id = l.channel_write_value_id
      ORDER BY l.planned_at, w.device_id`),
  );

beforeAll(async () => {
  t = await startTestApp();
  fixture = await serverTimedGroup(t.database.db, [
    { slot: 'on1', time: '19:00', value: 100 },
    { slot: 'on2', time: '00:00', value: 50 },
    { slot: 'off1', time: '06:00', value: 0 },
  ]);
});
afterAll(() => t?.close());

describe('server-timed execution', () => {
  it('a first start sends the level in force (off since 06:00) once; nothing more before 19:00', async () => {
    expect(await scheduler(() => at('2026-11-20T18:59:00')).tick()).toBe(fixture.deviceIds.length);
    expect(await scheduler(() => at('2026-11-20T18:59:30')).tick()).toBe(0);
    const rows = await writes();
    expect(rows.map((r) => [r.value, new Date(r.planned_at as string).toISOString()])).toEqual(
      fixture.deviceIds.map(() => [0, at('2026-11-20T06:00:00').toISOString()]),
    );
  });

  it('at 19:00 every server-timed light gets one write to its dim channel, and a control log row', async () => {
    expect(await scheduler(() => at('2026-11-20T19:00:20')).tick()).toBe(fixture.deviceIds.length);
    const rows = (await writes()).filter(
      (r) => new Date(r.planned_at as string).getTime() === at('2026-11-20T19:00:00').getTime(),
    );
    expect(rows).toHaveLength(fixture.deviceIds.length);
    expect(rows.map((r) => Number(r.device_id))).toEqual(fixture.deviceIds);
    for (const r of rows)
      expect(r).toMatchObject({ value: 100, operation_source: 'scheduler', control_type: 'timing', status: 'sent' });
    expect(rows.every((r) => Number(r.device_channel_template_id) === fixture.dimTemplateId)).toBe(true);
    expect(rows.every((r) => Number(r.task_group_id) === fixture.groupId)).toBe(true);
    // The downlink sender hears of each write through the command path.
    expect(emitted.filter((e) => e.resource === 'channel-write-values')).toHaveLength(2 * fixture.deviceIds.length);
    // Controllers that keep their own schedule (the L2 lights) are not driven by the server.
    const others = rowsOf(
      await t.database.db.execute(sql`SELECT count(*)::int AS n FROM channel_write_values
        WHERE operation_source = 'scheduler' AND NOT device_id IN (${sql.join(
          fixture.deviceIds.map((id) => sql`${id}`),
          sql`, `,
        )})`),
    );
    expect(others[0]?.n).toBe(0);
  });

  it('a second pass, a restart or a second scheduler sends nothing again', async () => {
    expect(await scheduler(() => at('2026-11-20T19:01:00')).tick()).toBe(0);
    const [a, b] = [scheduler(() => at('2026-11-20T19:02:00')), scheduler(() => at('2026-11-20T19:02:00'))];
    expect((await Promise.all([a.tick(), b.tick()])).reduce((x, y) => x + y)).toBe(0);
    expect(await writes()).toHaveLength(2 * fixture.deviceIds.length);
  });

  it('midnight dims to 50 %; after a long outage only the level in force is sent, once', async () => {
    expect(await scheduler(() => at('2026-11-21T00:04:00')).tick()).toBe(fixture.deviceIds.length);
    // Down from 00:05 until 06:30: the 06:00 point is past the ten-minute grace, yet it is the level
    // in force, so it is sent (noted as late) — once.
    expect(await scheduler(() => at('2026-11-21T06:30:00')).tick()).toBe(fixture.deviceIds.length);
    expect(await scheduler(() => at('2026-11-21T06:31:00')).tick()).toBe(0);
    const rows = await writes();
    expect(rows.map((r) => r.value)).toEqual([
      ...fixture.deviceIds.map(() => 0),
      ...fixture.deviceIds.map(() => 100),
      ...fixture.deviceIds.map(() => 50),
      ...fixture.deviceIds.map(() => 0),
    ]);
    const notes = rowsOf(
      await t.database.db.execute(
        sql`SELECT DISTINCT message FROM task_control_logs WHERE planned_at = ${at('2026-11-21T06:00:00').toISOString()}`,
      ),
    );
    expect(notes.map((n) => n.message)).toEqual(['late: the level in force']);
  });

  it('a first start mid-evening sends the level in force, not every earlier point', async () => {
    // The next evening: nothing of it ran yet; at 23:00 the 19:00 point is long past.
    expect(await scheduler(() => at('2026-11-21T23:00:00')).tick()).toBe(fixture.deviceIds.length);
    const rows = await writes();
    expect(rows.slice(-fixture.deviceIds.length).every((r) => r.value === 100)).toBe(true);
  });

  it('a follower executes nothing', async () => {
    const follower: Leadership = { isLeader: async () => false, close: async () => {} };
    expect(await scheduler(() => at('2026-11-21T19:00:10'), follower).tick()).toBe(0);
  });

  it('the night of an instant runs noon to noon in its zone, across DST', () => {
    expect(nightOf(new Date('2026-11-20T08:59:00Z'), 'Europe/Istanbul')).toBe('2026-11-19');
    expect(nightOf(new Date('2026-11-20T09:00:00Z'), 'Europe/Istanbul')).toBe('2026-11-20');
    expect(nightOf(new Date('2026-03-29T09:59:00Z'), 'Europe/Berlin')).toBe('2026-03-28');
    expect(nightOf(new Date('2026-03-29T10:00:00Z'), 'Europe/Berlin')).toBe('2026-03-29');
  });
});
