import { and, count, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { alertNotificationList, pushSubscriptions, transactionLogs } from '../../db/schema/index.ts';

export interface ResendResult {
  updated: number[];
  skipped: { id: number; reason: 'notFound' | 'queued' }[];
}

/**
 * Queues notification-list rows of the account again (sent, failed or dead ones): attempts reset,
 * due now, each change in the transaction log. Ids of other accounts are skipped as not found.
 */
export async function requeue(
  db: Db,
  who: { accountId: number; userId: number },
  ids: readonly number[],
  now: Date,
): Promise<ResendResult> {
  const wanted = [...new Set(ids)];
  const t = alertNotificationList;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: t.id, status: t.status, attempts: t.attempts, lastError: t.lastError })
      .from(t)
      .where(and(eq(t.accountId, who.accountId), inArray(t.id, wanted)))
      .for('update');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const result: ResendResult = { updated: [], skipped: [] };
    for (const id of wanted) {
      const row = byId.get(id);
      if (!row) result.skipped.push({ id, reason: 'notFound' });
      else if (row.status === 'queued') result.skipped.push({ id, reason: 'queued' });
      else result.updated.push(id);
    }
    if (!result.updated.length) return result;
    await tx
      .update(t)
      .set({ status: 'queued', attempts: 0, lastError: null, sentAt: null, nextAttemptAt: now, updatedAt: now })
      .where(and(eq(t.accountId, who.accountId), inArray(t.id, result.updated)));
    await tx.insert(transactionLogs).values(
      result.updated.map((id) => {
        const before = byId.get(id);
        return {
          accountId: who.accountId,
          userId: who.userId,
          resource: 'alert-notification-list',
          action: 'resend',
          recordId: id,
          before: { status: before?.status, attempts: before?.attempts, lastError: before?.lastError },
          after: { status: 'queued', attempts: 0 },
        };
      }),
    );
    return result;
  });
}

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * Stores a browser's subscription for the user in the account (the endpoint's last subscriber owns
 * it). `false` when the user already has `limit` other subscriptions there.
 */
export async function savePushSubscription(
  db: Db,
  who: { accountId: number; userId: number },
  input: PushSubscriptionInput,
  limit: number,
): Promise<boolean> {
  const s = pushSubscriptions;
  return db.transaction(async (tx) => {
    const [others] = await tx
      .select({ n: count() })
      .from(s)
      .where(and(eq(s.accountId, who.accountId), eq(s.userId, who.userId), ne(s.endpoint, input.endpoint)));
    if ((others?.n ?? 0) >= limit) return false;
    await tx
      .insert(s)
      .values({
        accountId: who.accountId,
        userId: who.userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
      })
      .onConflictDoUpdate({
        target: [s.accountId, s.endpoint],
        set: { userId: who.userId, p256dh: input.keys.p256dh, auth: input.keys.auth },
      });
    return true;
  });
}

/** Removes the user's subscription of this endpoint in the account; how many were removed. */
export async function deletePushSubscription(
  db: Db,
  who: { accountId: number; userId: number },
  endpoint: string,
): Promise<number> {
  const s = pushSubscriptions;
  const removed = await db
    .delete(s)
    .where(and(eq(s.accountId, who.accountId), eq(s.userId, who.userId), eq(s.endpoint, endpoint)))
    .returning({ id: s.id });
  return removed.length;
}
