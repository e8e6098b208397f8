import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sunDay } from '../src/engines/sun-times/sun-day.ts';
import { localTime } from '../src/engines/sun-times/zoned-time.ts';
import { Client, countRows, page, startTestApp, type TestApp } from './support/test-app.ts';

/** The schedule preview API on the demo's dusk-to-dawn group, and the schedule entities' bad input. */
let t: TestApp;
let api: Client;
let kadikoy: number;
let groupId: number;
let profileId: number;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const preview = (body: unknown) => api.call('POST', '/query/api/schedules/preview', body);

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  const group = rowsOf(await t.database.db.execute(sql`SELECT id, account_id FROM task_groups ORDER BY id LIMIT 1`))[0];
  kadikoy = Number(group?.account_id);
  groupId = Number(group?.id);
  profileId = Number(rowsOf(await t.database.db.execute(sql`SELECT id FROM task_profiles ORDER BY id LIMIT 1`))[0]?.id);
  api.accountId = kadikoy;
});
afterAll(() => t?.close());

describe('POST /query/api/schedules/preview', () => {
  it("the demo group: on at sunset, 50 % at midnight, off at sunrise, for 30 nights, with each point's rule", async () => {
    const res = await preview({ target: { taskGroupId: groupId }, from: '2026-11-20' });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.nights).toHaveLength(30);
    expect(data.devices).toBeGreaterThan(100);
    expect(data.device.timeZone).toBe('Europe/Istanbul');
    const first = data.nights[0];
    expect(first.night).toBe('2026-11-20');
    const sun = sunDay({ latitude: 40.99, longitude: 29.03, timeZone: 'Europe/Istanbul' }, '2026-11-20');
    expect(first.switchPoints.map((p: { level: number }) => p.level)).toEqual([100, 50, 0]);
    expect(first.switchPoints[1].time).toBe('00:00');
    // The first light stands in Kadıköy: its sunset within two minutes of the district's.
    const sunset = localTime(sun.sunset as Date, 'Europe/Istanbul');
    const shown = first.switchPoints[0].time as string;
    const minutes = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
    expect(Math.abs(minutes(shown) - minutes(sunset))).toBeLessThanOrEqual(2);
    expect(first.switchPoints[0].rule).toMatchObject({
      kind: 'timing',
      groupId,
      profileId,
      profileName: 'Dusk to dawn, 50% after midnight',
    });
    expect(first.burnHours).toBeGreaterThan(13.5);
    expect(first.burnHours).toBeLessThan(14.5);
    // Energy: every light with a rated power (the demo's 120 W heads), 100 % until midnight and 50 % after.
    expect(data.devicesWithPower).toBe(data.devices);
    const fullHours =
      (Date.parse('2026-11-20T21:00:00Z') - Date.parse(first.switchPoints[0].at)) / 3600000 +
      (0.5 * (Date.parse(first.switchPoints[2].at) - Date.parse('2026-11-20T21:00:00Z'))) / 3600000;
    expect(first.energyKwh).toBeCloseTo((fullHours * 120 * data.devices) / 1000, 0);
    expect(data.totals.energyKwh).toBeGreaterThan(first.energyKwh * 29);
  });

  it('a device and a street', async () => {
    const device = rowsOf(
      await t.database.db.execute(
        sql`SELECT id, street FROM devices WHERE account_id = ${kadikoy} AND street IS NOT NULL ORDER BY id LIMIT 1`,
      ),
    )[0];
    const one = await preview({ target: { deviceId: Number(device?.id) }, nights: 2, from: '2026-11-20' });
    expect(one.status).toBe(200);
    expect(one.body.data.devices).toBe(1);
    expect(one.body.data.nights).toHaveLength(2);
    const street = await preview({ target: { street: String(device?.street) }, nights: 1, from: '2026-11-20' });
    expect(street.status).toBe(200);
    expect(street.body.data.devices).toBe(25);
  });

  it("another account's group or device is not found, and planning needs a sign-in", async () => {
    const other = new Client(t.app);
    await other.login();
    other.accountId = t.seeded.subAccountIds.find((id) => id !== kadikoy);
    const res = await other.call('POST', '/query/api/schedules/preview', { target: { taskGroupId: groupId } });
    expect(res.status).toBe(404);
    const anonymous = await new Client(t.app).call('POST', '/query/api/schedules/preview', {
      target: { taskGroupId: groupId },
    });
    expect(anonymous.status).toBe(401);
  });

  it('refuses bad input with field messages in en and tr', async () => {
    for (const [body, field, message] of [
      [{ target: { taskGroupId: groupId }, nights: 0 }, 'nights', /at least 1/],
      [{ target: { taskGroupId: groupId }, nights: 61 }, 'nights', /at most 60/],
      [{ target: { taskGroupId: groupId }, nights: 'many' }, 'nights', /whole number/],
      [{ target: { taskGroupId: groupId }, from: '2026-02-30' }, 'from', /must be a date/],
      [{ nights: 3 }, 'target', /Target is required/],
      [{ target: { street: '  ' } }, 'street', /required/],
      [{ target: { taskGroupId: -4 } }, 'taskGroupId', /wrong type/],
    ] as const) {
      const res = await preview(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error?.fields?.[field]).toMatch(message);
    }
    api.language = 'tr';
    const tr = await preview({ target: { taskGroupId: groupId }, nights: 61 });
    api.language = undefined;
    expect(tr.body.error?.fields?.nights).toMatch(/en fazla 60/);
    expect((await preview('not json at all')).status).toBeLessThan(500);
  });
});

describe('bad schedules are refused with field messages and nothing stored', () => {
  const timing = (slots: Record<string, unknown>) => ({ taskProfileId: profileId, ...slots });

  it('contradictory, overlapping and empty timings', async () => {
    const before = await countRows(t.database, 'task_profile_timings');
    const contradict = await api.create(
      'task-profile-timings',
      timing({ on1Type: 'custom', on1Time: '20:00', on1Value: 100, on2Type: 'custom', on2Time: '20:00', on2Value: 40 }),
    );
    expect(contradict.status).toBe(422);
    expect(contradict.body.error?.fields?.on2Type).toMatch(/same moment as On 1 time type with another level/);
    const overlap = await api.create(
      'task-profile-timings',
      timing({
        on1Type: 'custom',
        on1Time: '19:00',
        off1Type: 'custom',
        off1Time: '02:00',
        on2Type: 'custom',
        on2Time: '23:00',
        off2Type: 'custom',
        off2Time: '04:00',
      }),
    );
    expect(overlap.status).toBe(422);
    expect(overlap.body.error?.fields?.on2Type).toMatch(/overlaps/);
    const empty = await api.create(
      'task-profile-timings',
      timing({ on1Type: 'sunset', on1Offset: 10, off1Type: 'sunset', off1Offset: 10 }),
    );
    expect(empty.status).toBe(422);
    expect(empty.body.error?.fields?.off1Type).toMatch(/same moment/);
    const far = await api.create('task-profile-timings', timing({ on1Type: 'sunset', on1Offset: -400 }));
    expect(far.status).toBe(422);
    expect(far.body.error?.fields?.on1Offset).toMatch(/at least -360/);
    api.language = 'tr';
    const tr = await api.create(
      'task-profile-timings',
      timing({ on1Type: 'custom', on1Time: '20:00', on2Type: 'custom', on2Time: '20:00', on2Value: 40 }),
    );
    api.language = undefined;
    expect(tr.body.error?.fields?.on2Type).toMatch(/aynı anı/);
    expect(await countRows(t.database, 'task_profile_timings')).toBe(before);
    // A good one is stored.
    const good = await api.create(
      'task-profile-timings',
      timing({ on1Type: 'sunset', on1Offset: -15, off1Type: 'sunrise', off1Offset: 15 }),
    );
    expect(good.status).toBe(201);
  });

  it('sun offsets beyond six hours, and clock times that are no times', async () => {
    const pairing = rowsOf(await t.database.db.execute(sql`SELECT id FROM task_group_profiles ORDER BY id LIMIT 1`))[0];
    const stored = (await api.get('task-group-profiles', Number(pairing?.id))).body.data;
    const far = await api.update('task-group-profiles', { ...stored, hour: 6, minute: 30 });
    expect(far.status).toBe(422);
    expect(far.body.error?.fields?.hour).toMatch(/at most 360 minutes/);
    const mixed = await api.update('task-group-profiles', { ...stored, hour: 1, minute: -30 });
    expect(mixed.status).toBe(422);
    expect(mixed.body.error?.fields?.minute).toMatch(/same sign/);
    const clock = await api.update('task-group-profiles', { ...stored, mode: 'time', method: 'fixed', hour: -3 });
    expect(clock.status).toBe(422);
    expect(clock.body.error?.fields?.hour).toMatch(/at least 0/);
    const wrong = await api.update('task-group-profiles', { ...stored, mode: 'time', method: 'sunset' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error?.fields?.method).toMatch(/does not fit/);
    const after = (await api.get('task-group-profiles', Number(pairing?.id))).body.data;
    expect(after).toMatchObject({ hour: stored.hour, minute: stored.minute, method: stored.method });
    const ok = await api.update('task-group-profiles', { ...stored, hour: -6, minute: 0 });
    expect(ok.status).toBe(200);
  });

  it('impossible dates on profiles', async () => {
    const stored = (await api.get('profiles', profileId)).body.data;
    const feb30 = await api.update('profiles', { ...stored, startDate: '2026-02-30' });
    expect(feb30.status).toBe(422);
    expect(feb30.body.error?.fields?.startDate).toMatch(/must be a date/);
    const custom = await api.update('profiles', {
      ...stored,
      cyclicType: 'custom',
      customDates: ['2026-12-31', '2027-02-29'],
    });
    expect(custom.status).toBe(422);
    expect(custom.body.error?.fields?.customDates).toMatch(/"2027-02-29" is not a date/);
    const noDates = await api.update('profiles', { ...stored, cyclicType: 'custom', customDates: null });
    expect(noDates.status).toBe(422);
    expect(noDates.body.error?.fields?.customDates).toMatch(/required/);
    const offDays = await api.update('profiles', { ...stored, offDays: ['funday'] });
    expect(offDays.status).toBe(422);
    const reversed = await api.update('profiles', { ...stored, startDate: '2026-12-01', endDate: '2026-11-01' });
    expect(reversed.status).toBe(422);
    expect((await api.get('profiles', profileId)).body.data).toMatchObject({
      startDate: stored.startDate,
      cyclicType: stored.cyclicType,
    });
  });

  it('task group members are listed per group, once each', async () => {
    const device = rowsOf(
      await t.database.db.execute(sql`SELECT id FROM devices WHERE account_id = ${kadikoy} ORDER BY id LIMIT 1`),
    )[0];
    const member = await api.create('task-group-members', { taskGroupId: groupId, deviceId: Number(device?.id) });
    expect(member.status).toBe(201);
    const again = await api.create('task-group-members', { taskGroupId: groupId, deviceId: Number(device?.id) });
    expect(again.status).toBe(409);
    // The group now runs on its one listed member.
    const res = await preview({ target: { taskGroupId: groupId }, nights: 1, from: '2026-11-20' });
    expect(res.body.data.devices).toBe(1);
    const list = await api.list('task-group-members', { filter: { taskGroupId: groupId }, pageable: page(1) });
    expect(list.body.data.totalElements).toBe(1);
    await api.remove('task-group-members', member.body.data.id);
  });
});

describe('GET /query/api/schedules/running', () => {
  it('what the demo group does at a given time and what comes next, and what the scheduler ran', async () => {
    const evening = await api.call(
      'GET',
      `/query/api/schedules/running?at=${encodeURIComponent('2026-11-20T22:00:00+03:00')}`,
    );
    expect(evening.status).toBe(200);
    const group = evening.body.data.groups.find((g: { groupId: number }) => g.groupId === groupId);
    expect(group).toMatchObject({
      current: { level: 100, rule: { kind: 'timing', groupId } },
      next: { at: '2026-11-20T21:00:00.000Z', level: 50 },
    });
    expect(group.devices).toBeGreaterThan(100);
    const morning = await api.call(
      'GET',
      `/query/api/schedules/running?at=${encodeURIComponent('2026-11-21T10:00:00+03:00')}`,
    );
    const after = morning.body.data.groups.find((g: { groupId: number }) => g.groupId === groupId);
    expect(after.current.level).toBe(0);
    // Next: tonight's sunset, about 17:40 in Istanbul.
    expect(after.next).toMatchObject({ level: 100 });
    expect(after.next.at.startsWith('2026-11-21T14:')).toBe(true);
    expect(Array.isArray(morning.body.data.recent)).toBe(true);
    const bad = await api.call('GET', '/query/api/schedules/running?at=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.body.error?.fields?.at).toMatch(/date and time/);
  });
});
