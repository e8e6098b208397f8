import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A secrets key: 32 bytes, named by a short id derived from it (so no id has to be configured). */
export interface SecretKey {
  id: string;
  key: Buffer;
}

export interface SecretKeyring {
  /** Seals every new value. */
  current: SecretKey;
  /** Earlier keys: their values still open until the rotation re-seals them. */
  old?: SecretKey[];
  /** The JWT secret of releases that derived the key from it (`v1` values): read, never written. */
  legacyServerSecret?: Uint8Array;
}

/** 64 hex digits or base64/base64url of 32 bytes (what the configuration accepts). */
export function secretKey(text: string): SecretKey {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('A secrets key must be 32 bytes in base64 or hex');
  // Not the key, and too short to help find it: only tells keys apart in sealed values.
  const id = createHash('sha256').update('lampyr-secrets-key-id').update(key).digest('base64url').slice(0, 8);
  return { id, key };
}

/** The configured key, else one generated once and kept in the data directory (embedded default). */
export function loadSecretsKey(configured: string | undefined, dataDir: string): SecretKey {
  if (configured) return secretKey(configured);
  const file = join(dataDir, 'secrets-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return secretKey(readFileSync(file, 'utf8'));
}

/** The box of a running Lampyr: SECRETS_KEY (or the generated one), SECRETS_KEYS_OLD, the JWT secret for `v1`. */
export function loadSecretBox(
  config: { SECRETS_KEY?: string; SECRETS_KEYS_OLD?: string[]; DATA_DIR: string },
  jwtSecret: Uint8Array,
): SecretBox {
  return new SecretBox({
    current: loadSecretsKey(config.SECRETS_KEY, config.DATA_DIR),
    old: (config.SECRETS_KEYS_OLD ?? []).map(secretKey),
    legacyServerSecret: jwtSecret,
  });
}

export class SecretNotOpenedError extends Error {}

/**
 * Reversible encryption for secrets Lampyr must use again (service passwords, LoRaWAN keys):
 * AES-256-GCM under the secrets key, stored as `v2.<key id>.<iv>.<tag>.<data>` with the version and
 * key id authenticated too. `v1.<iv>.<tag>.<data>` values of earlier releases (key derived from the
 * JWT secret) still open; `npm run secrets:rotate` re-seals them and those of old keys.
 */
export class SecretBox {
  private readonly current: SecretKey;
  private readonly keys = new Map<string, Buffer>();
  private readonly legacyKey?: Buffer;

  constructor(keyring: SecretKeyring) {
    this.current = keyring.current;
    for (const k of [keyring.current, ...(keyring.old ?? [])]) if (!this.keys.has(k.id)) this.keys.set(k.id, k.key);
    if (keyring.legacyServerSecret) {
      this.legacyKey = Buffer.from(hkdfSync('sha256', keyring.legacyServerSecret, 'lampyr', 'secret-box', 32));
    }
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const header = `v2.${this.current.id}`;
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(header));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      header,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }

  open(sealed: string): string {
    const parts = sealed.split('.');
    if (parts[0] === 'v2' && parts.length === 5) {
      const [, id, iv, tag, data] = parts as [string, string, string, string, string];
      const key = this.keys.get(id);
      if (!key) throw new SecretNotOpenedError(`Sealed with key ${id}, which is not configured (SECRETS_KEYS_OLD?)`);
      return decrypt(key, iv, tag, data, Buffer.from(`v2.${id}`));
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      if (!this.legacyKey) throw new SecretNotOpenedError('A v1 value needs the JWT secret it was sealed under');
      const [, iv, tag, data] = parts as [string, string, string, string];
      return decrypt(this.legacyKey, iv, tag, data);
    }
    throw new SecretNotOpenedError('Not a sealed secret');
  }

  /** Whether a stored value is sealed by anything but the current key. */
  isStale(sealed: string): boolean {
    return !sealed.startsWith(`v2.${this.current.id}.`);
  }
}

function decrypt(key: Buffer, iv: string, tag: string, data: string, aad?: Buffer): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretNotOpenedError('The sealed value does not open with its key (altered, or a different key)');
  }
}
