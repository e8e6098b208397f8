import { EmptyResponseError, FetchError, HttpError, ParsingError, TimeoutError } from './api-errors.ts';
import { runtimeConfig } from './runtime-config.ts';
import { authToken, selectedAccountId } from './session-storage.ts';

export type Api = 'query' | 'command';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

let language = 'en';

/** The server writes its messages in the `Accept-Language` language. */
export function setRequestLanguage(lng: string): void {
  language = lng;
}

function baseUrl(api: Api): string {
  const config = runtimeConfig();
  return api === 'query' ? config.queryUrl : config.commandUrl;
}

/** SPEC §7: every request carries the bearer token, the selected account and a JSON content type. */
export function requestHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Accept-Language': language,
  };
  const token = authToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const accountId = selectedAccountId();
  if (accountId) headers['X-Account-Id'] = accountId;
  return headers;
}

/**
 * Calls one of the two APIs and returns the envelope's `data`. Failures are thrown as the classes
 * of SPEC §8: FetchError, TimeoutError, ParsingError, HttpError (status and body) and
 * EmptyResponseError.
 */
export async function request<T>(api: Api, path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);

  let response: Response;
  try {
    response = await fetch(`${baseUrl(api)}/${path.replace(/^\//, '')}`, {
      method,
      headers: requestHeaders(),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (error) {
    if (timedOut) throw new TimeoutError(timeoutMs);
    if (signal?.aborted) throw error;
    throw new FetchError(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }

  const text = await response.text();
  let parsed: unknown;
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ParsingError(response.status, text);
    }
  }
  if (!response.ok) throw new HttpError(response.status, parsed ?? text);
  if (typeof parsed !== 'object' || parsed === null) throw new EmptyResponseError();
  const envelope = parsed as { data?: unknown; error?: unknown; success?: boolean };
  if (envelope.error !== undefined && envelope.error !== null) throw new HttpError(response.status, parsed);
  if (envelope.data === undefined || envelope.data === null) throw new EmptyResponseError();
  return envelope.data as T;
}
