import { createHash, randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { oneTimeCodes, users } from '../db/schema/index.ts';

/** `email`: confirms a new address (users.pending_email), sent to that address. */
export type CodePurpose = 'verify' | 'reset' | 'email';

export const CODE_TTL_MINUTES = 15;
/** Wrong tries one code survives. */
const MAX_ATTEMPTS = 5;
/** Codes one user gets per purpose in CODE_WINDOW_MINUTES; further requests send nothing. */
export const MAX_CODES_PER_WINDOW = 5;
/** Wrong tries per user and purpose in CODE_WINDOW_MINUTES, whatever the number of codes issued. */
export const MAX_GUESSES_PER_WINDOW = 10;
const CODE_WINDOW_MINUTES = 60;

const digest = (userId: number, code: string) => createHash('sha256').update(`${userId}:${code}`).digest('hex');
const windowStart = () => new Date(Date.now() - CODE_WINDOW_MINUTES * 60_000);

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Serialises the code operations of one user (across replicas too) on its row. */
const lockUser = (tx: Tx, userId: number) =>
  tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');

/** The user's codes of one purpose issued in the current window. */
const ofTheWindow = (userId: number, purpose: CodePurpose) =>
  and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), gt(oneTimeCodes.createdAt, windowStart()));

/**
 * Issues a fresh 6-digit code; earlier codes of the same purpose stop working. Undefined when the
 * user already had MAX_CODES_PER_WINDOW codes of this purpose in the window: nothing is sent, and
 * the caller answers as if it were.
 */
export async function issueCode(db: Db, userId: number, purpose: CodePurpose): Promise<string | undefined> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const [recent] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(oneTimeCodes)
      .where(ofTheWindow(userId, purpose));
    if ((recent?.n ?? 0) >= MAX_CODES_PER_WINDOW) return undefined;
    await tx
      .update(oneTimeCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt)));
    await tx.insert(oneTimeCodes).values({
      userId,
      purpose,
      codeHash: digest(userId, code),
      expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
    });
    return code;
  });
}

/**
 * Uses up a code: true once for the right, unexpired code. Each wrong try counts: after five the
 * code is dead, and after MAX_GUESSES_PER_WINDOW across all codes of the window (a new code does
 * not bring new tries) even the right code is refused until the window has passed.
 */
export async function consumeCode(db: Db, userId: number, purpose: CodePurpose, code: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const [guessed] = await tx
      .select({ n: sql<number>`coalesce(sum(${oneTimeCodes.attempts}), 0)::int` })
      .from(oneTimeCodes)
      .where(ofTheWindow(userId, purpose));
    if ((guessed?.n ?? 0) >= MAX_GUESSES_PER_WINDOW) return false;
    const [current] = await tx
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt)))
      .orderBy(desc(oneTimeCodes.id))
      .limit(1);
    if (!current || current.expiresAt.getTime() < Date.now() || current.attempts >= MAX_ATTEMPTS) return false;
    if (current.codeHash !== digest(userId, code)) {
      await tx
        .update(oneTimeCodes)
        .set({ attempts: current.attempts + 1 })
        .where(eq(oneTimeCodes.id, current.id));
      return false;
    }
    await tx.update(oneTimeCodes).set({ usedAt: new Date() }).where(eq(oneTimeCodes.id, current.id));
    return true;
  });
}
