import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, lastCode, page, startTestApp, type TestApp } from './support/test-app.ts';

/** Only what is not generic: rules particular to an entity. */
let t: TestApp;
let api: Client;
let kadikoy: number;

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  kadikoy = t.seeded.subAccountIds[0] as number;
});
afterAll(() => t.close());

const first = async (prefix: string, filter: Record<string, unknown> | null = null) =>
  (await api.list(prefix, { filter, pageable: page(1, 1) })).body.data.content[0];

describe('device types need their English and Turkish names and IoT', () => {
  it('names the three required fields', async () => {
    api.accountId = t.seeded.integratorId;
    const res = await api.create('devices-types', { typeNameFr: 'Lampadaire' });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields).toEqual({
      typeNameEn: 'Type name (English) is required',
      typeNameTr: 'Type name (Turkish) is required',
      iotType: 'IoT is required',
    });
    const ok = await api.create('devices-types', { typeNameEn: 'Cabinet', typeNameTr: 'Pano', iotType: 'NON-IOT' });
    expect(ok.status).toBe(201);
  });

  it('is shared data: any account may read it, only a platform operator changes it', async () => {
    const email = 'owner@rules.test';
    const owner = new Client(t.app);
    const person = { firstName: 'A', lastName: 'B', phoneNumber: '1', title: 'C', email, password: 'owner-pass-1' };
    await owner.call('POST', '/command/api/auth/register', person);
    await owner.call('POST', '/command/api/auth/verify-otp', { email, code: await lastCode(t.dataDir, email) });
    owner.accountId = (await owner.login(email, 'owner-pass-1')).body.data.accounts[0].id;
    expect(
      (await owner.list('devices-types', { filter: null, pageable: page(1) })).body.data.totalElements,
    ).toBeGreaterThan(0);
    const body = { typeNameEn: 'X', typeNameTr: 'X', iotType: 'IOT' };
    expect((await owner.create('devices-types', body)).status).toBe(403);
    api.accountId = kadikoy;
    expect((await api.create('devices-types', body)).status).toBe(201);
  });
});

describe('device sleep time is 1 to 60 minutes', () => {
  it('refuses 0 and 61 and keeps 60', async () => {
    api.accountId = kadikoy;
    const device = await first('devices');
    for (const [sleepTime, status] of [
      [0, 422],
      [61, 422],
      [60, 200],
    ] as const) {
      const current = (await api.get('devices', device.id)).body.data;
      const res = await api.update('devices', { ...current, sleepTime });
      expect(res.status, `sleepTime ${sleepTime}`).toBe(status);
      if (status === 422)
        expect(res.body.error?.fields?.sleepTime).toMatch(/Sleep time \(minutes\) must be at (least 1|most 60)/);
    }
  });
});

describe('alert conditions between and not between take two bounds', () => {
  const base = { name: 'Voltage window', alertLevel: 'high', value: 200 };
  it('needs the second bound, after the first', async () => {
    api.accountId = kadikoy;
    const missing = await api.create('alert-device-parameter-templates', { ...base, condition: 'between' });
    expect(missing.status).toBe(422);
    expect(missing.body.error?.fields).toEqual({ value2: 'Second bound is required' });
    const reversed = await api.create('alert-device-parameter-templates', {
      ...base,
      condition: 'notBetween',
      value2: 100,
    });
    expect(reversed.body.error?.fields).toEqual({ value2: 'Second bound must come after Value' });
    const ok = await api.create('alert-device-parameter-templates', { ...base, condition: 'between', value2: 250 });
    expect(ok.status).toBe(201);
    const single = await api.create('alert-device-parameter-templates', { ...base, condition: 'gt' });
    expect(single.status).toBe(201);
  });

  it('checks the stored record with the change on update', async () => {
    api.accountId = kadikoy;
    const single = await first('alert-device-parameter-templates', { condition: 'gt' });
    const res = await api.update('alert-device-parameter-templates', {
      id: single.id,
      updatedAt: single.updatedAt,
      condition: 'between',
    });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields?.value2).toBe('Second bound is required');
  });
});

describe('LoRaWAN keys are write-only', () => {
  it('stores the keys sealed and never returns them', async () => {
    api.accountId = kadikoy;
    const device = await first('devices');
    const application = await first('gatewayapplication');
    const profile = await first('gatewaydeviceprofile');
    const key = '0123456789abcdef0123456789abcdef';
    const created = await api.create('gatewaydevicepairing', {
      deviceId: device.id,
      applicationId: application.id,
      profileId: profile.id,
      nwkKey: key,
      appKey: key,
    });
    expect(created.status).toBe(201);
    expect(created.raw).not.toContain(key);
    expect(created.body.data).not.toHaveProperty('nwkKey');
    const listed = await api.list('gatewaydevicepairing', { filter: null, pageable: page(1, 100) });
    expect(listed.raw).not.toContain(key);
    const exported = await api.call('POST', '/query/api/gatewaydevicepairing/export', { filter: null, format: 'csv' });
    expect(exported.raw).not.toContain(key);
    const stored = (await t.database.db.execute(
      'select nwk_key_encrypted from gateway_device_pairing' as never,
    )) as unknown as {
      rows: { nwk_key_encrypted: string }[];
    };
    expect(stored.rows[0]?.nwk_key_encrypted).toMatch(/^v2\.[\w-]{8}\./);
    expect(stored.rows[0]?.nwk_key_encrypted).not.toContain(key);
    // An update that leaves the key out keeps it.
    const updated = await api.update('gatewaydevicepairing', { ...created.body.data, nwkKey: '' });
    expect(updated.status).toBe(200);
    const after = (await t.database.db.execute(
      'select nwk_key_encrypted from gateway_device_pairing' as never,
    )) as unknown as {
      rows: { nwk_key_encrypted: string }[];
    };
    expect(after.rows[0]?.nwk_key_encrypted).toBe(stored.rows[0]?.nwk_key_encrypted);
  });

  it('refuses a key that is not 32 hex characters long', async () => {
    api.accountId = kadikoy;
    const res = await api.create('gatewaymulticastgroup', {
      name: 'm',
      multicastAddress: '01020304',
      groupType: 'CLASS_C',
      mcNwkSKey: 'short',
    });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields?.mcNwkSKey).toBeDefined();
  });
});

describe('alert events without "forever" need a window', () => {
  it('asks for start and end, in order', async () => {
    api.accountId = kadikoy;
    const res = await api.create('alert-events', { eventName: 'Night check', isForever: false });
    expect(res.body.error?.fields).toEqual({ startTime: 'Start time is required', endTime: 'End time is required' });
    const reversed = await api.create('alert-events', {
      eventName: 'Night check',
      isForever: false,
      startTime: '2026-11-22T20:00:00Z',
      endTime: '2026-11-22T06:00:00Z',
    });
    expect(reversed.body.error?.fields?.endTime).toBe('End time must come after Start time');
  });
});
