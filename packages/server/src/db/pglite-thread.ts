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
  private openTransactions = 0;
  private ended?: Error;
  /** The thread being replaced, whose end is expected. */
  private retiring?: Worker;
  /** While the thread is being replaced: requests outside a transaction wait for it. */
  private gate?: Promise<void>;

  private constructor(
    private worker: Worker,
    private readonly dataDir: string,
    private readonly startParams: string[],
  ) {
    this.attach(worker);
  }

  private attach(worker: Worker): void {
    worker.on('message', (answer: Answer) => {
      const waiter = this.waiting.get(answer.id);
      if (!waiter) return;
      this.waiting.delete(answer.id);
      if (!this.waiting.size) worker.unref();
      if (answer.ok) waiter.resolve(answer.result);
      else waiter.reject(errorOf(answer.error));
    });
    const end = (reason: string) => {
      if (worker !== this.worker || worker === this.retiring) return; // a thread replaced on purpose
      this.ended ??= new Error(`PGlite is closed (${reason})`);
      for (const waiter of this.waiting.values()) waiter.reject(this.ended);
      this.waiting.clear();
    };
    worker.on('error', (error) => end(error.message));
    worker.on('exit', (code) => end(`its thread exited with code ${code}`));
  }

  /** Opens the data directory (made beforehand; or `memory://`) in a new thread. */
  static async open(dataDir: string, startParams: string[]): Promise<PgliteThread> {
    return new PgliteThread(await PgliteThread.spawn(dataDir, startParams), dataDir, startParams);
  }

  private static async spawn(dataDir: string, startParams: string[]): Promise<Worker> {
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
      worker.once('message', (message: { ready: boolean; error?: Extract<Answer, { ok: false }>['error'] }) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (message.ready) resolve();
        else reject(errorOf(message.error as Extract<Answer, { ok: false }>['error']));
      });
    });
    worker.unref();
    return worker;
  }

  /**
   * Closes the database and opens it again in a new thread, which gives the system back the memory
   * a large write grew (WebAssembly memory never shrinks; a thread's goes with it): the first
   * start's 14 days of demo history leave the server ~150 MB larger otherwise. Requests made
   * meanwhile wait; open transactions end first. Not for `memory://` (its data would go too).
   */
  async restart(): Promise<void> {
    if (this.ended || this.gate || this.dataDir === 'memory://') return;
    let open = () => {};
    this.gate = new Promise<void>((resolve) => (open = resolve));
    try {
      while (this.waiting.size || this.openTransactions) await new Promise((resolve) => setTimeout(resolve, 10));
      const old = this.worker;
      this.retiring = old;
      await this.send({ op: 'close' });
      this.worker = await PgliteThread.spawn(this.dataDir, this.startParams);
      this.attach(this.worker);
      await old.terminate();
    } catch (error) {
      this.ended ??= new Error(`PGlite is closed (it could not be opened again: ${(error as Error).message})`);
      throw error;
    } finally {
      this.gate = undefined;
      open();
    }
  }

  private async request<T>(request: Request): Promise<T> {
    // Inside a transaction, requests go on: the thread is replaced only once none is open.
    while (this.gate && (request.tx === undefined || request.op === 'begin')) await this.gate;
    return this.send<T>(request);
  }

  private send<T>(request: Request): Promise<T> {
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
    this.openTransactions++;
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
    } finally {
      this.openTransactions--;
    }
  }

  /** Closes the database (its files flushed) and ends the thread. */
  async close(): Promise<void> {
    if (this.ended) return;
    await this.request({ op: 'close' });
    if (this.ended) return;
    this.ended = new Error('PGlite is closed');
    await this.worker.terminate();
  }
}
