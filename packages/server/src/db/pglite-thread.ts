import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';

/** What a request of the thread answered: its result, or why it failed (as data). */
type Answer =
  | { id: number; ok: true; result?: unknown }
  | { id: number; ok: false; error: { name: string; message: string; stack?: string; fields: object } };

interface Request {
  op: 'query' | 'exec' | 'begin' | 'commit' | 'rollback' | 'close';
  tx?: number;
  sql?: string;
  params?: unknown[];
  rowMode?: QueryOptions['rowMode'];
  parsers?: number[];
}

/** The part of PGlite's interface Drizzle's PGlite driver and Lampyr use. */
export interface PgliteQueries {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

export interface PgliteTransaction extends PgliteQueries {
  readonly closed: boolean;
}

const workerFile = new URL('./pglite-thread-worker.js', import.meta.url);
const YOUNG_GENERATION_MB = 4;

/** An Error again from the data the thread sent, with PostgreSQL's fields (`code`, `detail`…). */
function errorOf(data: { name: string; message: string; stack?: string; fields: object }): Error {
  const error = Object.assign(new Error(data.message), data.fields);
  error.name = data.name;
  if (data.stack) error.stack = `${data.stack}\n    (in the database thread)`;
  return error;
}

/**
 * PGlite on a worker thread of its own: PostgreSQL's WebAssembly, its file system calls and its
 * wire protocol leave the server's event loop (measured on `bench:ingest`'s embedded run, they were
 * three fifths of the thread's time), which keeps parsing, decoding and answering meanwhile. Offers
 * what Drizzle's PGlite driver calls — `query`, `exec`, `transaction` — with PGlite's own semantics:
 * one session; a transaction holds every other request until it ends (PGlite's lock, in the thread).
 * Query options cross as data: `rowMode`, and parsers as the type ids to keep as text (Drizzle's
 * parsers are exactly that); other parsers, serializers and blobs are not supported.
 */
export class PgliteThread implements PgliteQueries {
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private next = 0;
  private transactions = 0;
  private ended?: Error;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (answer: Answer) => {
      const waiter = this.waiting.get(answer.id);
      if (!waiter) return;
      this.waiting.delete(answer.id);
      if (!this.waiting.size) worker.unref();
      if (answer.ok) waiter.resolve(answer.result);
      else waiter.reject(errorOf(answer.error));
    });
    const end = (reason: string) => {
      this.ended ??= new Error(`PGlite is closed (${reason})`);
      for (const waiter of this.waiting.values()) waiter.reject(this.ended);
      this.waiting.clear();
    };
    worker.on('error', (error) => end(error.message));
    worker.on('exit', (code) => end(`its thread exited with code ${code}`));
  }

  /** Opens the data directory (made beforehand; or `memory://`) in a new thread. */
  static async open(dataDir: string, startParams: string[]): Promise<PgliteThread> {
    const worker = new Worker(workerFile, {
      workerData: { dataDir, startParams },
      // PGlite's garbage is short-lived protocol buffers: a small young generation is collected
      // often and cheaply (bench:ingest embedded, 15 s: 378 → 348–352 MB RSS, no loss of rate).
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the database thread exited with code ${code}`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (message: { ready: boolean; error?: Answer & { ok: false } }) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (message.ready) resolve();
        else reject(errorOf((message as unknown as { error: Extract<Answer, { ok: false }>['error'] }).error));
      });
    });
    worker.unref();
    return new PgliteThread(worker);
  }

  private request<T>(request: Request): Promise<T> {
    if (this.ended) return Promise.reject(this.ended);
    const id = ++this.next;
    // The thread keeps the process alive while a request awaits it, not while it idles.
    if (!this.waiting.size) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, ...request });
    });
  }

  private queryIn<T>(tx: number | undefined, sql: string, params?: unknown[], options?: QueryOptions) {
    return this.request<Results<T>>({
      op: 'query',
      tx,
      sql,
      params,
      rowMode: options?.rowMode,
      parsers: options?.parsers ? Object.keys(options.parsers).map(Number) : undefined,
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.queryIn<T>(undefined, sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.request<Results[]>({ op: 'exec', sql });
  }

  /**
   * Runs `work` in a transaction: committed when it resolves, rolled back when it throws (its error
   * is rethrown). Requests made meanwhile outside it wait for it to end.
   */
  async transaction<T>(work: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
    const tx = ++this.transactions;
    await this.request({ op: 'begin', tx });
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const handle: PgliteTransaction = {
      query: async (sql, params, options) => {
        open();
        return this.queryIn(tx, sql, params, options);
      },
      exec: async (sql) => {
        open();
        return this.request<Results[]>({ op: 'exec', tx, sql });
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await work(handle);
    } catch (error) {
      closed = true;
      await this.request({ op: 'rollback', tx }).catch(() => {});
      throw error;
    }
    closed = true;
    await this.request({ op: 'commit', tx });
    return result;
  }

  /** Closes the database (its files flushed) and ends the thread. */
  async close(): Promise<void> {
    if (this.ended) return;
    await this.request({ op: 'close' });
    this.ended = new Error('PGlite is closed');
    await this.worker.terminate();
  }
}
