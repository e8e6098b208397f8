import { createHash, randomInt } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { oneTimeCodes } from '../db/schema/index.ts';

/** `email`: confirms a new address (users.pending_email), sent to that address. */
export type CodePurpose = 'verify' | 'reset' | 'email';

export const CODE_TTL_MINUTES = 15;
const MAX_ATTEMPTS = 5;

const digest = (userId: number, code: string) => createHash('sha256').update(`${userId}:${code}`).digest('hex');

/** Issues a fresh 6-digit code; earlier codes of the same purpose stop working. */
export async function issueCode(db: Db, userId: number, purpose: CodePurpose): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
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
  });
  return code;
}

/**
 * Uses up a code: true once for the right, unexpired code. Each wrong try counts, and after
 * five the code is dead, so six digits cannot be guessed.
 */
export async function consumeCode(db: Db, userId: number, purpose: CodePurpose, code: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt)))
      .orderBy(desc(oneTimeCodes.id))
      .limit(1)
      .for('update');
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
