import { catalogue, type FieldDef, type ResourceDef } from '@lampyr/contract';
import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromWidgetValue, toCommandBody } from '../../web/src/resources/form-values.ts';
import { Client, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * One record of every writable catalogue entity, every editable field filled, saved twice: once
 * with the values the console's own form path makes of its widgets (dates as dayjs, JSON as text),
 * once with plain API values. A date or time field the server cannot take fails here by name.
 */
let t: TestApp;
let api: Client;
const refIds = new Map<string, number>();
let serial = 0;

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  api.accountId = t.seeded.subAccountIds[0];
});
afterAll(() => t.close());

/** The first record of `prefix` the acting account sees (the demo seed has one of nearly every kind). */
async function refId(prefix: string): Promise<number | undefined> {
  if (refIds.has(prefix)) return refIds.get(prefix);
  const res = await api.search(prefix, { filters: [], page: 0, size: 1 });
  const id = res.body.data?.content?.[0]?.id as number | undefined;
  if (id !== undefined) refIds.set(prefix, id);
  return id;
}

/** Left empty, as a person fills in one timing slot and leaves the others. */
const EMPTY = Symbol('empty');
const emptySlots = Object.fromEntries(
  [2, 3, 4].flatMap((n) =>
    ['on', 'off'].flatMap((side) =>
      ['Type', 'Time', 'Offset', 'Value'].map((part) => [`task-profile-timings.${side}${n}${part}`, EMPTY]),
    ),
  ),
);

/** Fields with a form of their own, as a person would fill them in. */
const SAMPLES: Record<string, unknown> = {
  ...emptySlots,
  'countries.timeZone': 'Europe/Istanbul',
  'cities.timeZone': 'Europe/Istanbul',
  'alert-events.emailList': 'ops@example.com; duty@example.com',
  'alert-events.smsList': '+905321234567',
  'profiles.offDays': '["sunday"]',
  'profiles.customDates': '["2026-12-31"]',
  'task-profile-timings.on1Type': 'sunset',
  'task-profile-timings.off1Type': 'sunrise',
  'roles.permissions': '{"devices": ["read"]}',
  'device-channel-templates.variables': 'k=0.1; offset=-40',
  'device-channel-templates.formula': 'x * k + offset',
  'sub-device-channel-templates.variables': 'k=1',
  'sub-device-channel-templates.formula': 'x * k',
  'alert-notification-settings.serviceUri': 'https://sms.example.com/send?to={{to}}&text={{text}}',
  'gatewaydevicepairing.nwkKey': '000102030405060708090a0b0c0d0e0f',
  'gatewaydevicepairing.appKey': '0f0e0d0c0b0a09080706050403020100',
  'gatewaymulticastgroup.multicastAddress': '01ab23cd',
  'gatewaymulticastgroup.mcNwkSKey': '000102030405060708090a0b0c0d0e0f',
  'gatewaymulticastgroup.mcAppSKey': '0f0e0d0c0b0a09080706050403020100',
};

/** What a person would put in the widget of a field of this kind. */
async function widgetValue(resource: string, name: string, def: FieldDef): Promise<unknown> {
  serial++;
  if (`${resource}.${name}` in SAMPLES) {
    const sample = SAMPLES[`${resource}.${name}`];
    return sample === EMPTY ? undefined : sample;
  }
  const number = Math.min(def.max ?? Number.POSITIVE_INFINITY, Math.max(def.min ?? 1, 1));
  switch (def.kind) {
    case 'text':
      if (def.format === 'eui64') return (0xa1b2c3d400000000n + BigInt(serial)).toString(16);
      if (def.format === 'deviceUid') return `every-entity-${serial}`;
      return `S${serial} ${name}`.slice(0, def.maxLength ?? 255);
    case 'longText':
      return `Sample ${name}`;
    case 'email':
      return `sample${serial}@example.com`;
    case 'phone':
      return '+905551112233';
    case 'url':
      return 'https://example.com/sample';
    case 'image':
      return 'https://example.com/sample.png';
    case 'color':
      return '#2e9e4f';
    case 'integer':
      return Math.round(number);
    case 'number':
      return number;
    case 'boolean':
      return true;
    case 'enum':
      return def.options?.[0];
    case 'reference':
      return def.ref ? await refId(def.ref) : undefined;
    case 'date':
      return dayjs('2026-11-23');
    case 'datetime':
      return dayjs();
    case 'time':
      return dayjs('1970-01-01T18:30:00');
    case 'json':
      return '{"sample": 1}';
    case 'secret':
      return 'Sample-secret-123';
  }
}

/** Plain API values: what a script would send instead of widget values. */
function apiValue(def: FieldDef, widget: unknown): unknown {
  if (dayjs.isDayjs(widget)) {
    if (def.kind === 'date') return widget.format('YYYY-MM-DD');
    if (def.kind === 'time') return widget.format('HH:mm:ss');
    return widget.toISOString();
  }
  return def.kind === 'json' && typeof widget === 'string' ? JSON.parse(widget) : widget;
}

/** Entities a person creates through the generic form (not logs the server writes, not people). */
const creatable = catalogue.filter(
  (r: ResourceDef) => !r.readOnly && r.name !== 'users' && r.name !== 'accounts' && r.name !== 'users-roles',
);

describe('every catalogue entity saves from the console form and from the API', () => {
  it.each(creatable.map((r) => [r.name, r] as const))('%s', async (_name, resource) => {
    const widgets: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(resource.fields)) {
      if (def.readOnly) continue;
      widgets[name] = await widgetValue(resource.name, name, def);
    }
    const formBody = toCommandBody(resource, widgets, 'create');
    const viaForm = await api.create(resource.name, formBody);
    expect(
      viaForm.body.error ?? null,
      `${resource.name} via the form path: ${JSON.stringify(viaForm.body.error)}`,
    ).toBeNull();
    expect(viaForm.status).toBe(201);

    // The same record again with the API's own value shapes, in place of the first (unique keys).
    expect((await api.remove(resource.name, viaForm.body.data.id)).status).toBe(200);
    const apiBody: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(resource.fields)) {
      if (def.readOnly) continue;
      const value = apiValue(def, widgets[name]);
      if (value !== undefined) apiBody[name] = value;
    }
    const viaApi = await api.create(resource.name, apiBody);
    expect(viaApi.body.error ?? null, `${resource.name} via the API: ${JSON.stringify(viaApi.body.error)}`).toBeNull();
    expect(viaApi.status).toBe(201);

    // What was saved reads back as sent: times as the same instant, dates as the same day.
    const read = await api.get(resource.name, viaApi.body.data.id);
    expect(read.status).toBe(200);
    for (const [name, def] of Object.entries(resource.fields)) {
      const sent = apiBody[name];
      if (sent === undefined || def.kind === 'secret') continue;
      const got = read.body.data[name];
      if (def.kind === 'datetime') expect(new Date(got).getTime(), name).toBe(new Date(sent as string).getTime());
      else if (def.kind === 'time') expect(String(got).slice(0, 5), name).toBe(String(sent).slice(0, 5));
      else if (def.kind === 'json') expect(got, name).toEqual(sent);
    }
  });

  it('the form path sends a date-time as ISO text', () => {
    const def = catalogue.find((r) => r.name === 'report-a-fault')?.fields.reportedAt as FieldDef;
    expect(fromWidgetValue(def, dayjs('2026-11-23T20:15:00Z'))).toBe('2026-11-23T20:15:00.000Z');
  });
});
