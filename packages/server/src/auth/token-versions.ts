import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { refreshTokens, streamTickets, users } from '../db/schema/index.ts';

/** Anything that can run the three statements: the app's database or a transaction of it. */
type Executor = Pick<Db, 'select' | 'update' | 'delete'>;

type RevokedListener = (userId: number) => void;

// Process-wide: a bump made through any database handle (or transaction) reaches every cache and
// every open stream of this process at once; other replicas see it when their cache entry ages.
let generation = 0;
const bumpedAt = new Map<number, number>();
const listeners = new Set<RevokedListener>();

/**
 * Revokes every token of a user: bumps `users.token_version` (carried in every access token and
 * checked on every request), drops the user's refresh credentials and unused stream tickets, and
 * closes the user's open streams in this process. Call it for anything that changes who a person
 * is or what they may do: password change or reset, logout, an administrator's edit of their
 * role or memberships. Inside a transaction, pass the transaction; the in-process revocation
 * happens at once, and a request racing the commit re-reads the version within seconds.
 */
export async function bumpTokenVersion(db: Executor, userId: number): Promise<number | undefined> {
  const [row] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ tokenVersion: users.tokenVersion });
  await db.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
  await db.delete(streamTickets).where(eq(streamTickets.userId, userId));
  revokeInProcess(userId);
  return row?.tokenVersion;
}

/** Forgets what this process knows of a user's token version and tells its open streams. */
export function revokeInProcess(userId: number): void {
  bumpedAt.set(userId, ++generation);
  for (const listener of listeners) listener(userId);
}

/** Hears every revocation in this process (the stream closes the revoked user's connections). */
export function onTokenRevoked(listener: RevokedListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const TTL_MS = 2000;
const CACHE_LIMIT = 10_000;

/**
 * The current token version of each user, cached for two seconds (so other replicas' bumps are
 * seen within that) and dropped at once by a bump in this process.
 */
export class TokenVersions {
  private cache = new Map<number, { at: number; generation: number; version: Promise<number | undefined> }>();

  constructor(private readonly db: Db) {}

  /** The user's current version; undefined when the user no longer exists. */
  current(userId: number): Promise<number | undefined> {
    const hit = this.cache.get(userId);
    if (hit && Date.now() - hit.at < TTL_MS && hit.generation >= (bumpedAt.get(userId) ?? 0)) return hit.version;
    const loading = this.db
      .select({ tokenVersion: users.tokenVersion })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1)
      .then((rows) => rows[0]?.tokenVersion);
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(userId, { at: Date.now(), generation, version: loading });
    loading.catch(() => this.cache.delete(userId));
    return loading;
  }

  async isCurrent(userId: number, version: number): Promise<boolean> {
    return (await this.current(userId)) === version;
  }
}
