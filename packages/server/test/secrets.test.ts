import { spawn } from 'node:child_process';
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RotationError, rotateSecrets } from '../src/auth/rotate-secrets.ts';
import { loadSecretsKey, SecretBox, SecretNotOpenedError, secretKey } from '../src/auth/secret-box.ts';
import { type Database, openDatabase } from '../src/db/connect.ts';
import { accounts, alertNotificationSettings, multicastGroups } from '../src/db/schema/index.ts';
import { seed } from '../src/seed/seed.ts';
import {
  ADMIN,
  Client,
  JWT_SECRET,
  SECRETS_KEY,
  startTestApp,
  type TestApp,
  testDatabase,
} from './support/test-app.ts';

const NEW_KEY_TEXT = randomBytes(32).toString('base64');
const NEW_KEY = secretKey(NEW_KEY_TEXT);
const OTHER_KEY = secretKey(randomBytes(32).toString('hex'));

/** A `v1` value exactly as earlier releases sealed it: AES-256-GCM under a key derived from the JWT secret. */
function sealV1(plain: string, jwtSecret: Uint8Array): string {
  const key = Buffer.from(hkdfSync('sha256', jwtSecret, 'lampyr', 'secret-box', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(
    '.',
  );
}

describe('SecretBox', () => {
  const box = new SecretBox({ current: SECRETS_KEY, legacyServerSecret: JWT_SECRET });

  it('seals with its key id and opens what it sealed', () => {
    const sealed = box.seal('smtp-password');
    expect(sealed.split('.')).toHaveLength(5);
    expect(sealed.startsWith(`v2.${SECRETS_KEY.id}.`)).toBe(true);
    expect(sealed).not.toContain('smtp-password');
    expect(box.open(sealed)).toBe('smtp-password');
    expect(box.seal('smtp-password')).not.toBe(sealed);
  });

  it('reads the same 32 bytes written in hex or base64 as the same key', () => {
    const bytes = randomBytes(32);
    expect(secretKey(bytes.toString('hex')).id).toBe(secretKey(bytes.toString('base64')).id);
    expect(secretKey(bytes.toString('base64url')).key.equals(bytes)).toBe(true);
    expect(() => secretKey(randomBytes(16).toString('hex'))).toThrow();
  });

  it('refuses a value of an unknown key, an altered value and a swapped key id', () => {
    const foreign = new SecretBox({ current: OTHER_KEY }).seal('x');
    expect(() => box.open(foreign)).toThrow(SecretNotOpenedError);
    const sealed = box.seal('appkey-00112233');
    const [v, id, iv, tag, data] = sealed.split('.') as [string, string, string, string, string];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] = (flipped[0] as number) ^ 1;
    expect(() => box.open([v, id, iv, tag, flipped.toString('base64url')].join('.'))).toThrow(SecretNotOpenedError);
    expect(() => box.open([v, id, iv, Buffer.alloc(4).toString('base64url'), data].join('.'))).toThrow(
      SecretNotOpenedError,
    );
    // The key id is authenticated: relabelled as another configured key, it does not open.
    const both = new SecretBox({ current: SECRETS_KEY, old: [OTHER_KEY] });
    expect(() => both.open([v, OTHER_KEY.id, iv, tag, data].join('.'))).toThrow(SecretNotOpenedError);
    expect(() => box.open('plain text')).toThrow(SecretNotOpenedError);
  });

  it('opens values of old keys and v1 values of the JWT secret, and knows they are stale', () => {
    const rotated = new SecretBox({ current: NEW_KEY, old: [SECRETS_KEY], legacyServerSecret: JWT_SECRET });
    const old = box.seal('from-the-old-key');
    const v1 = sealV1('from-release-one', JWT_SECRET);
    expect(rotated.open(old)).toBe('from-the-old-key');
    expect(rotated.open(v1)).toBe('from-release-one');
    expect(rotated.isStale(old)).toBe(true);
    expect(rotated.isStale(v1)).toBe(true);
    expect(rotated.isStale(rotated.seal('new'))).toBe(false);
    // Without the JWT secret a v1 value does not open; with another secret it does not either.
    expect(() => new SecretBox({ current: NEW_KEY }).open(v1)).toThrow(SecretNotOpenedError);
    const otherJwt = new TextEncoder().encode('another-jwt-secret-another-jwt-secret');
    expect(() => new SecretBox({ current: NEW_KEY, legacyServerSecret: otherJwt }).open(v1)).toThrow(
      SecretNotOpenedError,
    );
  });

  it('generates the embedded key once, readable by its owner only', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-secrets-'));
    const first = loadSecretsKey(undefined, dataDir);
    expect(loadSecretsKey(undefined, dataDir)).toEqual(first);
    expect(statSync(join(dataDir, 'secrets-key')).mode & 0o777).toBe(0o600);
    // Not derived from the JWT secret: a configured key wins and the file is not consulted.
    expect(loadSecretsKey(NEW_KEY_TEXT, dataDir).id).toBe(NEW_KEY.id);
  });
});

describe('stored secrets and their rotation', () => {
  let t: TestApp;
  let settingId: number;
  let groupId: number;
  const stored = async () => {
    const [setting] = await t.database.db
      .select({
        mail: alertNotificationSettings.mailPasswordEncrypted,
        sms: alertNotificationSettings.smsPasswordEncrypted,
      })
      .from(alertNotificationSettings)
      .where(eq(alertNotificationSettings.id, settingId));
    const [group] = await t.database.db
      .select({ nwk: multicastGroups.mcNwkSKeyEncrypted, app: multicastGroups.mcAppSKeyEncrypted })
      .from(multicastGroups)
      .where(eq(multicastGroups.id, groupId));
    return { ...setting, ...group } as Record<string, string | null>;
  };

  beforeAll(async () => {
    t = await startTestApp();
    const client = new Client(t.app);
    await client.login();
    client.accountId = t.seeded.subAccountIds[0];
    const created = await client.create('alert-notification-settings', {
      name: 'Mail',
      notificationType: 'email',
      serviceName: 'smtp',
      serviceUri: 'smtp://mail.example',
      mailPassword: 'mail-password-1',
      smsPassword: 'sms-password-1',
    });
    expect(created.status).toBe(201);
    expect(created.raw).not.toContain('password-1');
    settingId = created.body.data.id;
    // The seeded multicast group, as an earlier release left it: v1 values of the JWT secret.
    const [group] = await t.database.db.select({ id: multicastGroups.id }).from(multicastGroups).limit(1);
    groupId = group?.id as number;
    await t.database.db
      .update(multicastGroups)
      .set({
        mcNwkSKeyEncrypted: sealV1('00112233445566778899aabbccddeeff', JWT_SECRET),
        mcAppSKeyEncrypted: sealV1('ffeeddccbbaa99887766554433221100', JWT_SECRET),
      })
      .where(eq(multicastGroups.id, groupId));
  });
  afterAll(() => t.close());

  it('seals what the API stores with SECRETS_KEY, never with the JWT secret', async () => {
    const values = await stored();
    expect(values.mail?.startsWith(`v2.${SECRETS_KEY.id}.`)).toBe(true);
    expect(values.sms?.startsWith(`v2.${SECRETS_KEY.id}.`)).toBe(true);
    expect(() =>
      new SecretBox({ current: NEW_KEY, legacyServerSecret: JWT_SECRET }).open(values.mail as string),
    ).toThrow(SecretNotOpenedError);
  });

  it('stops on a value no configured key opens, and changes nothing', async () => {
    const before = await stored();
    // Only the new key and the JWT secret: the values of SECRETS_KEY cannot open.
    const missingOld = new SecretBox({ current: NEW_KEY, legacyServerSecret: JWT_SECRET });
    await expect(rotateSecrets(t.database.db, missingOld)).rejects.toThrow(RotationError);
    expect(await stored()).toEqual(before);
  });

  it('re-seals every stale value with the current key in one go, then has nothing left to do', async () => {
    const box = new SecretBox({ current: NEW_KEY, old: [SECRETS_KEY], legacyServerSecret: JWT_SECRET });
    const result = await rotateSecrets(t.database.db, box);
    expect(result.resealed).toBe(4);
    expect(result.byResource).toEqual({ 'alert-notification-settings': 2, gatewaymulticastgroup: 2 });
    const after = await stored();
    for (const value of Object.values(after)) expect(value?.startsWith(`v2.${NEW_KEY.id}.`)).toBe(true);
    // The new key alone now opens all of them: the old key and the JWT secret can go.
    const newOnly = new SecretBox({ current: NEW_KEY });
    expect(Object.values(after).map((v) => newOnly.open(v as string))).toEqual([
      'mail-password-1',
      'sms-password-1',
      '00112233445566778899aabbccddeeff',
      'ffeeddccbbaa99887766554433221100',
    ]);
    expect(await rotateSecrets(t.database.db, box)).toEqual({ resealed: 0, byResource: {} });
    expect(await stored()).toEqual(after);
  });
});

describe('npm run secrets:rotate', () => {
  it('re-seals with SECRETS_KEY what SECRETS_KEYS_OLD sealed and reports how many', async () => {
    const target = process.env.LAMPYR_TEST_DB ?? 'pglite';
    const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-rotate-'));
    let database: Database;
    if (target === 'pglite') database = await openDatabase({ dataDir });
    else database = await testDatabase();
    await seed(database.db, { adminEmail: ADMIN.email, adminPassword: 'a-real-password-9', demo: false });
    const [account] = await database.db.select({ id: accounts.id }).from(accounts).limit(1);
    const old = new SecretBox({ current: SECRETS_KEY });
    await database.db.insert(alertNotificationSettings).values({
      accountId: account?.id as number,
      notificationType: 'sms',
      serviceName: 'gateway',
      serviceUri: 'https://sms.example',
      smsPasswordEncrypted: old.seal('sms-secret'),
    });
    await database.close();

    const env: Record<string, string> = {
      PATH: process.env.PATH as string,
      DATA_DIR: dataDir,
      SECRETS_KEY: NEW_KEY_TEXT,
      SECRETS_KEYS_OLD: `${OTHER_KEY.key.toString('hex')},${SECRETS_KEY.key.toString('base64')}`,
      JWT_SECRET: 'production-secret-production-secret-0123',
      LAMPYR_ADMIN_PASSWORD: 'a-real-password-9',
    };
    if (target !== 'pglite') env.DATABASE_URL = target;
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../src/secrets-rotate.ts')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(output).toContain(`Re-sealed 1 stored secret with key ${NEW_KEY.id}.`);
    expect(output).toContain('alert-notification-settings: 1');
    expect(code).toBe(0);

    const reopened =
      target === 'pglite' ? await openDatabase({ dataDir }) : await openDatabase({ url: target, dataDir });
    const [row] = await reopened.db
      .select({ sms: alertNotificationSettings.smsPasswordEncrypted })
      .from(alertNotificationSettings);
    await reopened.close();
    expect(new SecretBox({ current: NEW_KEY }).open(row?.sms as string)).toBe('sms-secret');
  });
});
