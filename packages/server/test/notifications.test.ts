import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRecipientList } from '@lampyr/contract';
import { and, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../src/auth/passwords.ts';
import { loadConfig } from '../src/config.ts';
import {
  alertNotificationList,
  alertNotificationSettings,
  pushSubscriptions,
  roles,
  transactionLogs,
  users,
  usersRoles,
} from '../src/db/schema/index.ts';
import { NotificationService } from '../src/engines/notifications/notification-service.ts';
import type { NotificationRequest } from '../src/engines/notifications/notifier.ts';
import { LiveEvents } from '../src/events/live-events.ts';
import { ADMIN, Client, mailsTo, page, startTestApp, type TestApp, testSecretBox } from './support/test-app.ts';
import { eventually, openStreamAs } from './support/test-telemetry.ts';

const MAIL_PASSWORD = 'mail-secret-123';
const SMS_PASSWORD = 'sms-secret-456';

let t: TestApp;
let api: Client;
let account: number;
let otherAccount: number;
let baseUrl: string;

// ─── stand-ins for the outside world: an SMTP server, an SMS gateway, a push service ─────────────

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}
const mails: ReceivedMail[] = [];
const smtp = new SMTPServer({
  hideSTARTTLS: true,
  allowInsecureAuth: true,
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === 'mailer' && auth.password === MAIL_PASSWORD) return callback(null, { user: 'mailer' });
    const error = Object.assign(new Error(`Invalid login for ${auth.password}`), { responseCode: 535 });
    return callback(error);
  },
  onRcptTo(address, _session, callback) {
    const code = address.address.startsWith('nobody@') ? 550 : address.address.startsWith('busy@') ? 451 : 0;
    if (code)
      return callback(Object.assign(new Error(code === 550 ? 'No such user' : 'Try later'), { responseCode: code }));
    return callback();
  },
  onData(stream, session, callback) {
    let raw = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      raw += chunk;
    });
    stream.on('end', () => {
      mails.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
        raw,
      });
      callback();
    });
  },
});
let smtpPort: number;
// Accepts and hangs up at once: a mail server that closes the connection.
const closer = net.createServer((socket) => socket.destroy());

interface SmsCall {
  query: URLSearchParams;
}
const smsCalls: SmsCall[] = [];
/** What the gateway answers next, by the number texted (tests set it). */
const smsScript = new Map<string, { status: number; body: string; hang?: boolean }[]>();
const gateway = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  smsCalls.push({ query: url.searchParams });
  const to = url.searchParams.get('to') ?? '';
  const next = smsScript.get(to)?.shift() ?? { status: 200, body: 'OK: queued' };
  if (next.hang) return; // never answers: the sender's timeout
  response.writeHead(next.status, { 'content-type': 'text/plain' });
  response.end(next.body);
});
let gatewayPort: number;

interface PushCall {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
const pushCalls: PushCall[] = [];
let push: https.Server;
let pushPort: number;
let pushCa: string;

const listen = (server: net.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  smtpPort = await new Promise<number>((resolve) =>
    smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)),
  );
  await listen(closer);
  gatewayPort = await listen(gateway);
  // A push service over TLS (web-push speaks only https), its certificate made for this run.
  const dir = mkdtempSync(join(tmpdir(), 'lampyr-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  pushCa = readFileSync(join(dir, 'cert.pem'), 'utf8');
  push = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: pushCa }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      pushCalls.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(request.url?.startsWith('/gone/') ? 410 : 201);
      response.end();
    });
  });
  pushPort = await listen(push);

  t = await startTestApp({
    app: {
      notifications: {
        retry: { baseMs: 30, jitter: 0.2, maxAttempts: 5 },
        pollMs: 25,
        timeoutMs: 400,
        webPushAgent: new https.Agent({ ca: pushCa }),
      },
    },
  });
  api = new Client(t.app);
  await api.login();
  account = t.seeded.subAccountIds[0] as number;
  otherAccount = t.seeded.subAccountIds[1] as number;
  api.accountId = account;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
  await new Promise((r) => smtp.close(() => r(undefined)));
  closer.close();
  gateway.close();
  push.close();
});

// ─── helpers ──────────────────────────────────────────────────────────────────

let keys = 0;
const key = (name: string) => `test:${name}:${++keys}`;

function request(
  dedupeKey: string,
  channels: NotificationRequest['channels'],
  overrides: Partial<NotificationRequest> = {},
): NotificationRequest {
  return {
    accountId: account,
    alertLogId: null,
    alertEventId: null,
    dedupeKey,
    level: 'high',
    channels,
    vars: {
      device: 'Lamp 7',
      level: 'high',
      template: 'Over-voltage',
      value: '251.2',
      unit: 'V',
      time: '2026-11-23 21:00',
      region: 'Moda',
    },
    ...overrides,
  };
}

const rowsOf = (dedupeKey: string) =>
  t.database.db
    .select()
    .from(alertNotificationList)
    .where(eq(alertNotificationList.dedupeKey, dedupeKey))
    .orderBy(alertNotificationList.id);

/** The rows of a key once every one has settled (sent or dead). */
const settled = (dedupeKey: string, timeoutMs = 8000) =>
  eventually(async () => {
    const rows = await rowsOf(dedupeKey);
    return rows.length > 0 && rows.every((r) => r.status === 'sent' || r.status === 'dead') && rows;
  }, timeoutMs);

/** The account's services replaced by this one (each scenario its own), created through the API. */
async function useService(service: Record<string, unknown>, accountId = account) {
  await t.database.db.delete(alertNotificationSettings).where(eq(alertNotificationSettings.accountId, accountId));
  const saved = api.accountId;
  api.accountId = accountId;
  const created = await api.create('alert-notification-settings', service);
  api.accountId = saved;
  expect(created.status, created.raw).toBe(201);
  return created.body.data as Record<string, unknown>;
}

const mailService = (extra: Record<string, unknown> = {}) => ({
  name: 'Ops mail',
  notificationType: 'email',
  serviceName: 'SMTP',
  serviceUri: `smtp://127.0.0.1:${smtpPort}`,
  encryption: 'none',
  userName: 'mailer',
  mailPassword: MAIL_PASSWORD,
  notificationAddress: 'alarms@lampyr.example',
  ...extra,
});

const smsService = (extra: Record<string, unknown> = {}) => ({
  name: 'Gateway',
  notificationType: 'sms',
  serviceName: 'Kannel',
  serviceUri: `http://127.0.0.1:${gatewayPort}/cgi-bin/sendsms?to={{to}}&text={{text}}&user={{user}}&pass={{password}}&from={{from}}`,
  smsUserCode: 'lampyr',
  smsPassword: SMS_PASSWORD,
  smsMsgHeader: 'LAMPYR',
  ...extra,
});

// ─── e-mail ───────────────────────────────────────────────────────────────────

describe('e-mail over SMTP', () => {
  it('sends through the account service with its sealed password, then marks the row sent', async () => {
    await useService(mailService());
    const k = key('mail');
    await t.notifications.notify(request(k, { email: ['ops@example.com', 'Chief@Example.COM'] }));
    const rows = await settled(k);
    expect(rows.map((r) => [r.recipient, r.status, r.attempts])).toEqual([
      ['ops@example.com', 'sent', 1],
      ['Chief@example.com', 'sent', 1],
    ]);
    expect(rows[0]?.sentAt).toBeInstanceOf(Date);
    const mail = mails.find((m) => m.to.includes('ops@example.com'));
    expect(mail?.from).toBe('alarms@lampyr.example');
    expect(mail?.raw).toMatch(/^Subject: \[High\] Over-voltage on Lamp 7$/m);
    expect(mail?.raw).toContain('Value: 251.2 V');
    expect(mail?.raw).toContain('Moda');
  });

  it("uses the service's own templates, and no CR/LF in a value reaches the headers", async () => {
    await useService(
      mailService({
        messageSubject: 'ALARM {{device}} / {{level}}',
        messageBody: 'Device {{device}} read {{value}}{{unit}}',
      }),
    );
    const k = key('template');
    await t.notifications.notify(
      request(
        k,
        { email: ['ops2@example.com'] },
        {
          vars: { ...request('', {}).vars, device: 'Lamp 8\r\nBcc: spy@evil.example' },
        },
      ),
    );
    await settled(k);
    const mail = mails.find((m) => m.to.includes('ops2@example.com'));
    expect(mail?.to).toEqual(['ops2@example.com']);
    expect(mail?.raw).toMatch(/^Subject: ALARM Lamp 8 Bcc: spy@evil.example \/ High$/m);
    const headers = mail?.raw.split(/\r?\n\r?\n/)[0] ?? '';
    expect(headers).toMatch(/^To: ops2@example.com$/m);
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(mails.some((m) => m.to.includes('spy@evil.example'))).toBe(false);
  });

  it("writes in the recipient's language when a user has that address", async () => {
    await useService(mailService());
    await t.database.db.update(users).set({ language: 'tr' }).where(eq(users.email, ADMIN.email));
    const k = key('turkish');
    await t.notifications.notify(request(k, { email: [ADMIN.email.toUpperCase()] }));
    const [row] = await settled(k);
    expect(row?.language).toBe('tr');
    expect(row?.subject).toBe('[Yüksek] Lamp 7 cihazında Over-voltage');
    await t.database.db.update(users).set({ language: 'en' }).where(eq(users.email, ADMIN.email));
  });

  it('a rejected recipient (550) is dead at once; a 451 is retried with backoff, then dead after 5 attempts', async () => {
    await useService(mailService());
    const k = key('reject');
    await t.notifications.notify(request(k, { email: ['nobody@example.com', 'busy@example.com'] }));
    const rows = await settled(k);
    const [rejected, busy] = rows;
    expect(rejected?.status).toBe('dead');
    expect(rejected?.attempts).toBe(1);
    expect(rejected?.lastError).toMatch(/550/);
    expect(busy?.status).toBe('dead');
    expect(busy?.attempts).toBe(5);
    expect(busy?.lastError).toMatch(/451.*gave up after 5 attempts/);
  });

  it('a server that hangs up is retried, then dead; a refused login is dead and never shows the password', async () => {
    const closerPort = (closer.address() as AddressInfo).port;
    await useService(mailService({ serviceUri: `smtp://127.0.0.1:${closerPort}` }));
    const k = key('closer');
    await t.notifications.notify(request(k, { email: ['ops@example.com'] }));
    const [row] = await settled(k);
    expect(row?.status).toBe('dead');
    expect(row?.attempts).toBe(5);
    expect(row?.lastError).toMatch(/SMTP connection failed/);

    await useService(mailService({ mailPassword: 'wrong-secret-789' }));
    const k2 = key('badlogin');
    await t.notifications.notify(request(k2, { email: ['ops@example.com'] }));
    const [refused] = await settled(k2);
    expect(refused?.status).toBe('dead');
    expect(refused?.lastError).toMatch(/535/);
    // The server quoted the password back; Lampyr stores it blanked.
    expect(refused?.lastError).not.toContain('wrong-secret-789');
    const listed = await api.list('alert-notification-list', { filter: {}, pageable: page(1, 100) });
    expect(listed.raw).not.toContain('wrong-secret-789');
    expect(listed.raw).not.toContain(MAIL_PASSWORD);
  });

  it('rebuilds the pooled transport when the service changes (a new password applies at once)', async () => {
    const service = await useService(mailService());
    const k = key('before-change');
    await t.notifications.notify(request(k, { email: ['ops@example.com'] }));
    expect((await settled(k))[0]?.status).toBe('sent');
    const changed = await api.update('alert-notification-settings', { ...service, mailPassword: 'changed-secret-000' });
    expect(changed.status, changed.raw).toBe(200);
    const k2 = key('after-change');
    await t.notifications.notify(request(k2, { email: ['ops@example.com'] }));
    const [refused] = await settled(k2);
    expect(refused).toMatchObject({ status: 'dead' });
    expect(refused?.lastError).toMatch(/535/);
  });

  it('without an e-mail service the mail goes to the outbox, like the sign-up codes', async () => {
    await t.database.db.delete(alertNotificationSettings).where(eq(alertNotificationSettings.accountId, account));
    const k = key('outbox');
    await t.notifications.notify(request(k, { email: ['outbox-reader@example.com'] }));
    const [row] = await settled(k);
    expect(row?.status).toBe('sent');
    const [mail] = mailsTo(t.dataDir, 'outbox-reader@example.com');
    expect(mail).toContain('Subject: [High] Over-voltage on Lamp 7');
  });
});

// ─── SMS ──────────────────────────────────────────────────────────────────────

describe('SMS through an HTTP gateway', () => {
  it('fills the URL template, each value URL-encoded, with the password opened at send time', async () => {
    await useService(smsService());
    const k = key('sms');
    await t.notifications.notify(request(k, { sms: ['+90 532 111 22 33'] }));
    const [row] = await settled(k);
    expect(row).toMatchObject({ status: 'sent', recipient: '+905321112233', attempts: 1 });
    const call = smsCalls.find((c) => c.query.get('to') === '+905321112233');
    expect(call?.query.get('pass')).toBe(SMS_PASSWORD);
    expect(call?.query.get('user')).toBe('lampyr');
    expect(call?.query.get('from')).toBe('LAMPYR');
    expect(call?.query.get('text')).toBe('High: Over-voltage on Lamp 7 (Moda) = 251.2 V at 2026-11-23 21:00');
  });

  it('500 then 200 is retried and sent; a 4xx is dead at once; an error body and a timeout are retried', async () => {
    await useService(smsService());
    smsScript.set('+905320000001', [{ status: 500, body: 'busy' }]);
    smsScript.set('+905320000002', [{ status: 403, body: `denied for ${SMS_PASSWORD}` }]);
    smsScript.set(
      '+905320000003',
      Array.from({ length: 5 }, () => ({ status: 200, body: 'ERR: no credit' })),
    );
    smsScript.set('+905320000004', [{ status: 200, body: '', hang: true }]);
    const k = key('sms-failures');
    await t.notifications.notify(
      request(k, { sms: ['+905320000001', '+905320000002', '+905320000003', '+905320000004'] }),
    );
    const rows = await settled(k);
    const by = Object.fromEntries(rows.map((r) => [r.recipient, r]));
    expect(by['+905320000001']).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(by['+905320000002']).toMatchObject({ status: 'dead', attempts: 1 });
    expect(by['+905320000002']?.lastError).toMatch(/refused with 403/);
    expect(by['+905320000002']?.lastError).not.toContain(SMS_PASSWORD);
    expect(by['+905320000003']).toMatchObject({ status: 'dead', attempts: 5 });
    expect(by['+905320000003']?.lastError).toMatch(/reported an error: ERR: no credit/);
    expect(by['+905320000004']).toMatchObject({ status: 'sent', attempts: 2 });
    // The first try of the hanging number failed on the timeout, then the retry went through.
    expect(smsCalls.filter((c) => c.query.get('to') === '+905320000004')).toHaveLength(2);
  });

  it('a malformed number is written dead with the reason; with no gateway the row is dead too', async () => {
    await useService(smsService());
    const k = key('sms-bad');
    await t.notifications.notify(request(k, { sms: ['12ab'] }));
    const [bad] = await settled(k);
    expect(bad).toMatchObject({ status: 'dead', lastError: 'Malformed phone number', attempts: 0 });

    await t.database.db.delete(alertNotificationSettings).where(eq(alertNotificationSettings.accountId, account));
    const k2 = key('sms-none');
    await t.notifications.notify(request(k2, { sms: ['+905320000009'] }));
    const [none] = await settled(k2);
    expect(none).toMatchObject({ status: 'dead', lastError: 'No SMS gateway is configured for the account' });
  });
});

// ─── queue ────────────────────────────────────────────────────────────────────

describe('the queue', () => {
  it('is idempotent by dedupe key: the same notification twice is one row per recipient', async () => {
    await useService(smsService());
    const k = key('twice');
    const r = request(k, { sms: ['+905321000001'], email: ['twice@example.com'] });
    await Promise.all([t.notifications.notify(r), t.notifications.notify(r)]);
    await t.notifications.notify(r);
    const rows = await settled(k);
    expect(rows).toHaveLength(2);
    expect(smsCalls.filter((c) => c.query.get('to') === '+905321000001')).toHaveLength(1);
  });

  it('survives a restart: rows queued by a stopped service are sent by the next one', async () => {
    await useService(smsService());
    const live = new LiveEvents();
    const options = {
      db: t.database.db,
      live,
      secretBox: testSecretBox(),
      mailer: { send: async () => {} },
      dataDir: t.dataDir,
      pollMs: 25,
    };
    const k = key('restart');
    // The app's own loop must not take these first: they are due an hour from now (its clock).
    const later = new Date(Date.now() + 3_600_000);
    const first = new NotificationService({ ...options, now: () => later });
    await first.notify(request(k, { sms: ['+905321000002'] }));
    await first.stop();
    expect((await rowsOf(k)).map((r) => r.status)).toEqual(['queued']);
    const second = new NotificationService({ ...options, now: () => new Date(later.getTime() + 1000) });
    second.start();
    const [row] = await settled(k);
    await second.stop();
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('sends each row once when several replicas deliver at the same time', async () => {
    await useService(smsService());
    const replicas = [1, 2].map(
      () =>
        new NotificationService({
          db: t.database.db,
          live: new LiveEvents(),
          secretBox: testSecretBox(),
          mailer: { send: async () => {} },
          dataDir: t.dataDir,
          batchSize: 3,
        }),
    );
    const k = key('replicas');
    const numbers = Array.from({ length: 24 }, (_, i) => `+9053220000${String(i).padStart(2, '0')}`);
    await t.notifications.notify(request(k, { sms: numbers }));
    // The app's own loop and two more replicas race for the same rows.
    await Promise.all(replicas.map((r) => r.deliverDue()));
    const rows = await settled(k);
    await Promise.all(replicas.map((r) => r.stop()));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    for (const n of numbers) expect(smsCalls.filter((c) => c.query.get('to') === n)).toHaveLength(1);
  });

  it('backs off exponentially with jitter', () => {
    const at = (random: number) =>
      new NotificationService({
        db: t.database.db,
        live: new LiveEvents(),
        secretBox: testSecretBox(),
        mailer: { send: async () => {} },
        dataDir: t.dataDir,
        random: () => random,
      });
    const low = at(0);
    const high = at(1);
    expect([1, 2, 3, 4].map((n) => low.backoff(n))).toEqual([24_000, 48_000, 96_000, 192_000]);
    expect([1, 2, 3, 4].map((n) => high.backoff(n))).toEqual([36_000, 72_000, 144_000, 288_000]);
  });
});

// ─── push ─────────────────────────────────────────────────────────────────────

function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

describe('push', () => {
  it('reaches the signed-in consoles over the live stream, with sound for high alarms, and audio broadcasts', async () => {
    const stream = await openStreamAs(baseUrl, api, account);
    try {
      const k = key('stream');
      await t.notifications.notify(request(k, { push: true, audio: true }));
      const events = await eventually(() => {
        const found = stream.events.filter((e) => e.event === 'notification');
        return found.length >= 2 && found;
      });
      const rows = await settled(k);
      const pushed = events.find((e) => e.data.audio === false);
      const audio = events.find((e) => e.data.audio === true);
      expect(pushed?.data).toMatchObject({ level: 'high', title: '[High] Over-voltage on Lamp 7', sound: true });
      expect(pushed?.data.id).toBe(rows.find((r) => r.channel === 'appPush')?.id);
      expect(audio?.data).toMatchObject({ level: 'high', sound: true });
      expect(rows.every((r) => r.status === 'sent' && r.recipient === 'consoles')).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('serves one VAPID public key, kept in the data folder across restarts', async () => {
    const res = await api.call('GET', '/query/api/notifications/vapid-public-key');
    expect(res.status).toBe(200);
    const { publicKey } = res.body.data;
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const again = new NotificationService({
      db: t.database.db,
      live: new LiveEvents(),
      secretBox: testSecretBox(),
      mailer: { send: async () => {} },
      dataDir: t.dataDir,
    });
    expect(again.vapidPublicKey()).toBe(publicKey);
    expect(readFileSync(join(t.dataDir, 'vapid-keys.json'), 'utf8')).toContain(publicKey);
    // Configured keys (VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY) win over the generated pair.
    const configured = { publicKey: `B${'a'.repeat(86)}`, privateKey: 'b'.repeat(43) };
    const replica = new NotificationService({
      db: t.database.db,
      live: new LiveEvents(),
      secretBox: testSecretBox(),
      mailer: { send: async () => {} },
      dataDir: t.dataDir,
      vapidKeys: configured,
    });
    expect(replica.vapidPublicKey()).toBe(configured.publicKey);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: configured.publicKey })).toThrow(/VAPID_PRIVATE_KEY: set both/);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'x', VAPID_PRIVATE_KEY: configured.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY: must be a base64url/,
    );
    expect(
      loadConfig({ VAPID_PUBLIC_KEY: configured.publicKey, VAPID_PRIVATE_KEY: configured.privateKey }),
    ).toMatchObject({ VAPID_PUBLIC_KEY: configured.publicKey });
  });

  it('sends encrypted Web Push with VAPID to subscribed browsers; a 410 removes the subscription', async () => {
    const endpoint = `https://127.0.0.1:${pushPort}/push/browser-1`;
    const gone = `https://127.0.0.1:${pushPort}/gone/browser-2`;
    for (const e of [endpoint, gone]) {
      const res = await api.call('POST', '/command/api/notifications/push-subscriptions', {
        endpoint: e,
        keys: browserKeys(),
      });
      expect(res.status, res.raw).toBe(201);
    }
    const { publicKey } = (await api.call('GET', '/query/api/notifications/vapid-public-key')).body.data;
    const k = key('webpush');
    await t.notifications.notify(request(k, { push: true }));
    const rows = await settled(k);
    const web = rows.filter((r) => r.recipient?.startsWith('web-push:'));
    expect(web.map((r) => r.status).sort()).toEqual(['dead', 'sent']);
    const call = pushCalls.find((c) => c.path === '/push/browser-1');
    expect(call?.headers['content-encoding']).toBe('aes128gcm');
    expect(call?.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    expect(Number(call?.headers.ttl)).toBeGreaterThan(0);
    expect(call?.body.length).toBeGreaterThan(16);
    expect(call?.body.toString('latin1')).not.toContain('Over-voltage');
    expect(web.find((r) => r.status === 'dead')?.lastError).toMatch(/410/);
    const left = await t.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.accountId, account));
    expect(left.map((s) => s.endpoint)).toEqual([endpoint]);

    const removed = await api.call('DELETE', '/command/api/notifications/push-subscriptions', { endpoint });
    expect(removed.body.data).toEqual({ removed: 1 });
  });

  it("pushes to a browser only while its user may read the account's alarms", async () => {
    await t.database.db.delete(pushSubscriptions).where(eq(pushSubscriptions.accountId, account));
    const [operator] = await t.database.db.select().from(roles).where(eq(roles.name, 'Operator'));
    const [member] = await t.database.db
      .insert(users)
      .values({
        email: 'push-member@example.com',
        firstName: 'Push',
        lastName: 'Member',
        passwordHash: await hashSecret('member-password'),
        roleId: operator?.id as number,
        emailVerified: true,
      })
      .returning();
    const memberId = member?.id as number;
    // Also a member elsewhere, so leaving this account keeps the person (and the subscription row).
    for (const a of [account, otherAccount])
      await t.database.db.insert(usersRoles).values({ accountId: a, userId: memberId, roleId: operator?.id as number });
    const browser = new Client(t.app);
    expect((await browser.login('push-member@example.com', 'member-password')).status).toBe(200);
    browser.accountId = account;
    const subscribed = await browser.call('POST', '/command/api/notifications/push-subscriptions', {
      endpoint: `https://127.0.0.1:${pushPort}/push/member`,
      keys: browserKeys(),
    });
    expect(subscribed.status, subscribed.raw).toBe(201);

    const k = key('member');
    await t.notifications.notify(request(k, { push: true }));
    expect((await settled(k)).filter((r) => r.recipient?.startsWith('web-push:'))).toHaveLength(1);

    // The administrator removes the member from the account: its browser hears nothing more.
    expect((await api.remove('users', memberId)).status).toBe(200);
    const k2 = key('member-left');
    await t.notifications.notify(request(k2, { push: true }));
    const rows = await settled(k2);
    expect(rows.map((r) => r.recipient)).toEqual(['consoles']);
    expect(
      await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, memberId)),
    ).toHaveLength(1);
  });

  it('refuses malformed subscriptions and more than 10 browsers per user, storing nothing', async () => {
    await t.database.db.delete(pushSubscriptions).where(eq(pushSubscriptions.accountId, account));
    const before = await t.database.db.select().from(pushSubscriptions);
    for (const body of [
      { endpoint: 'http://push.example.com/x', keys: browserKeys() },
      { endpoint: 'javascript:alert(1)', keys: browserKeys() },
      { endpoint: 'https://user:pw@push.example.com/x', keys: browserKeys() },
      { endpoint: 'https://push.example.com/x', keys: { p256dh: 'short', auth: browserKeys().auth } },
      { endpoint: 'https://push.example.com/x', keys: { p256dh: browserKeys().p256dh, auth: '<script>' } },
      { endpoint: 'https://push.example.com/x' },
      'not json',
    ]) {
      const res = await api.call('POST', '/command/api/notifications/push-subscriptions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.raw).not.toMatch(/at .*\.ts|select|insert/i);
    }
    expect(await t.database.db.select().from(pushSubscriptions)).toEqual(before);

    for (let i = 0; i < 10; i++) {
      const res = await api.call('POST', '/command/api/notifications/push-subscriptions', {
        endpoint: `https://push.example.com/limit-${i}`,
        keys: browserKeys(),
      });
      expect(res.status).toBe(201);
    }
    const eleventh = await api.call('POST', '/command/api/notifications/push-subscriptions', {
      endpoint: 'https://push.example.com/limit-10',
      keys: browserKeys(),
    });
    expect(eleventh.status).toBe(409);
    api.language = 'tr';
    const turkish = await api.call('POST', '/command/api/notifications/push-subscriptions', {
      endpoint: 'https://push.example.com/limit-10',
      keys: browserKeys(),
    });
    api.language = undefined;
    expect(turkish.body.error?.message).toMatch(/tarayıcı/);
    // Re-subscribing a known browser is not a new one.
    const again = await api.call('POST', '/command/api/notifications/push-subscriptions', {
      endpoint: 'https://push.example.com/limit-3',
      keys: browserKeys(),
    });
    expect(again.status).toBe(201);
    await t.database.db.delete(pushSubscriptions).where(eq(pushSubscriptions.accountId, account));
  });
});

// ─── resend ───────────────────────────────────────────────────────────────────

describe('resend', () => {
  it('queues dead, failed and sent rows of the account again and logs it; other accounts’ ids are skipped', async () => {
    await useService(smsService());
    smsScript.set('+905321000010', [{ status: 404, body: 'no route' }]);
    const k = key('resend');
    await t.notifications.notify(request(k, { sms: ['+905321000010'] }));
    const [dead] = await settled(k);
    expect(dead?.status).toBe('dead');
    // A row of another account, which this account's operator must not touch.
    await useService(smsService(), otherAccount);
    smsScript.set('+905321000011', [{ status: 404, body: 'no route' }]);
    const k2 = key('resend-other');
    await t.notifications.notify(request(k2, { sms: ['+905321000011'] }, { accountId: otherAccount }));
    const [foreign] = await settled(k2);

    const res = await api.call('POST', '/command/api/notifications/resend', {
      ids: [dead?.id, foreign?.id, 99_999_999],
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({
      updated: [dead?.id],
      skipped: [
        { id: foreign?.id, reason: 'notFound' },
        { id: 99_999_999, reason: 'notFound' },
      ],
    });
    const [again] = await settled(k);
    expect(again).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    const [untouched] = await rowsOf(k2);
    expect(untouched).toEqual(foreign);
    const logged = await t.database.db
      .select()
      .from(transactionLogs)
      .where(and(eq(transactionLogs.resource, 'alert-notification-list'), eq(transactionLogs.action, 'resend')));
    expect(logged.map((l) => l.recordId)).toEqual([dead?.id]);
  });

  it('refuses bad bodies and a role without update on the notification list', async () => {
    for (const body of [
      { ids: [] },
      { ids: ['x'] },
      { ids: [1.5] },
      { ids: [-1] },
      { ids: [1e20] },
      { ids: 7 },
      { ids: Array.from({ length: 501 }, (_, i) => i + 1) },
      {},
    ]) {
      const res = await api.call('POST', '/command/api/notifications/resend', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    // A viewer of the account may read the list but not resend; nothing changes.
    const [viewer] = await t.database.db.select().from(roles).where(eq(roles.name, 'Viewer'));
    const [created] = await t.database.db
      .insert(users)
      .values({
        email: 'viewer-notify@example.com',
        firstName: 'View',
        lastName: 'Er',
        passwordHash: await hashSecret('viewer-password'),
        roleId: viewer?.id as number,
        emailVerified: true,
      })
      .returning();
    await t.database.db
      .insert(usersRoles)
      .values({ accountId: account, userId: created?.id as number, roleId: viewer?.id as number });
    const reader = new Client(t.app);
    expect((await reader.login('viewer-notify@example.com', 'viewer-password')).status).toBe(200);
    reader.accountId = account;
    const rows = await t.database.db
      .select()
      .from(alertNotificationList)
      .where(eq(alertNotificationList.accountId, account));
    const res = await reader.call('POST', '/command/api/notifications/resend', { ids: rows.map((r) => r.id) });
    expect(res.status).toBe(403);
    expect((await reader.list('alert-notification-list', { filter: {}, pageable: page(1, 1) })).status).toBe(200);
    expect(
      await t.database.db.select().from(alertNotificationList).where(eq(alertNotificationList.accountId, account)),
    ).toEqual(rows);
  });
});

// ─── bad input ────────────────────────────────────────────────────────────────

describe('bad input is refused with field messages', () => {
  it('refuses malformed SMS templates and mail services without a server, in English and Turkish', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        smsService({ serviceUri: 'https://sms.example.com/send?to={{to}}' }),
        'serviceUri',
        /\{\{to\}\} and \{\{text\}\}/,
      ],
      [smsService({ serviceUri: 'https://{{to}}.example.com/?text={{text}}' }), 'serviceUri', /not in its host/],
      [
        smsService({ serviceUri: 'https://u:p@sms.example.com/?to={{to}}&text={{text}}' }),
        'serviceUri',
        /user name or password/,
      ],
      [
        smsService({ serviceUri: 'https://sms.example.com/?to={{to}}&text={{text}}&x={{secret}}' }),
        'serviceUri',
        /\{\{secret\}\}/,
      ],
      [smsService({ serviceUri: 'ftp://sms.example.com/?to={{to}}&text={{text}}' }), 'serviceUri', /https:\/\//],
      [mailService({ serviceUri: 'https://mail-api.example.com' }), 'mailHost', /SMTP server/],
      [mailService({ serviceUri: 'smtp://mail.example.com:99999' }), 'serviceUri', /smtp:\/\//],
      [mailService({ portNumber: 0 }), 'portNumber', /at least 1/],
      [mailService({ portNumber: 70000 }), 'portNumber', /at most 65535/],
    ];
    const before = await t.database.db.select().from(alertNotificationSettings);
    for (const [body, field, message] of cases) {
      const res = await api.create('alert-notification-settings', { ...body, name: 'Hostile' });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error?.fields?.[field] ?? res.raw).toMatch(message);
    }
    api.language = 'tr';
    const turkish = await api.create('alert-notification-settings', {
      ...smsService({ serviceUri: 'https://sms.example.com/send?to={{to}}' }),
      name: 'Hostile',
    });
    api.language = undefined;
    expect(turkish.body.error?.fields?.serviceUri).toMatch(/yer tutucularını/);
    expect(await t.database.db.select().from(alertNotificationSettings)).toEqual(before);
    // With a host and port an http(s) mail address is accepted.
    const ok = await api.create('alert-notification-settings', {
      ...mailService({ serviceUri: 'https://mail-api.example.com', mailHost: 'smtp.example.com', portNumber: 587 }),
    });
    expect(ok.status, ok.raw).toBe(201);
  });

  it("refuses an alert event's malformed recipient lists, naming the bad item", async () => {
    const base = { eventName: 'Hostile event', isForever: true, notifyEmail: true, notifySms: true };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ emailList: 'ops@example.com, not-an-address', smsList: '+905321234567' }, 'emailList', /not-an-address/],
      [{ emailList: 'a@b.co\r\nBcc: x@y.z', smsList: '+905321234567' }, 'emailList', /e-mail/],
      [{ emailList: 'ops@example.com', smsList: '+90532; call me' }, 'smsList', /\+90532/],
      [{ emailList: 'ops@example.com', smsList: '0000000' }, 'smsList', /phone number/],
    ];
    for (const [lists, field, message] of cases) {
      const res = await api.create('alert-events', { ...base, ...lists });
      expect(res.status, JSON.stringify(lists)).toBe(422);
      expect(res.body.error?.fields?.[field]).toMatch(message);
    }
    const listed = await api.list('alert-events', { filter: { eventName: 'Hostile event' }, pageable: page(1, 10) });
    expect(listed.body.data.totalElements).toBe(0);
    const ok = await api.create('alert-events', {
      ...base,
      eventName: 'Good event',
      emailList: 'ops@example.com; Chief@Example.com\nthird@example.org',
      smsList: '+90 (532) 123-45-67, +4915112345678',
    });
    expect(ok.status, ok.raw).toBe(201);
  });

  it('parseRecipientList splits, normalises and de-duplicates', () => {
    expect(parseRecipientList('email', 'a@x.com; A@X.COM, b@y.org\n')).toEqual({
      ok: true,
      recipients: ['a@x.com', 'b@y.org'],
    });
    expect(parseRecipientList('sms', '+90 532 123 45 67;+90(532)1234567')).toEqual({
      ok: true,
      recipients: ['+905321234567'],
    });
    expect(parseRecipientList('sms', '')).toEqual({ ok: true, recipients: [] });
    expect(parseRecipientList('email', 'x@y')).toMatchObject({
      ok: false,
      error: { key: 'validation.recipientEmail' },
    });
    const many = Array.from({ length: 51 }, (_, i) => `u${i}@x.com`).join(',');
    expect(parseRecipientList('email', many)).toMatchObject({ ok: false, error: { key: 'validation.recipientCount' } });
  });
});
