import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, page, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let api: Client;
let template: Record<string, unknown>;

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  // Shared reference data (channel templates) is written by the platform's administrator in the integrator.
  api.accountId = t.seeded.integratorId;
  const list = await api.list('device-channel-templates', { filter: {}, pageable: page(1, 1) });
  const { id, createdAt, updatedAt, ...rest } = list.body.data.content[0];
  template = { ...rest, unit: 'V', description: 'test', alertParameterCode: 'T', dataLabel: 'T' };
});
afterAll(() => t.close());

async function count(prefix: string, filter: Record<string, unknown>): Promise<number> {
  const res = await api.list(prefix, { filter, pageable: page(1, 1) });
  return res.body.data.totalElements;
}

describe('channel formulas are checked on save', () => {
  const refused: [string, string, RegExp][] = [
    ['constructor', 'k=0.1', /constructor/],
    ['x.constructor', 'k=0.1', /member access/],
    ['x.constructor.constructor("return process")()', 'k=0.1', /member access/],
    ['this', 'k=0.1', /this/],
    ['__proto__ * x', 'k=0.1', /__proto__/],
    ['x + toString', 'k=0.1', /toString/],
    ['sin(x)', 'k=0.1', /sin/],
    ['exp(x) * k', 'k=0.1', /exp/],
    ['x * y', 'k=0.1', /y, which is neither/],
    ['k(x)', 'k=0.1', /one number/],
    ['x["constructor"]', 'k=0.1', /one number/],
    ['[x, 1]', 'k=0.1', /one number/],
    ['"text"', 'k=0.1', /one number/],
    ['x; 2', 'k=0.1', /one number/],
    ['x = 2', 'k=0.1', /not a valid formula/],
    ['x ? 1 : 2', 'k=0.1', /not a valid formula/],
  ];
  for (const [formula, variables, message] of refused) {
    it(`refuses ${formula}`, async () => {
      const code = `F-${Math.random().toString(36).slice(2, 10)}`;
      const res = await api.create('device-channel-templates', { ...template, channelCode: code, formula, variables });
      expect(res.status).toBe(422);
      expect(res.body.error?.code).toBe('VALIDATION');
      expect(res.body.error?.fields?.formula).toMatch(message);
      expect(await count('device-channel-templates', { channelCode: code })).toBe(0);
    });
  }

  it('refuses malformed variables with a message naming the item', async () => {
    const code = 'F-VARS';
    for (const variables of ['k=abc', 'k', 'constructor x=1', 'x=2', 'k=1=2']) {
      const res = await api.create('device-channel-templates', {
        ...template,
        channelCode: code,
        formula: 'x * k',
        variables,
      });
      expect(res.status).toBe(422);
      expect(res.body.error?.fields?.variables).toMatch(/name=number/);
    }
    expect(await count('device-channel-templates', { channelCode: code })).toBe(0);
  });

  it('accepts arithmetic, comparisons, min max abs round and the declared variables', async () => {
    for (const [i, formula] of [
      'x',
      'x * k + offset',
      'round(x * k * 100) / 100',
      'min(max(x, 0), 100) - abs(offset)',
      'x > 10',
      '(x - 32) * 5 / 9 ^ 1 % 7',
      '-x',
    ].entries()) {
      const res = await api.create('device-channel-templates', {
        ...template,
        channelCode: `F-OK-${i}`,
        formula,
        variables: 'k=0.1; offset=-40',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.formula).toBe(formula);
    }
  });

  it('refuses a bad formula on update and on sub-device templates, in Turkish too, leaving the record as it was', async () => {
    const created = await api.create('device-channel-templates', {
      ...template,
      channelCode: 'F-UPD',
      formula: 'x * k',
      variables: 'k=2',
    });
    expect(created.status).toBe(201);
    const record = created.body.data;
    const res = await api.update('device-channel-templates', { ...record, formula: 'x.constructor' });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields?.formula).toMatch(/member access/);
    // Removing the variable a formula uses is refused too: the check runs on the record as stored.
    const dropped = await api.update('device-channel-templates', { ...record, variables: 'm=2' });
    expect(dropped.status).toBe(422);
    expect(dropped.body.error?.fields?.formula).toMatch(/\bk\b/);
    api.language = 'tr';
    try {
      const tr = await api.create('sub-device-channel-templates', {
        ...template,
        channelCode: 'F-SUB',
        parentTemplateId: record.id,
        formula: 'process',
        variables: 'k=1',
      });
      expect(tr.status).toBe(422);
      expect(tr.body.error?.fields?.formula).toContain('process');
      expect(tr.body.error?.fields?.formula).toContain('değişken');
    } finally {
      api.language = undefined;
    }
    const stored = await api.get('device-channel-templates', record.id);
    expect(stored.body.data.formula).toBe('x * k');
    expect(stored.body.data.variables).toBe('k=2');
    expect(await count('sub-device-channel-templates', { channelCode: 'F-SUB' })).toBe(0);
  });
});

describe('URL and image fields accept only http(s), images also data:image', () => {
  const hostile = [
    'javascript:alert(document.cookie)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'file:///etc/passwd',
    'ftp://example.com/x',
    '//evil.example.com/x',
    'https://',
    'not a url',
  ];

  it('refuses other schemes in an account’s web, logo and background, and keeps the stored values', async () => {
    const accountId = t.seeded.subAccountIds[0] as number;
    const before = (await api.get('accounts', accountId)).body.data;
    for (const value of hostile) {
      for (const name of ['web', 'logoImage', 'backgroundImage']) {
        const res = await api.update('accounts', { ...before, [name]: value });
        expect(res.status, `${name}=${value}`).toBe(422);
        expect(res.body.error?.fields?.[name]).toMatch(/http:\/\/ or https:\/\//);
      }
    }
    const svg = await api.update('accounts', {
      ...before,
      logoImage: 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
    });
    expect(svg.status).toBe(422);
    const dataWeb = await api.update('accounts', { ...before, web: 'data:image/png;base64,iVBORw0KGgo=' });
    expect(dataWeb.status).toBe(422);
    const after = (await api.get('accounts', accountId)).body.data;
    expect(after).toEqual(before);

    api.language = 'tr';
    try {
      const tr = await api.update('accounts', { ...before, web: 'javascript:alert(1)' });
      expect(tr.body.error?.fields?.web).toContain('ile başlayan bir web adresi');
    } finally {
      api.language = undefined;
    }
  });

  it('accepts http(s) addresses and base64 raster data images', async () => {
    const accountId = t.seeded.subAccountIds[0] as number;
    const before = (await api.get('accounts', accountId)).body.data;
    const res = await api.update('accounts', {
      ...before,
      web: 'https://lights.example.com/about?x=1',
      logoImage: 'http://cdn.example.com/logo.png',
      backgroundImage:
        'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.web).toBe('https://lights.example.com/about?x=1');
  });

  it('refuses hostile pictures of users and device models', async () => {
    const models = await api.list('device-models', { filter: {}, pageable: page(1, 1) });
    const model = models.body.data.content[0];
    const res = await api.update('device-models', { ...model, picture: 'javascript:alert(1)' });
    expect(res.status).toBe(422);
    expect(res.body.error?.fields?.picture).toBeTruthy();
    expect((await api.get('device-models', model.id)).body.data.picture).toBe(model.picture);
  });

  it('accepts an SMS gateway URL template with placeholders, only over http(s)', async () => {
    const base = {
      name: 'SMS gateway',
      notificationType: 'sms',
      serviceName: 'Kannel',
      smsUserCode: 'lampyr',
    };
    const ok = await api.create('alert-notification-settings', {
      ...base,
      serviceUri:
        'https://sms.example.com/cgi-bin/sendsms?to={{to}}&text={{text}}&user={{user}}&pass={{password}}&from={{from}}',
    });
    expect(ok.status).toBe(201);
    for (const serviceUri of ['javascript:fetch("//evil")', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_x']) {
      const res = await api.create('alert-notification-settings', { ...base, name: 'Hostile', serviceUri });
      expect(res.status).toBe(422);
      expect(res.body.error?.fields?.serviceUri).toMatch(/http:\/\/ or https:\/\//);
    }
    expect(await count('alert-notification-settings', { name: 'Hostile' })).toBe(0);
  });

  it('accepts a mail service at an smtp(s) address, and no other scheme for it', async () => {
    const base = { name: 'Mail', notificationType: 'email', serviceName: 'SMTP' };
    for (const serviceUri of ['smtp://mail.example.com:587', 'smtps://mail.example.com']) {
      expect((await api.create('alert-notification-settings', { ...base, serviceUri })).status).toBe(201);
    }
    // An SMS gateway is never smtp, and a mail service never javascript: or file:.
    const sms = await api.create('alert-notification-settings', {
      ...base,
      name: 'Hostile',
      notificationType: 'sms',
      serviceUri: 'smtp://mail.example.com',
    });
    expect(sms.status).toBe(422);
    for (const serviceUri of ['javascript:alert(1)//smtp://x', 'file:///etc/passwd']) {
      const res = await api.create('alert-notification-settings', { ...base, name: 'Hostile', serviceUri });
      expect(res.status).toBe(422);
      expect(res.body.error?.fields?.serviceUri).toMatch(/smtp:\/\//);
    }
    expect(await count('alert-notification-settings', { name: 'Hostile' })).toBe(0);
  });
});
