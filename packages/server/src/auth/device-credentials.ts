import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DeviceLogin } from '@lampyr/contract';
import { and, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { accounts, devices } from '../db/schema/index.ts';
import type { CommandEvents } from '../events/command-events.ts';
import type { SecretBox } from './secret-box.ts';

/** Who a device is at the broker: answered from memory, never from the database per packet. */
export interface DeviceAuthority {
  /** The device these credentials name (username = its uid), if they are right and it is active. */
  authenticate(username: string, password: Buffer): { uid: string } | undefined;
  /** Told the uid of a device whose credentials or state changed: its connections are closed. */
  onRevoke(listener: (uid: string) => void): () => void;
}

export type { DeviceLogin };

const digest = (value: Buffer | string) => createHash('sha256').update(value).digest();

/**
 * An IP device's broker credentials: its uid and a generated password, sealed in `devices` so the
 * console can show it again. Made on first use; `rotate` replaces it. `undefined` for a device that
 * has no uid (LoRaWAN devices speak through ChirpStack) or does not exist.
 */
export async function devicePassword(
  db: Db,
  secretBox: SecretBox,
  where: { id: number } | { uid: string },
  rotate = false,
): Promise<DeviceLogin | undefined> {
  const match: SQL | undefined = 'id' in where ? eq(devices.id, where.id) : eq(devices.uid, where.uid);
  const [row] = await db
    .select({ id: devices.id, uid: devices.uid, sealed: devices.mqttPasswordEncrypted })
    .from(devices)
    .where(match)
    .limit(1);
  if (!row?.uid) return undefined;
  if (row.sealed && !rotate) return { username: row.uid, password: secretBox.open(row.sealed) };
  const password = randomBytes(24).toString('base64url');
  const updated = await db
    .update(devices)
    .set({ mqttPasswordEncrypted: secretBox.seal(password) })
    // Two first uses at once: one password wins, the other caller reads it.
    .where(and(eq(devices.id, row.id), rotate ? undefined : isNull(devices.mqttPasswordEncrypted)))
    .returning({ uid: devices.uid });
  if (updated[0]?.uid) return { username: updated[0].uid, password };
  return rotate ? undefined : devicePassword(db, secretBox, { id: row.id });
}

interface Entry {
  deviceId: number;
  uid: string;
  digest: Buffer;
}

/**
 * The embedded broker's view of device credentials: every active device (of an active account) that
 * has a password, held in memory so no packet waits for the database. Reloaded when a device or an
 * account changes through the API, and every minute for changes made around it (imports, SQL).
 * A device whose password, uid or state changed is revoked: the broker closes its connections.
 */
export class DeviceCredentials implements DeviceAuthority {
  private entries = new Map<string, Entry>();
  private listeners = new Set<(uid: string) => void>();
  private loading?: Promise<void>;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly secretBox: SecretBox,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  authenticate(username: string, password: Buffer): { uid: string } | undefined {
    const entry = this.entries.get(username);
    if (!entry) return undefined;
    return timingSafeEqual(digest(password), entry.digest) ? { uid: entry.uid } : undefined;
  }

  onRevoke(listener: (uid: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Loads every device's credentials again; concurrent calls share one load (and one more after it). */
  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = this.load().finally(() => {
      this.loading = undefined;
      if (this.again) {
        this.again = false;
        this.reload().catch(this.onError);
      }
    });
    return this.loading;
  }

  start(commands: CommandEvents, refreshMs = 60_000): () => void {
    const reload = () => {
      this.reload().catch(this.onError);
    };
    const offs = [
      ...(['create', 'update', 'delete'] as const).map((action) => commands.on('devices', action, reload)),
      ...(['update', 'delete'] as const).map((action) => commands.on('accounts', action, reload)),
    ];
    const timer = setInterval(reload, refreshMs);
    timer.unref();
    return () => {
      for (const off of offs) off();
      clearInterval(timer);
    };
  }

  private async load(): Promise<void> {
    const rows = await this.db
      .select({ id: devices.id, uid: devices.uid, sealed: devices.mqttPasswordEncrypted })
      .from(devices)
      .innerJoin(accounts, eq(accounts.id, devices.accountId))
      .where(
        and(
          isNotNull(devices.uid),
          isNotNull(devices.mqttPasswordEncrypted),
          eq(devices.isActive, true),
          eq(accounts.isActive, true),
        ),
      );
    const next = new Map<string, Entry>();
    for (const row of rows) {
      try {
        const password = this.secretBox.open(row.sealed as string);
        next.set(row.uid as string, { deviceId: row.id, uid: row.uid as string, digest: digest(password) });
      } catch (error) {
        this.onError(error);
      }
    }
    const revoked = [...this.entries].filter(([uid, before]) => {
      const now = next.get(uid);
      return !now || now.deviceId !== before.deviceId || !now.digest.equals(before.digest);
    });
    this.entries = next;
    for (const [uid] of revoked) for (const listener of this.listeners) listener(uid);
  }
}
