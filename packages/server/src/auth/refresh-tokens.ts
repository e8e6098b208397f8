import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { refreshTokens } from '../db/schema/index.ts';

/**
 * Refresh credentials: 32 random bytes, sent to the console only as an httpOnly SameSite=Strict
 * cookie scoped to the auth path, stored only as a SHA-256 hash. Each use rotates it (the old one
 * is marked replaced, a new one issued in the same family). A replaced credential presented again
 * within REUSE_GRACE_SECONDS (two tabs refreshing at once) still renews the access token without
 * a new credential; later, it is treated as stolen and ends its whole family. Every credential
 * of a user dies with a token-version bump.
 */
export const REFRESH_TTL_SECONDS = 7 * 24 * 3600;
const REUSE_GRACE_SECONDS = 30;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueRefreshToken(
  db: Db,
  userId: number,
  tokenVersion: number,
  family: string = randomBytes(16).toString('base64url'),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(refreshTokens).values({
    userId,
    family,
    tokenHash: digest(token),
    tokenVersion,
    expiresAt: new Date(Date.now() + REFRESH_TTL_SECONDS * 1000),
  });
  return token;
}

export type Redeemed =
  | { ok: true; userId: number; tokenVersion: number; next?: string }
  | { ok: false; userId?: number };

/**
 * Redeems a refresh credential: the user and token version it was issued for, and the credential
 * that replaces it (none within the grace period of a replaced one). The caller still checks the
 * version against the user's current one.
 */
export async function redeemRefreshToken(db: Db, token: string): Promise<Redeemed> {
  const hash = digest(token);
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash)).limit(1).for('update');
    if (!row || row.expiresAt.getTime() <= Date.now()) return { ok: false as const };
    if (row.replacedAt) {
      if (Date.now() - row.replacedAt.getTime() <= REUSE_GRACE_SECONDS * 1000)
        return { ok: true as const, userId: row.userId, tokenVersion: row.tokenVersion, family: undefined };
      // Presented again long after rotation: someone else holds a copy. End the sign-in.
      await tx.delete(refreshTokens).where(eq(refreshTokens.family, row.family));
      return { ok: false as const, userId: row.userId };
    }
    await tx.update(refreshTokens).set({ replacedAt: new Date() }).where(eq(refreshTokens.id, row.id));
    return { ok: true as const, userId: row.userId, tokenVersion: row.tokenVersion, family: row.family };
  });
  if (!outcome.ok) return outcome;
  const next = outcome.family
    ? await issueRefreshToken(db, outcome.userId, outcome.tokenVersion, outcome.family)
    : undefined;
  await db
    .delete(refreshTokens)
    .where(and(eq(refreshTokens.userId, outcome.userId), lt(refreshTokens.expiresAt, sql`now()`)));
  return { ok: true, userId: outcome.userId, tokenVersion: outcome.tokenVersion, next };
}

/** Ends one sign-in (its family), e.g. the credential a logout presents. */
export async function revokeRefreshToken(db: Db, token: string): Promise<void> {
  const [row] = await db
    .select({ family: refreshTokens.family })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, digest(token)))
    .limit(1);
  if (row) await db.delete(refreshTokens).where(eq(refreshTokens.family, row.family));
}
