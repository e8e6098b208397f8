import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'lampyr';
/**
 * Access tokens live a quarter of an hour: the console renews them silently with its refresh
 * credential (see refresh-tokens.ts), so a stolen one dies quickly. Each carries the user's token
 * version (`ver`), checked on every request, so a bump revokes it at once.
 */
export const TOKEN_TTL_SECONDS = 15 * 60;

export interface TokenClaims {
  userId: number;
  version: number;
}

/** The configured secret, else one generated once and kept in the data directory. */
export function loadJwtSecret(configured: string | undefined, dataDir: string): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

const CACHE_LIMIT = 10_000;

export class Tokens {
  /** Tokens already verified, with their expiry: a signature is checked once, not on every call. */
  private verified = new Map<string, TokenClaims & { expiresAt: number }>();

  constructor(private readonly secret: Uint8Array) {}

  sign(userId: number, version: number, ttlSeconds: number = TOKEN_TTL_SECONDS): Promise<string> {
    return new SignJWT({ ver: version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.secret);
  }

  /**
   * The user id and token version of a validly signed, unexpired token; undefined for a tampered,
   * expired or foreign one. Whether the version is still current is the caller's check.
   */
  async verify(token: string): Promise<TokenClaims | undefined> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.expiresAt > Date.now()) return { userId: hit.userId, version: hit.version };
      this.verified.delete(token);
      return undefined;
    }
    try {
      const { payload } = await jwtVerify(token, this.secret, { issuer: ISSUER, algorithms: ['HS256'] });
      const id = Number(payload.sub);
      const version = payload.ver;
      if (!Number.isSafeInteger(id) || id < 1 || !payload.exp) return undefined;
      if (typeof version !== 'number' || !Number.isSafeInteger(version)) return undefined;
      if (this.verified.size >= CACHE_LIMIT) this.verified.clear();
      this.verified.set(token, { userId: id, version, expiresAt: payload.exp * 1000 });
      return { userId: id, version };
    } catch {
      return undefined;
    }
  }
}
