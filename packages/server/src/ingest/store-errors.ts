import { cleanLine, MAX_DETAIL_LENGTH } from './device-input.ts';

/**
 * Why a unit is refused before the database sees it (its message names the refused field and value).
 * Like a constraint the database enforces, it concerns the unit alone: the rest of its batch is
 * stored, the unit goes to the data log.
 */
export class StoreRefusal extends Error {}

/** The SQLSTATE of a database error (PostgreSQL's and PGlite's), also when Drizzle wraps it. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** node-postgres and PGlite say so in words when the connection, not the statement, failed. */
const TRANSIENT_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|not queryable|pool after calling end|pglite is closed/i;
const TRANSIENT_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * Whether an error is the database's condition rather than the message's: connection lost, server
 * shutting down or overloaded, a deadlock, a timeout, a missing table or privilege. Only data
 * exceptions (22), integrity constraints (23) and program limits (54) are a message's fault. A
 * message failing otherwise is not acknowledged, so the broker delivers it again later.
 */
export function isTransientError(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state) return !/^(22|23|54)/.test(state);
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && TRANSIENT_NODE_CODES.has(code)) return true;
    if (typeof message === 'string' && TRANSIENT_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * Why a unit was not stored, for the data log: the refused value or the SQLSTATE (data, not prose:
 * the reason `store_failed` is what is translated), never the statement.
 */
export function failureDetail(error: unknown): string | null {
  if (error instanceof StoreRefusal) return cleanLine(error.message, MAX_DETAIL_LENGTH);
  const state = sqlStateOf(error);
  return state ? `SQLSTATE ${state}` : null;
}
