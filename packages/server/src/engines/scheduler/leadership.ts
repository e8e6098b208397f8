import pg from 'pg';

/**
 * Whether this process should run the engines that must run once: the scheduler, the alarm timers
 * and node loss, the connection watcher, the energy rollup, retention jobs — all under one lock.
 */
export interface Leadership {
  isLeader(): Promise<boolean>;
  close(): Promise<void>;
}

/** The embedded database serves one process: it always leads. */
export const alwaysLeader: Leadership = {
  isLeader: async () => true,
  close: async () => {},
};

/** The advisory lock key of the scheduler's leader ("lampyr:scheduler"). */
export const SCHEDULER_LOCK_KEY = 0x6c616d70_7363686n;

/**
 * A PostgreSQL session advisory lock held on a connection of its own: the process whose
 * `pg_try_advisory_lock` succeeds leads until that connection ends — a crash, a kill or a network
 * loss ends the session, PostgreSQL releases the lock, and the next replica to try takes it.
 */
export class AdvisoryLockLeader implements Leadership {
  private client?: pg.Client;
  private leading_ = false;
  private connecting?: Promise<pg.Client | undefined>;
  private checking?: Promise<boolean>;
  private watcher?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly key: bigint = SCHEDULER_LOCK_KEY,
    private readonly onChange: (leading: boolean) => void = () => {},
  ) {}

  /** Asks now (one question at a time: engines ticking together share it). */
  isLeader(): Promise<boolean> {
    this.checking ??= this.check().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /**
   * Asks every `everyMs` even when no engine is due, so a follower takes over within that time of
   * the leader's end and the change is told at once.
   */
  watch(everyMs = 2000): this {
    clearInterval(this.watcher);
    this.watcher = setInterval(() => void this.isLeader(), everyMs);
    this.watcher.unref();
    void this.isLeader();
    return this;
  }

  get leading(): boolean {
    return this.leading_;
  }

  private async check(): Promise<boolean> {
    const client = await this.connection();
    if (!client) return this.set(false);
    try {
      if (this.leading_) {
        // Still the same session (a dead one fails here, and the lock is gone with it).
        await client.query('SELECT 1');
        return true;
      }
      const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
        this.key.toString(),
      ]);
      return this.set(result.rows[0]?.locked === true);
    } catch {
      this.drop(client);
      return this.set(false);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.watcher);
    const client = this.client;
    this.client = undefined;
    this.set(false);
    await client?.end().catch(() => {});
  }

  private set(leading: boolean): boolean {
    if (leading !== this.leading_) {
      this.leading_ = leading;
      this.onChange(leading);
    }
    return leading;
  }

  private drop(client: pg.Client): void {
    if (this.client === client) this.client = undefined;
    this.set(false);
    client.end().catch(() => {});
  }

  private connection(): Promise<pg.Client | undefined> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({
        connectionString: this.url,
        application_name: 'lampyr-engines-leader',
        keepAlive: true,
        connectionTimeoutMillis: 5000,
        query_timeout: 3000,
      });
      client.on('error', () => this.drop(client));
      client.on('end', () => this.drop(client));
      try {
        await client.connect();
        this.client = client;
        return client;
      } catch {
        return undefined;
      }
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }
}
