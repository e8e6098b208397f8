/**
 * The embedded database's thread (pglite-thread.ts starts it): PGlite, PostgreSQL compiled to
 * WebAssembly, runs here, on a core of its own, while the server's thread parses, decodes and
 * answers. Plain JavaScript, so that it loads alike under tsx, under the tests and in the compiled
 * build. Requests come as messages `{ id, op, tx?, sql?, params?, rowMode?, parsers? }`; each is
 * answered `{ id, ok, result }` or `{ id, ok: false, error }`. A transaction (`begin` … `commit` or
 * `rollback`) runs inside PGlite's own `transaction()`, so PGlite keeps every other request out of
 * it exactly as it does in process.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** Why a request failed, as plain data (an Error's own fields do not survive postMessage). */
function failure(error) {
  const fields = {};
  if (error && typeof error === 'object')
    for (const [key, value] of Object.entries(error))
      if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return {
    name: error?.name ?? 'Error',
    message: error?.message ?? String(error),
    stack: error?.stack,
    fields,
  };
}

const answer = (id, result) => port.postMessage({ id, ok: true, result });
const refuse = (id, error) => port.postMessage({ id, ok: false, error: failure(error) });

/** Drizzle's parsers keep timestamps, dates, intervals and numeric arrays as PostgreSQL's text. */
const asText = (value) => value;
const optionsOf = (request) => ({
  rowMode: request.rowMode,
  parsers: request.parsers ? Object.fromEntries(request.parsers.map((oid) => [oid, asText])) : undefined,
});

/** PGlite's results without what cannot cross threads (a Blob). */
const plain = (results) => ({ rows: results.rows, fields: results.fields, affectedRows: results.affectedRows });

async function run(target, request) {
  if (request.op === 'exec') return (await target.exec(request.sql)).map(plain);
  return plain(await target.query(request.sql, request.params, optionsOf(request)));
}

/** The requests of each open transaction, waiting to run inside it. */
const transactions = new Map();
class RollbackAsked extends Error {}

function begin(request) {
  const inbox = [];
  let wake = () => {};
  transactions.set(request.tx, {
    push(message) {
      inbox.push(message);
      wake();
    },
  });
  let last = request.id;
  db.transaction(async (tx) => {
    answer(request.id);
    for (;;) {
      while (!inbox.length) await new Promise((resolve) => (wake = resolve));
      const next = inbox.shift();
      last = next.id;
      if (next.op === 'commit') return;
      if (next.op === 'rollback') throw new RollbackAsked();
      try {
        answer(next.id, await run(tx, next));
      } catch (error) {
        refuse(next.id, error);
      }
    }
  }).then(
    () => answer(last),
    (error) => {
      transactions.delete(request.tx);
      if (error instanceof RollbackAsked) answer(last);
      else refuse(last, error);
    },
  );
}

let db;
try {
  db = await PGlite.create(workerData.dataDir, { startParams: workerData.startParams });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: failure(error) });
  process.exit(1);
}

port.on('message', (request) => {
  if (request.tx !== undefined && request.op !== 'begin') {
    const transaction = transactions.get(request.tx);
    if (transaction) {
      transaction.push(request);
      if (request.op === 'commit' || request.op === 'rollback') transactions.delete(request.tx);
    } else refuse(request.id, new Error('Transaction is closed'));
    return;
  }
  if (request.op === 'begin') {
    begin(request);
    return;
  }
  if (request.op === 'close') {
    db.close().then(
      () => {
        answer(request.id);
        port.close();
      },
      (error) => refuse(request.id, error),
    );
    return;
  }
  run(db, request).then(
    (result) => answer(request.id, result),
    (error) => refuse(request.id, error),
  );
});
