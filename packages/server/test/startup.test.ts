import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadJwtSecret } from '../src/auth/tokens.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connect.ts';
import { accounts } from '../src/db/schema/index.ts';
import { seed } from '../src/seed/seed.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, DATA_DIR: './data', LAMPYR_ADMIN_EMAIL: 'admin@lampyr.local' });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names each bad value', () => {
    const bad = () =>
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', LAMPYR_ADMIN_EMAIL: 'nobody' });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'LAMPYR_ADMIN_EMAIL']) expect(message).toContain(name);
    }
  });

  it('accepts the URLs of real services', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/lampyr',
      SMTP_URL: 'smtp://mail:25',
      MQTT_URL: 'mqtt://broker:1883',
      JWT_SECRET: 'a-production-secret-of-at-least-32-chars',
      SECRETS_KEY: 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=',
      LAMPYR_ADMIN_PASSWORD: 'not-the-default',
    });
    expect(config.MQTT_URL).toBe('mqtt://broker:1883');
  });

  it('keeps the fault rules’ documented times unless told to shorten them, within (0, 1]', () => {
    expect(loadConfig({}).FAULT_TIME_SCALE).toBe(1);
    expect(loadConfig({ FAULT_TIME_SCALE: '0.01' }).FAULT_TIME_SCALE).toBe(0.01);
    for (const bad of ['0', '-1', '2', 'fast']) {
      expect(() => loadConfig({ FAULT_TIME_SCALE: bad })).toThrow(/FAULT_TIME_SCALE/);
    }
  });
});

describe('embedded storage', () => {
  it('keeps data and the generated JWT secret across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-restart-'));
    const first = await openDatabase({ dataDir });
    const seeded = await seed(first.db, { adminEmail: 'a@b.test', adminPassword: 'password-1', demo: true });
    expect(seeded.seeded).toBe(true);
    const secret = loadJwtSecret(undefined, dataDir);
    await first.close();

    const second = await openDatabase({ dataDir });
    const again = await seed(second.db, { adminEmail: 'a@b.test', adminPassword: 'password-1', demo: true });
    expect(again).toEqual({ seeded: false, integratorId: seeded.integratorId, subAccountIds: seeded.subAccountIds });
    expect((await second.db.select().from(accounts)).length).toBe(3);
    await second.close();
    expect(loadJwtSecret(undefined, dataDir)).toEqual(secret);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });

  it('makes a new data directory in a child process and opens it with the embedded settings', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lampyr-pglite-'));
    const database = await openDatabase({ dataDir });
    try {
      // initdb ran elsewhere (this process only opened the directory), and the settings apply.
      expect(statSync(join(dataDir, 'pglite', 'PG_VERSION')).isFile()).toBe(true);
      const shown = (await database.db.execute(sql`SHOW shared_buffers`)) as unknown as {
        rows: { shared_buffers: string }[];
      };
      expect(shown.rows[0]?.shared_buffers).toBe('32MB');
      expect(database.migrated).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });

  it('says which directory could not be made, and makes nothing half', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'lampyr-pglite-bad-'));
    // A file where the data directory's "pglite" folder should go: neither initdb nor mkdir can work.
    writeFileSync(join(parent, 'pglite'), 'not a directory');
    await expect(openDatabase({ dataDir: parent })).rejects.toThrow(/pglite/);
    expect(existsSync(join(parent, 'pglite', 'PG_VERSION'))).toBe(false);
  });
});
