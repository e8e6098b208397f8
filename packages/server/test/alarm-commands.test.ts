import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveEvent, LiveEvents } from '../src/events/live-events.ts';
import { Client, lastCode, page, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * The alarm lifecycle commands (acknowledge, clear, shelve) and the field checks of alert templates
 * and events: what they change, what they refuse, and that a refusal changes nothing.
 */

let t: TestApp;
let admin: Client;
let kadikoy: number;
let uskudar: number;
const live = new LiveEvents();
const heard: { accountId: number; event: LiveEvent }[] = [];

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const devicesOf = async (accountId: number) =>
  (
    await rows<{ id: number }>(
      sql`SELECT id::int AS id FROM devices WHERE account_id = ${accountId} ORDER BY id LIMIT 5`,
    )
  ).map((r) => r.id);
async function alarm(accountId: number, deviceId: number, active = true): Promise<number> {
  const [row] = await rows<{ id: number }>(sql`
    INSERT INTO alert_logs (account_id, alert_level, date_time, device_id, value, kind, state, is_active)
    VALUES (${accountId}, 'high', now(), ${deviceId}, 262, 'threshold', ${active ? 'active' : 'cleared'}, ${active})
    RETURNING id::int AS id`);
  return row?.id as number;
}
const stateOf = async (id: number) =>
  (
    await rows<{
      state: string;
      is_active: boolean;
      comment: string | null;
      clear_reason: string | null;
      cleared_by: number | null;
      shelved_until: Date | null;
      acknowledged_by: number | null;
    }>(sql`SELECT state, is_active, comment, clear_reason, cleared_by::int AS cleared_by, shelved_until,
      acknowledged_by::int AS acknowledged_by FROM alert_logs WHERE id = ${id}`)
  )[0];
const command = (client: Client, action: string, body: unknown) =>
  client.call('POST', `/command/api/alarms/${action}`, body);

let a: number;
let b: number;
let c: number;
let d: number;

beforeAll(async () => {
  t = await startTestApp({ live, app: { alarms: { tickMs: 0, resyncMs: 0 } } });
  admin = new Client(t.app);
  await admin.login();
  [kadikoy, uskudar] = t.seeded.subAccountIds as [number, number];
  admin.accountId = kadikoy;
  for (const accountId of [kadikoy, uskudar]) {
    live.subscribe(accountId, (events) => {
      for (const event of events) heard.push({ accountId, event });
    });
  }
  const [k1, k2, k3, k4] = await devicesOf(kadikoy);
  // Üsküdar has no devices in the demo: its alarm names a device id it could have.
  const u1 = k4;
  a = await alarm(kadikoy, k1 as number);
  b = await alarm(kadikoy, k2 as number);
  c = await alarm(kadikoy, k3 as number, false);
  d = await alarm(uskudar, u1 as number);
});
afterAll(() => t.close());

describe('alarm lifecycle commands', () => {
  it("acknowledges the account's active alarms and skips the rest — another account's ids as not found", async () => {
    const res = await command(admin, 'acknowledge', { ids: [a, d, 987654, c], comment: 'seen' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        updated: [a],
        skipped: [
          { id: d, reason: 'notFound' },
          { id: 987654, reason: 'notFound' },
          { id: c, reason: 'alreadyCleared' },
        ],
      },
    });
    expect(await stateOf(a)).toMatchObject({ state: 'acknowledged', comment: 'seen' });
    expect((await stateOf(a))?.acknowledged_by).toBeGreaterThan(0);
    // The other account's alarm is untouched, and nothing about it reached either stream.
    expect(await stateOf(d)).toMatchObject({ state: 'active', is_active: true, comment: null, acknowledged_by: null });
    expect(
      heard.filter((h) => h.event.type === 'alarm').map((h) => [h.accountId, (h.event as { id: number }).id]),
    ).toEqual([[kadikoy, a]]);
    expect(heard.find((h) => h.event.type === 'alarm')?.event).toMatchObject({
      type: 'alarm',
      transition: 'acknowledged',
      state: 'acknowledged',
      deviceId: expect.any(Number),
    });
    const again = await command(admin, 'acknowledge', { ids: [a] });
    expect(again.body.data).toEqual({ updated: [], skipped: [{ id: a, reason: 'alreadyAcknowledged' }] });
  });

  it('clears only with a comment (field message in English and Turkish), then records who and why', async () => {
    for (const [language, text] of [
      ['en', 'Comment is required'],
      ['tr', 'Açıklama'],
    ] as const) {
      admin.language = language;
      const res = await command(admin, 'clear', { ids: [a] });
      expect(res.status).toBe(422);
      expect(res.body.error?.fields?.comment).toContain(text);
    }
    admin.language = undefined;
    expect(await stateOf(a)).toMatchObject({ state: 'acknowledged', is_active: true });

    const res = await command(admin, 'clear', { ids: [a, d], comment: 'lamp replaced' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ updated: [a], skipped: [{ id: d, reason: 'notFound' }] });
    const cleared = await stateOf(a);
    expect(cleared).toMatchObject({
      state: 'cleared',
      is_active: false,
      clear_reason: 'operator',
      comment: 'lamp replaced',
    });
    expect(cleared?.cleared_by).toBeGreaterThan(0);
    expect(await stateOf(d)).toMatchObject({ state: 'active', is_active: true });
  });

  it('shelves until a future time within 30 days, and refuses other times', async () => {
    const day = 86_400_000;
    for (const until of [
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 31 * day).toISOString(),
      'tomorrow',
      12,
    ]) {
      const res = await command(admin, 'shelve', { ids: [b], until });
      expect(res.status).toBe(422);
      expect(res.body.error?.fields?.until).toBeTruthy();
    }
    expect((await stateOf(b))?.shelved_until).toBeNull();
    const until = new Date(Date.now() + 3_600_000);
    const res = await command(admin, 'shelve', { ids: [b, d], until: until.toISOString(), comment: 'storm' });
    expect(res.body.data).toEqual({ updated: [b], skipped: [{ id: d, reason: 'notFound' }] });
    expect(new Date((await stateOf(b))?.shelved_until as Date).getTime()).toBe(until.getTime());
    expect((await stateOf(d))?.shelved_until).toBeNull();
  });

  it('refuses bad id lists with a field message', async () => {
    for (const body of [
      {},
      { ids: [] },
      { ids: ['1'] },
      { ids: [0] },
      { ids: [1.5] },
      { ids: Array.from({ length: 501 }, (_, i) => i + 1) },
      [1, 2],
    ]) {
      const res = await command(admin, 'acknowledge', body);
      expect(res.status).toBe(422);
      expect(res.body.error?.fields?.ids).toBeTruthy();
    }
    const extra = await command(admin, 'acknowledge', { ids: [b], state: 'cleared' });
    expect(extra.status).toBe(422);
    expect(extra.body.error?.fields?.state).toBeTruthy();
    expect(await stateOf(b)).toMatchObject({ state: 'active' });
  });

  it('writes every transition to the transaction log, with the operator', async () => {
    const log = await rows<{ action: string; record_id: number; user_id: number | null }>(sql`
      SELECT action, record_id::int AS record_id, user_id::int AS user_id FROM transaction_logs
      WHERE resource = 'alert-logs' ORDER BY id`);
    expect(log.map((l) => [l.action, l.record_id])).toEqual([
      ['acknowledge', a],
      ['clear', a],
      ['shelve', b],
    ]);
    expect(log.every((l) => (l.user_id ?? 0) > 0)).toBe(true);
  });

  it('needs update on alert logs: a read-only role is refused and changes nothing', async () => {
    const role = await admin.create('roles', { name: 'Alarm viewer', permissions: { 'alert-logs': ['read'] } });
    expect(role.status).toBe(201);
    const email = `viewer-${Date.now()}@kadikoy.test`;
    const user = await admin.create('users', {
      firstName: 'Vera',
      lastName: 'Viewer',
      email,
      roleId: role.body.data.id,
    });
    expect(user.status).toBe(201);
    const code = await lastCode(t.dataDir, email);
    await admin.call('POST', '/command/api/auth/reset-password', { email, code, password: 'viewer-pass-1' });
    const viewer = new Client(t.app);
    expect((await viewer.login(email, 'viewer-pass-1')).status).toBe(200);
    viewer.accountId = kadikoy;
    for (const [action, body] of [
      ['acknowledge', { ids: [b] }],
      ['clear', { ids: [b], comment: 'x' }],
      ['shelve', { ids: [b], until: new Date(Date.now() + 60_000).toISOString() }],
    ] as const) {
      expect((await command(viewer, action, body)).status).toBe(403);
    }
    expect(await stateOf(b)).toMatchObject({ state: 'active', is_active: true, comment: 'storm' });
    // Without a selected account, no command at all.
    const noAccount = new Client(t.app);
    await noAccount.login();
    expect((await command(noAccount, 'acknowledge', { ids: [b] })).status).toBe(400);
  });
});

describe('alert templates and events refuse what cannot work', () => {
  const channelOf = async (model: number, code: string) =>
    Number(
      (
        await rows<{ id: number }>(
          sql`SELECT id FROM device_channel_templates WHERE device_type_model_id = ${model} AND channel_code = ${code}`,
        )
      )[0]?.id,
    );
  const count = async (table: string) =>
    Number((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.raw(table)}`))[0]?.n);

  it('refuses a channel of another model than the group’s, impossible bands and unknown conditions', async () => {
    const groups = await admin.list('alert-device-parameter-groups', { pageable: page(1) });
    const group = groups.body.data.content[0];
    const [other] = await rows<{ id: number }>(
      sql`SELECT id::int AS id FROM device_models WHERE id <> ${group.deviceTypeModelId} ORDER BY id LIMIT 1`,
    );
    const foreign = await channelOf(other?.id as number, 'lamp');
    const own = await channelOf(group.deviceTypeModelId, 'voltage');
    const before = await count('alert_parameter_templates');
    const base = {
      name: 'T',
      groupId: group.id,
      alertLevel: 'high',
      condition: 'gt',
      value: 1,
      channelTemplateId: own,
    };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, channelTemplateId: foreign }, 'channelTemplateId', 'another device model'],
      [{ ...base, condition: 'between', value: 10, value2: 5 }, 'value2', ''],
      [{ ...base, condition: 'notBetween', value: 10 }, 'value2', ''],
      [{ ...base, condition: 'around' }, 'condition', ''],
    ];
    for (const [record, field, text] of cases) {
      const res = await admin.create('alert-device-parameter-templates', record);
      expect(res.status, JSON.stringify(record)).toBe(422);
      expect(res.body.error?.fields?.[field]).toContain(text);
    }
    admin.language = 'tr';
    const tr = await admin.create('alert-device-parameter-templates', { ...base, channelTemplateId: foreign });
    expect(tr.body.error?.fields?.channelTemplateId).toContain('grubun cihaz modelinden');
    admin.language = undefined;
    // An update cannot sneak the foreign channel in either.
    const made = await admin.create('alert-device-parameter-templates', base);
    expect(made.status).toBe(201);
    const moved = await admin.update('alert-device-parameter-templates', {
      id: made.body.data.id,
      channelTemplateId: foreign,
    });
    expect(moved.status).toBe(422);
    expect((await admin.get('alert-device-parameter-templates', made.body.data.id)).body.data.channelTemplateId).toBe(
      own,
    );
    expect(await count('alert_parameter_templates')).toBe(before + 1);
  });

  it('refuses malformed e-mail and SMS recipient lists, in English and Turkish', async () => {
    const before = await count('alert_events');
    const base = { eventName: 'E', isForever: true };
    const bad = await admin.create('alert-events', {
      ...base,
      notifyEmail: true,
      emailList: 'ops@example.com, not-an-address',
      notifySms: true,
      smsList: '+90 555 111 22 33; call me',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.fields?.emailList).toContain('not-an-address');
    expect(bad.body.error?.fields?.smsList).toContain('call me');
    admin.language = 'tr';
    const tr = await admin.create('alert-events', { ...base, notifyEmail: true, emailList: 'a@b' });
    expect(tr.body.error?.fields?.emailList).toContain('e-posta adresi değil');
    admin.language = undefined;
    expect(await count('alert_events')).toBe(before);
    const good = await admin.create('alert-events', {
      ...base,
      notifyEmail: true,
      emailList: 'ops@example.com; duty@example.com',
      notifySms: true,
      smsList: '+90 555 111 22 33, 05551112234',
    });
    expect(good.status).toBe(201);
  });
});
