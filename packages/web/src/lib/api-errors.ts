import type { ApiError as EnvelopeError } from '@lampyr/contract';

/** SPEC §8: the text of the empty-response error is Turkish for "API did not respond". */
export const EMPTY_RESPONSE_TEXT = 'API yanıt vermedi';

export type ErrorStatus = number | 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR' | 'CUSTOM_ERROR';

/** Every failure of a call to the query or command API. */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  constructor(
    readonly status: ErrorStatus,
    message: string,
  ) {
    super(message);
  }
}

/** The network failed: no answer at all. */
export class FetchError extends ApiRequestError {
  override name = 'FetchError';
  constructor(message: string) {
    super('FETCH_ERROR', message);
  }
}

export class TimeoutError extends ApiRequestError {
  override name = 'TimeoutError';
  constructor(readonly timeoutMs: number) {
    super('TIMEOUT_ERROR', `No answer within ${timeoutMs} ms`);
  }
}

/** The answer was not JSON; keeps the original status and text. */
export class ParsingError extends ApiRequestError {
  override name = 'ParsingError';
  constructor(
    readonly originalStatus: number,
    readonly text: string,
  ) {
    super('PARSING_ERROR', `Unreadable answer (HTTP ${originalStatus})`);
  }
}

/** A non-2xx answer: its status and body, with the envelope's error when there is one. */
export class HttpError extends ApiRequestError {
  override name = 'HttpError';
  constructor(
    readonly httpStatus: number,
    readonly body: unknown,
  ) {
    const error = envelopeError(body);
    super(httpStatus, error?.message ?? `HTTP ${httpStatus}`);
  }

  get code(): string | undefined {
    return envelopeError(this.body)?.code;
  }

  get fields(): Record<string, string> | undefined {
    return envelopeError(this.body)?.fields;
  }
}

/** A 2xx answer carrying neither data nor error. */
export class EmptyResponseError extends ApiRequestError {
  override name = 'EmptyResponseError';
  constructor() {
    super('CUSTOM_ERROR', EMPTY_RESPONSE_TEXT);
  }
}

function envelopeError(body: unknown): EnvelopeError | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'code' in error ? (error as EnvelopeError) : undefined;
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof HttpError ? error.code : undefined;
}

export function isConflict(error: unknown): boolean {
  return error instanceof HttpError && error.httpStatus === 409;
}
