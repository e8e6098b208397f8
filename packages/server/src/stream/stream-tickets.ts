import { createHash, randomBytes } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { streamTickets } from '../db/schema/index.ts';

/**
 * Tickets that open the live stream, because the browser's EventSource cannot send an
 * Authorization header and a token must never travel in a URL. A ticket is 32 random bytes,
 * kept as a hash in the database (any replica can redeem it), bound to one user, one account and
 * the user's token version, valid for TICKET_TTL_SECONDS and usable once.
 */
export const TICKET_TTL_SECONDS = 30;

const digest = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

export async function issueStreamTicket(
  db: Db,
  grant: { userId: number; accountId: number; tokenVersion: number },
): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await db.delete(streamTickets).where(lt(streamTickets.expiresAt, sql`now()`));
  await db
    .insert(streamTickets)
    .values({ ...grant, ticketHash: digest(ticket), expiresAt: new Date(Date.now() + TICKET_TTL_SECONDS * 1000) });
  return ticket;
}

/** Uses up a ticket: what it grants, once, while it is fresh; undefined otherwise. */
export async function redeemStreamTicket(
  db: Db,
  ticket: string,
): Promise<{ userId: number; accountId: number; tokenVersion: number } | undefined> {
  const [row] = await db
    .delete(streamTickets)
    .where(eq(streamTickets.ticketHash, digest(ticket)))
    .returning({
      userId: streamTickets.userId,
      accountId: streamTickets.accountId,
      tokenVersion: streamTickets.tokenVersion,
      expiresAt: streamTickets.expiresAt,
    });
  if (!row || row.expiresAt.getTime() <= Date.now()) return undefined;
  return { userId: row.userId, accountId: row.accountId, tokenVersion: row.tokenVersion };
}
