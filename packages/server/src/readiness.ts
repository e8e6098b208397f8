import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Role } from './config.ts';
import type { Db } from './db/connect.ts';

/** One thing a replica needs to do its work, and whether it has it now. */
export interface ReadyCheck {
  ok: boolean;
  detail?: string;
}

export interface ReadinessSources {
  db: Db;
  roles: readonly Role[];
  /** The ingest's broker connection (ingest role): subscribed and able to send commands. */
  broker?: () => boolean;
  /** The event bus across replicas (PostgreSQL only). */
  bus?: () => boolean;
  /** Whether this replica leads the engines (told, never a condition of readiness). */
  leading?: () => boolean | undefined;
}

const journal = fileURLToPath(new URL('./db/migrations/meta/_journal.json', import.meta.url));
let expectedMigrations: number | undefined;
const expected = (): number => {
  expectedMigrations ??= (JSON.parse(readFileSync(journal, 'utf8')) as { entries: unknown[] }).entries.length;
  return expectedMigrations;
};

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ]);

/**
 * What `/ready` answers: the database answering, every migration this build knows applied, and for
 * an ingest replica the broker subscribed; the event bus when there is one. Each is checked now,
 * within 2 s, never remembered.
 */
export async function readiness(
  sources: ReadinessSources,
): Promise<{ ready: boolean; checks: Record<string, ReadyCheck> }> {
  const checks: Record<string, ReadyCheck> = {};
  try {
    const result = await withTimeout(
      sources.db.execute(sql`SELECT (SELECT count(*) FROM drizzle.__drizzle_migrations)::int AS applied`),
      2000,
    );
    checks.database = { ok: true };
    const applied = Number((result as unknown as { rows: { applied: number }[] }).rows[0]?.applied ?? 0);
    checks.migrations =
      applied >= expected() ? { ok: true } : { ok: false, detail: `${applied} of ${expected()} applied` };
  } catch {
    // Never the driver's message: it may name hosts and addresses.
    checks.database = { ok: false, detail: 'the database does not answer' };
    checks.migrations = { ok: false, detail: 'unknown while the database does not answer' };
  }
  if (sources.roles.includes('ingest') && sources.broker) {
    checks.broker = sources.broker() ? { ok: true } : { ok: false, detail: 'not connected to the MQTT broker' };
  }
  if (sources.bus) {
    checks.bus = sources.bus() ? { ok: true } : { ok: false, detail: 'the event bus is reconnecting' };
  }
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}
