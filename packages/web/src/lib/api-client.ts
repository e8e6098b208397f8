import { EmptyResponseError, FetchError, HttpError, ParsingError, TimeoutError } from './api-errors.ts';
import { runtimeConfig } from './runtime-config.ts';
import { authToken, saveAuthToken, selectedAccountId } from './session-storage.ts';

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

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler | undefined;

/**
 * Who hears of a 401 on a call made with a token: the shell, which logs out and sends the user to
 * /login (SPEC §4). Sign-in calls carry no token, so a wrong password never lands here.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | undefined): void {
  onUnauthorized = handler;
}

const REFRESH_PATH = 'auth/refresh';
let renewing: Promise<boolean> | undefined;

/**
 * Silent renewal: access tokens live a quarter of an hour; the server keeps a refresh credential
 * in an httpOnly cookie (the console never sees it) and `auth/refresh` answers a new token and
 * rotates the cookie. Concurrent callers share one renewal. False when the session is over
 * (logged out elsewhere, password changed, refresh expired).
 */
export function renewSession(): Promise<boolean> {
  renewing ??= (async () => {
    try {
      const response = await fetch(apiUrl('command', REFRESH_PATH), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': language },
        body: '{}',
        credentials: 'same-origin',
      });
      if (!response.ok) return false;
      const token = ((await response.json()) as { data?: { token?: unknown } }).data?.token;
      if (typeof token !== 'string' || !token) return false;
      saveAuthToken(token);
      return true;
    } catch {
      return false;
    } finally {
      renewing = undefined;
    }
  })();
  return renewing;
}

export function apiUrl(api: Api, path: string): string {
  return `${baseUrl(api)}/${path.replace(/^\//, '')}`;
}

/**
 * Sends one call and returns the raw answer when it is 2xx (a file, a stream); a non-2xx answer is
 * thrown as an HttpError with its envelope. The timeout covers the wait for the answer's head.
 */
export async function send(api: Api, path: string, options: RequestOptions = {}): Promise<Response> {
  return sendOnce(api, path, options);
}

async function sendOnce(api: Api, path: string, options: RequestOptions, renewed = false): Promise<Response> {
  const { method = 'GET', body, signal, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  const headers = requestHeaders();

  let response: Response;
  try {
    response = await fetch(apiUrl(api, path), {
      method,
      headers,
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
  if (response.status === 401 && headers.Authorization) {
    // An expired access token is renewed once, silently, and the call sent again.
    if (!renewed && (await renewSession())) return sendOnce(api, path, options, true);
    onUnauthorized?.();
  }
  if (!response.ok) {
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ParsingError(response.status, text);
    }
    throw new HttpError(response.status, parsed ?? text);
  }
  return response;
}

/**
 * Calls one of the two APIs and returns the envelope's `data`. Failures are thrown as the classes
 * of SPEC §8: FetchError, TimeoutError, ParsingError, HttpError (status and body) and
 * EmptyResponseError.
 */
export async function request<T>(api: Api, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(api, path, options);
  const text = await response.text();
  let parsed: unknown;
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ParsingError(response.status, text);
    }
  }
  if (typeof parsed !== 'object' || parsed === null) throw new EmptyResponseError();
  const envelope = parsed as { data?: unknown; error?: unknown; success?: boolean };
  if (envelope.error !== undefined && envelope.error !== null) throw new HttpError(response.status, parsed);
  if (envelope.data === undefined || envelope.data === null) throw new EmptyResponseError();
  return envelope.data as T;
}
