import { FAULT_PHOTO_MAX_BYTES } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reopenReturnedFaults } from '../src/data/work-orders.ts';
import { type Call, Client, lastCode, page, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * The maintenance workflow: a fault becomes a work order that is assigned, planned, started,
 * resolved and closed through the command API's state machine; illegal steps, other roles and
 * other accounts are refused; a fault that comes back within a week reopens its work order; photo
 * limits. (The KPIs over a period are the maintenance report: reports.test.ts.)
 */

let t: TestApp;
let admin: Client;
let adminId: number;
let kadikoy: number;
let uskudar: number;
let devices: number[];
const roleIds: Record<string, number> = {};
let serial = 0;

const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(query))[0]?.n);

const command = (client: Client, step: string, body: unknown) =>
  client.call('POST', `/command/api/work-orders/${step}`, body);
const report = (client: Client, body: Record<string, unknown>) => command(client, 'report', body);
const historyOf = async (id: number) =>
  rows<{ action: string; work: string; parts_used: string | null; performed_by: string }>(
    sql`SELECT action, work, parts_used, performed_by FROM maintenance_history WHERE fault_report_id = ${id} ORDER BY id`,
  );
const orderRow = async (id: number) =>
  (
    await rows<
      Record<string, unknown>
    >(sql`SELECT status, assignee_id::int AS assignee_id, crew, planned_date::text AS planned_date,
      resolution, parts_used, reopen_count, duplicate_of_id::int AS duplicate_of_id,
      started_at IS NOT NULL AS started, resolved_at IS NOT NULL AS resolved, closed_at IS NOT NULL AS closed
      FROM fault_reports WHERE id = ${id}`)
  )[0];
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

// A real 1×1 PNG; JPEG's first bytes for a file that claims to be something else.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);

/** A person an administrator invited into `accountId` with a role, signed in. */
async function member(accountId: number, role: string) {
  const email = `crew-${Date.now()}-${serial++}@work-orders.test`;
  admin.accountId = accountId;
  const created = await admin.create('users', {
    firstName: 'Ekip',
    lastName: `Üye ${serial}`,
    email,
    roleId: roleIds[role],
  });
  expect(created.status).toBe(201);
  const code = await lastCode(t.dataDir, email);
  const reset = await new Client(t.app).call('POST', '/command/api/auth/reset-password', {
    email,
    code,
    password: 'crew-password-1',
  });
  expect(reset.status).toBe(200);
  const client = new Client(t.app);
  expect((await client.login(email, 'crew-password-1')).status).toBe(200);
  client.accountId = accountId;
  return { client, id: created.body.data.id as number };
}

/** A new open work order on a device of Kadıköy, by the administrator. */
async function newOrder(deviceId = devices[0] as number, faultType = 'lamp_failure'): Promise<number> {
  admin.accountId = kadikoy;
  const res = await report(admin, { deviceId, faultType, description: 'lamp dark' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

beforeAll(async () => {
  t = await startTestApp({ app: { workOrderSweepMs: 0, alarms: { tickMs: 0, resyncMs: 0 } } });
  admin = new Client(t.app);
  const login = await admin.login();
  adminId = login.body.data.user.id;
  [kadikoy, uskudar] = t.seeded.subAccountIds as [number, number];
  admin.accountId = kadikoy;
  const roles = await admin.list('roles', { filter: null, pageable: page(1, 100) });
  for (const r of roles.body.data.content) roleIds[r.name] = r.id;
  devices = (
    await rows<{ id: number }>(sql`SELECT id::int AS id FROM devices WHERE account_id = ${kadikoy} ORDER BY id LIMIT 6`)
  ).map((r) => r.id);
});
afterAll(() => t.close());

describe('a fault becomes a work order', () => {
  it('is reported with a photo and the device’s position, then assigned, planned, started, resolved and closed', async () => {
    admin.accountId = kadikoy;
    const device = devices[0] as number;
    const [position] = await rows<{ latitude: number; longitude: number }>(
      sql`SELECT latitude, longitude FROM devices WHERE id = ${device}`,
    );
    const res = await report(admin, {
      deviceId: device,
      faultType: 'lamp_failure',
      description: 'Lamp dark since Monday',
      photo: { contentType: 'image/png', data: PNG.toString('base64') },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'open', reopened: false });
    const id = res.body.data.id as number;
    expect(res.body.data.record).toMatchObject({
      id,
      deviceId: device,
      status: 'open',
      hasPhoto: true,
      latitude: position?.latitude,
      longitude: position?.longitude,
      reopenCount: 0,
    });
    expect(res.body.data.record.reporter).toBeTruthy();

    const photo = await t.app.inject({
      method: 'GET',
      url: `/query/api/work-orders/${id}/photo`,
      headers: { authorization: `Bearer ${admin.token}`, 'x-account-id': String(kadikoy) },
    });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.rawPayload.equals(PNG)).toBe(true);

    const assigned = await command(admin, 'assign', { id, assigneeId: adminId, crew: 'Ekip A' });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data).toMatchObject({ status: 'assigned', assigneeId: adminId, crew: 'Ekip A' });

    const when = inDays(2);
    const planned = await command(admin, 'plan', { id, plannedDate: when, work: 'Replace the driver' });
    expect(planned.body.data).toMatchObject({ status: 'planned', plannedDate: when });
    const [plan] = await rows<{ due_date: string; status: string; device_id: number; work: string }>(
      sql`SELECT due_date::text AS due_date, status, device_id::int AS device_id, work FROM maintenance_planning WHERE fault_report_id = ${id}`,
    );
    expect(plan).toEqual({ due_date: when, status: 'planned', device_id: device, work: 'Replace the driver' });

    expect((await command(admin, 'start', { id })).body.data).toMatchObject({ status: 'in_progress' });
    const resolved = await command(admin, 'resolve', {
      id,
      resolution: 'Driver replaced, lamp on',
      partsUsed: '1 × LED driver 60 W',
    });
    expect(resolved.body.data).toMatchObject({
      status: 'resolved',
      resolution: 'Driver replaced, lamp on',
      partsUsed: '1 × LED driver 60 W',
    });
    expect(resolved.body.data.resolvedAt).toBeTruthy();
    const closed = await command(admin, 'close', { id });
    expect(closed.body.data).toMatchObject({ status: 'closed' });
    expect(closed.body.data.closedAt).toBeTruthy();

    expect((await historyOf(id)).map((h) => h.action)).toEqual([
      'reported',
      'assign',
      'plan',
      'start',
      'resolve',
      'close',
    ]);
    expect((await historyOf(id))[4]).toMatchObject({
      work: 'Driver replaced, lamp on',
      parts_used: '1 × LED driver 60 W',
    });
    // The plan followed the work order.
    expect((await rows(sql`SELECT status FROM maintenance_planning WHERE fault_report_id = ${id}`))[0]).toEqual({
      status: 'done',
    });
    // Each step is in the transaction log.
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM transaction_logs WHERE resource = 'report-a-fault' AND record_id = ${id}`,
      ),
    ).toBe(6);
    // The device's history is reachable through the query API (what the console's screens read).
    const history = await admin.list('maintenance-history', { filter: { deviceId: device }, pageable: page(1, 50) });
    expect(history.body.data.content.filter((h: { faultReportId: number }) => h.faultReportId === id)).toHaveLength(6);
  });

  it('refuses illegal transitions with a 409 in English and Turkish, and changes nothing', async () => {
    const id = await newOrder(devices[1]);
    const before = await orderRow(id);
    const historyBefore = await historyOf(id);
    for (const [step, body] of [
      ['start', { id }],
      ['resolve', { id, resolution: 'x' }],
      ['close', { id }],
      ['reopen', { id, reason: 'x' }],
      ['plan', { id, plannedDate: inDays(1) }],
    ] as const) {
      const res = await command(admin, step, body);
      expect(res.status, step).toBe(409);
      expect(res.body.error?.code).toBe('CONFLICT');
    }
    admin.language = 'en';
    const en = await command(admin, 'start', { id });
    expect(en.body.error?.message).toBe(
      `Work order #${id} is Open: “Start” is possible only when it is Assigned, Planned.`,
    );
    admin.language = 'tr';
    const tr = await command(admin, 'start', { id });
    expect(tr.body.error?.message).toBe(
      `#${id} numaralı iş emri şu an Açık: “Başlat” yalnızca şu durumlarda yapılabilir: Atandı, Planlandı.`,
    );
    admin.language = undefined;
    expect(await orderRow(id)).toEqual(before);
    expect(await historyOf(id)).toEqual(historyBefore);

    // Assigned, it still cannot be closed or resolved; resolved, it cannot be started again.
    await command(admin, 'assign', { id, assigneeId: adminId });
    expect((await command(admin, 'close', { id })).status).toBe(409);
    expect((await command(admin, 'resolve', { id, resolution: 'x' })).status).toBe(409);
    await command(admin, 'start', { id });
    await command(admin, 'resolve', { id, resolution: 'Fuse replaced' });
    expect((await command(admin, 'start', { id })).status).toBe(409);
    // A resolution that did not hold: reopened by hand, back to open with the count up.
    const reopened = await command(admin, 'reopen', { id, reason: 'Still dark at night' });
    expect(reopened.body.data).toMatchObject({ status: 'open', reopenCount: 1, resolvedAt: null });
    expect((await historyOf(id)).at(-1)).toMatchObject({ action: 'reopen', work: 'Still dark at night' });
  });

  it('refuses bad bodies with a clear field message and no write', async () => {
    const id = await newOrder(devices[1]);
    const before = await orderRow(id);
    expect((await command(admin, 'assign', { id, assigneeId: adminId })).status).toBe(200);
    const plan = await command(admin, 'plan', { id, plannedDate: inDays(-3) });
    expect(plan.status).toBe(422);
    expect(plan.body.error?.fields?.plannedDate).toBe('Planned date cannot be in the past.');
    const noReason = await command(admin, 'resolve', { id });
    expect(noReason.status).toBe(400);
    const extra = await command(admin, 'start', { id, status: 'closed' });
    expect(extra.status).toBe(400);
    // Someone who cannot act in the account (a member of Üsküdar only) cannot be assigned.
    const outsider = await member(uskudar, 'Administrator');
    admin.accountId = kadikoy;
    const res = await command(admin, 'assign', { id, assigneeId: outsider.id });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields?.assigneeId).toBe('Assignee: the selected record does not exist');
    // The console's list of people to assign holds those who can act in the account, not the outsider.
    const people = (await admin.call('GET', '/query/api/work-orders/assignees')).body.data as { id: number }[];
    expect(people.map((p) => p.id)).toContain(adminId);
    expect(people.map((p) => p.id)).not.toContain(outsider.id);
    const unknown = await command(admin, 'assign', { id, assigneeId: 99_999_999 });
    expect(unknown.status).toBe(422);
    expect({ ...(await orderRow(id)), status: 'open', assignee_id: null }).toEqual(before);

    // The generic update cannot move the status by hand: it is the workflow's.
    const record = (await admin.get('report-a-fault', id)).body.data;
    const generic = await admin.update('report-a-fault', { ...record, status: 'closed', description: 'edited' });
    expect(generic.status).toBe(200);
    expect(generic.body.data).toMatchObject({ status: 'assigned', description: 'edited' });
  });
});

describe('permissions and accounts', () => {
  it('lets a viewer neither report nor assign; the assignee starts and resolves their own work order only', async () => {
    const viewer = await member(kadikoy, 'Viewer');
    const other = await member(kadikoy, 'Viewer');
    admin.accountId = kadikoy;
    const refused = await report(viewer.client, { deviceId: devices[2], faultType: 'other' });
    expect(refused.status).toBe(403);
    const id = await newOrder(devices[2]);
    const assign = await command(viewer.client, 'assign', { id, assigneeId: viewer.id });
    expect(assign.status).toBe(403);
    expect(assign.body.error?.message).toContain('Assign');
    expect((await orderRow(id))?.status).toBe('open');

    expect((await command(admin, 'assign', { id, assigneeId: viewer.id, crew: 'Gece ekibi' })).status).toBe(200);
    // Another viewer is not the assignee.
    expect((await command(other.client, 'start', { id })).status).toBe(403);
    expect((await command(viewer.client, 'start', { id })).body.data).toMatchObject({ status: 'in_progress' });
    expect((await command(viewer.client, 'resolve', { id, resolution: 'Cable fixed' })).body.data).toMatchObject({
      status: 'resolved',
    });
    // Closing is a supervisor's step.
    const close = await command(viewer.client, 'close', { id });
    expect(close.status).toBe(403);
    viewer.client.language = 'tr';
    const closeTr = await command(viewer.client, 'close', { id });
    expect(closeTr.body.error?.message).toContain('Kapat');
    expect((await orderRow(id))?.status).toBe('resolved');
    expect((await historyOf(id)).find((h) => h.action === 'resolve')?.performed_by).toMatch(/^Ekip Üye/);
  });

  it("answers another account's work order as not found, and changes nothing", async () => {
    admin.accountId = uskudar;
    const [device] = await rows<{ id: number }>(sql`SELECT id::int AS id FROM devices ORDER BY id LIMIT 1`);
    const [foreign] = await rows<{
      id: number;
    }>(sql`INSERT INTO fault_reports (account_id, device_id, fault_type, reported_at, status)
      VALUES (${uskudar}, ${device?.id}, 'other', now(), 'open') RETURNING id::int AS id`);
    const id = foreign?.id as number;
    await t.database.db.execute(
      sql`INSERT INTO fault_photos (account_id, fault_report_id, content_type, byte_size, data) VALUES (${uskudar}, ${id}, 'image/png', ${PNG.length}, ${PNG})`,
    );
    admin.accountId = kadikoy;
    const before = await orderRow(id);
    for (const [step, body] of [
      ['assign', { id, assigneeId: adminId }],
      ['plan', { id, plannedDate: inDays(1) }],
      ['start', { id }],
      ['resolve', { id, resolution: 'x' }],
      ['close', { id }],
      ['reopen', { id, reason: 'x' }],
    ] as const) {
      const res = await command(admin, step, body);
      expect(res.status, step).toBe(404);
    }
    expect((await admin.get('report-a-fault', id)).status).toBe(404);
    const photo = await admin.call('GET', `/query/api/work-orders/${id}/photo`);
    expect(photo.status).toBe(404);
    expect(await orderRow(id)).toEqual(before);
    expect(await historyOf(id)).toEqual([]);
    // Nor can a device of another account be reported on.
    admin.accountId = uskudar;
    const cross = await report(admin, { deviceId: devices[0], faultType: 'other' });
    expect(cross.status).toBe(422);
    expect(cross.body.error?.fields?.deviceId).toBeTruthy();
    admin.accountId = kadikoy;
  });
});

describe('a fault that comes back', () => {
  async function closedOrder(deviceId: number, faultType: string, closedDaysAgo: number): Promise<number> {
    const id = await newOrder(deviceId, faultType);
    await command(admin, 'assign', { id, assigneeId: adminId });
    await command(admin, 'start', { id });
    await command(admin, 'resolve', { id, resolution: 'Lamp replaced' });
    await command(admin, 'close', { id });
    await t.database.db.execute(
      sql`UPDATE fault_reports SET closed_at = now() - ${`${closedDaysAgo} days`}::interval WHERE id = ${id}`,
    );
    return id;
  }

  it('reopens the work order closed within a week for the same device and fault type', async () => {
    const device = devices[3] as number;
    const id = await closedOrder(device, 'lamp_failure', 6);
    const again = await report(admin, { deviceId: device, faultType: 'lamp_failure', description: 'Dark again' });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ id, reopened: true, status: 'open' });
    expect(again.body.data.record).toMatchObject({
      id,
      status: 'open',
      reopenCount: 1,
      closedAt: null,
      resolvedAt: null,
    });
    const duplicate = await orderRow(again.body.data.reportId);
    expect(duplicate).toMatchObject({ status: 'duplicate', duplicate_of_id: id });
    expect((await historyOf(id)).at(-1)).toMatchObject({ action: 'autoReopen' });
    expect((await historyOf(id)).at(-1)?.work).toContain('Dark again');
  });

  it('opens a new work order after a week, or for another fault type', async () => {
    const device = devices[4] as number;
    const old = await closedOrder(device, 'lamp_failure', 8);
    const late = await report(admin, { deviceId: device, faultType: 'lamp_failure' });
    expect(late.body.data.reopened).toBe(false);
    expect(late.body.data.id).not.toBe(old);
    expect((await orderRow(old))?.status).toBe('closed');
    const recent = await closedOrder(device, 'over_voltage', 1);
    const otherType = await report(admin, { deviceId: device, faultType: 'no_power' });
    expect(otherType.body.data.reopened).toBe(false);
    expect((await orderRow(recent))?.status).toBe('closed');
  });

  it('reopens also for faults written by the fault engine or the generic create', async () => {
    const device = devices[5] as number;
    const id = await closedOrder(device, 'communication', 2);
    // The fault engine inserts an open report of its own.
    const [engine] = await rows<{
      id: number;
    }>(sql`INSERT INTO fault_reports (account_id, device_id, fault_type, reported_at, status, reporter)
      VALUES (${kadikoy}, ${device}, 'communication', now(), 'open', 'Lampyr') RETURNING id::int AS id`);
    // A second on: the database keeps microseconds, a Date milliseconds (the same instant may compare earlier).
    expect(await reopenReturnedFaults(t.database.db, new Date(Date.now() + 1000))).toContain(id);
    expect(await orderRow(id)).toMatchObject({ status: 'open', reopen_count: 1 });
    expect(await orderRow(engine?.id as number)).toMatchObject({ status: 'duplicate', duplicate_of_id: id });
    // Idempotent: nothing more to do.
    expect(await reopenReturnedFaults(t.database.db, new Date())).toEqual([]);

    await command(admin, 'assign', { id, assigneeId: adminId });
    await command(admin, 'start', { id });
    await command(admin, 'resolve', { id, resolution: 'Antenna replaced' });
    await command(admin, 'close', { id });
    const generic = await admin.create('report-a-fault', {
      deviceId: device,
      faultType: 'communication',
      reportedAt: new Date().toISOString(),
      description: 'No uplinks',
    });
    expect(generic.status).toBe(201);
    expect(generic.body.data.status).toBe('open');
    expect(await orderRow(id)).toMatchObject({ status: 'open', reopen_count: 2 });
    expect(await orderRow(generic.body.data.id)).toMatchObject({ status: 'duplicate', duplicate_of_id: id });
  });
});

describe('photos', () => {
  const photoBody = (contentType: string, data: Buffer) => ({
    deviceId: devices[0],
    faultType: 'physical_damage',
    photo: { contentType, data: data.toString('base64') },
  });
  const refusedWith = (res: Call, text: RegExp) => {
    expect(res.status).toBe(422);
    expect(res.body.error?.fields?.photo).toMatch(text);
  };

  it('refuses a photo over 2 MB, of another type, or whose bytes are not what it claims — and writes nothing', async () => {
    admin.accountId = kadikoy;
    const before = await count(sql`SELECT count(*)::int AS n FROM fault_reports`);
    const photos = await count(sql`SELECT count(*)::int AS n FROM fault_photos`);
    const big = Buffer.concat([PNG, Buffer.alloc(FAULT_PHOTO_MAX_BYTES)]);
    refusedWith(await report(admin, photoBody('image/png', big)), /larger than 2 MB/);
    admin.language = 'tr';
    refusedWith(await report(admin, photoBody('image/png', big)), /2 MB’tan büyük/);
    admin.language = undefined;
    refusedWith(await report(admin, photoBody('image/gif', Buffer.from('GIF89a-------'))), /JPEG, PNG or WebP/);
    refusedWith(await report(admin, photoBody('image/png', JPEG_HEAD)), /JPEG, PNG or WebP/);
    refusedWith(await report(admin, photoBody('image/svg+xml', Buffer.from('<svg onload="x()"/>'))), /JPEG, PNG/);
    const notBase64 = await report(admin, {
      deviceId: devices[0],
      faultType: 'other',
      photo: { contentType: 'image/png', data: '%%%not base64%%%' },
    });
    refusedWith(notBase64, /JPEG, PNG or WebP/);
    // A body far larger than any photo is refused before it is read.
    const huge = await report(admin, photoBody('image/png', Buffer.alloc(FAULT_PHOTO_MAX_BYTES * 2)));
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    expect(await count(sql`SELECT count(*)::int AS n FROM fault_reports`)).toBe(before);
    expect(await count(sql`SELECT count(*)::int AS n FROM fault_photos`)).toBe(photos);

    // Exactly at the limit, with a JPEG's bytes, it is taken; the location given wins over the device's.
    const atLimit = Buffer.concat([JPEG_HEAD, Buffer.alloc(FAULT_PHOTO_MAX_BYTES - JPEG_HEAD.length)]);
    const ok = await report(admin, { ...photoBody('image/jpeg', atLimit), latitude: 40.99, longitude: 29.03 });
    expect(ok.status).toBe(201);
    expect(ok.body.data.record).toMatchObject({ hasPhoto: true, latitude: 40.99, longitude: 29.03 });
    const half = await report(admin, { deviceId: devices[0], faultType: 'other', latitude: 40.99 });
    expect(half.status).toBe(422);
    expect(half.body.error?.fields?.latitude).toBeTruthy();
  });
});
