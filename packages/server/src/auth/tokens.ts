import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'lampyr';
export const TOKEN_TTL = '12h';

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
  private verified = new Map<string, { userId: number; expiresAt: number }>();

  constructor(private readonly secret: Uint8Array) {}

  sign(userId: number, ttl: string = TOKEN_TTL): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(ttl)
      .sign(this.secret);
  }

  /** The user id of a valid token; undefined for a tampered, expired or foreign one. */
  async verify(token: string): Promise<number | undefined> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.expiresAt > Date.now()) return hit.userId;
      this.verified.delete(token);
      return undefined;
    }
    try {
      const { payload } = await jwtVerify(token, this.secret, { issuer: ISSUER, algorithms: ['HS256'] });
      const id = Number(payload.sub);
      if (!Number.isSafeInteger(id) || id < 1 || !payload.exp) return undefined;
      if (this.verified.size >= CACHE_LIMIT) this.verified.clear();
      this.verified.set(token, { userId: id, expiresAt: payload.exp * 1000 });
      return id;
    } catch {
      return undefined;
    }
  }
}
