import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';

export type SystemLogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<SystemLogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Lines kept while the database cannot take them (its outage itself is one of them), at most. */
const MAX_PENDING = 500;
/** The same engine error is written at most once per this long (a failing tick every 5 s is one line). */
const REPEAT_MS = 60_000;
/** How long the operator's System Log Settings are trusted before they are read again. */
const SETTINGS_MS = 30_000;

interface Line {
  level: SystemLogLevel;
  source: string;
  message: string;
  context: Record<string, unknown>;
  at: Date;
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/**
 * What the server itself does, written to the system_logs table of the operator's (root) account —
 * the console's System Logs screen. The level written from is the lowest level of that account's
 * active System Log Settings (none active: info). Start and stop, roles, leadership, broker and
 * database connections lost and regained, migrations, engine errors, refused sign-ins in bulk.
 * Writing never throws: lines the database cannot take now are kept (a bounded number) and written
 * once it answers again, with the time they happened.
 */
export class SystemLog {
  private pending: Line[] = [];
  private flushing?: Promise<void>;
  private threshold?: { rank: number; accountId: number | undefined; at: number };
  private lastSeen = new Map<string, number>();
  private refusedLogins = { count: 0, addresses: new Set<string>(), since: 0 };
  private refusedTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly db: Db,
    /** Named in every line's context: which replica wrote it. */
    private readonly replica: Record<string, unknown> = {},
    /** Where a line also goes at once (the process log). */
    private readonly echo?: (level: SystemLogLevel, message: string) => void,
    /** The window refused sign-ins are counted over (a minute; tests shorten it). */
    private readonly refusedWindowMs = 60_000,
  ) {}

  write(level: SystemLogLevel, source: string, message: string, context: Record<string, unknown> = {}): void {
    this.echo?.(level, `${source}: ${message}`);
    if (this.closed) return;
    if (this.pending.length >= MAX_PENDING) this.pending.shift();
    this.pending.push({ level, source, message: message.slice(0, 2000), context, at: new Date() });
    void this.flush();
  }

  info(source: string, message: string, context?: Record<string, unknown>): void {
    this.write('info', source, message, context);
  }
  warn(source: string, message: string, context?: Record<string, unknown>): void {
    this.write('warn', source, message, context);
  }

  /** An engine's error: written once per REPEAT_MS for the same source and message. */
  error(source: string, error: unknown): void {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 500);
    const key = `${source}\u0000${message}`;
    const now = Date.now();
    if ((this.lastSeen.get(key) ?? 0) > now - REPEAT_MS) return;
    this.lastSeen.set(key, now);
    if (this.lastSeen.size > 1000) this.lastSeen.clear();
    this.write('error', source, message);
  }

  /**
   * A sign-in refused (wrong password, locked, rate-limited): counted, and written as one line a
   * minute when there were at least `bulk` of them.
   */
  refusedLogin(address: string | undefined, bulk = 5): void {
    const r = this.refusedLogins;
    if (!r.count) r.since = Date.now();
    r.count++;
    if (address && r.addresses.size < 100) r.addresses.add(address);
    if (this.refusedTimer) return;
    this.refusedTimer = setTimeout(() => {
      this.refusedTimer = undefined;
      const { count, addresses, since } = this.refusedLogins;
      this.refusedLogins = { count: 0, addresses: new Set(), since: 0 };
      if (count >= bulk)
        this.warn('auth', `${count} sign-ins refused in ${Math.round((Date.now() - since) / 1000)} s`, {
          count,
          addresses: [...addresses].slice(0, 20),
        });
    }, this.refusedWindowMs);
    this.refusedTimer.unref();
  }

  /** Writes what is pending; resolves when done (or when the database refused again). */
  flush(): Promise<void> {
    this.flushing ??= this.writePending().finally(() => {
      this.flushing = undefined;
      if (this.pending.length && !this.retry) {
        this.retry = setTimeout(() => {
          this.retry = undefined;
          void this.flush();
        }, 2000);
        this.retry.unref();
      }
    });
    return this.flushing;
  }
  private retry?: NodeJS.Timeout;

  async close(): Promise<void> {
    if (this.refusedTimer) {
      clearTimeout(this.refusedTimer);
      this.refusedTimer = undefined;
    }
    await this.flush().catch(() => {});
    await this.flushing;
    this.closed = true;
    clearTimeout(this.retry);
  }

  private async settings(): Promise<{ rank: number; accountId: number | undefined }> {
    if (this.threshold && this.threshold.at > Date.now() - SETTINGS_MS) return this.threshold;
    const row = rowsOf(
      await this.db.execute(sql`
        SELECT a.id::int AS account_id,
          (SELECT min(CASE s.level WHEN 'debug' THEN 0 WHEN 'info' THEN 1 WHEN 'warn' THEN 2 WHEN 'error' THEN 3 END)
             FROM system_log_settings s WHERE s.account_id = a.id AND s.is_active) AS rank
        FROM accounts a WHERE a.account_id IS NULL ORDER BY a.id LIMIT 1`),
    )[0];
    this.threshold = {
      rank: row?.rank === null || row?.rank === undefined ? RANK.info : Number(row.rank),
      accountId: row ? Number(row.account_id) : undefined,
      at: Date.now(),
    };
    return this.threshold;
  }

  private async writePending(): Promise<void> {
    while (this.pending.length) {
      let settings: { rank: number; accountId: number | undefined };
      try {
        settings = await this.settings();
      } catch {
        return;
      }
      // Before the first account exists (a first start mid-migration) nothing can be written.
      if (settings.accountId === undefined) {
        this.threshold = undefined;
        return;
      }
      const lines = this.pending.slice(0, 100).filter((line) => RANK[line.level] >= settings.rank);
      const taken = Math.min(100, this.pending.length);
      if (lines.length) {
        try {
          await this.db.execute(sql`
            INSERT INTO system_logs (account_id, level, source, message, context, created_at, updated_at)
            VALUES ${sql.join(
              lines.map(
                (l) =>
                  sql`(${settings.accountId}, ${l.level}, ${l.source}, ${l.message}, ${JSON.stringify({ ...this.replica, ...l.context })}::jsonb, ${l.at.toISOString()}::timestamptz, ${l.at.toISOString()}::timestamptz)`,
              ),
              sql`, `,
            )}`);
        } catch {
          return;
        }
      }
      this.pending.splice(0, taken);
    }
  }
}
