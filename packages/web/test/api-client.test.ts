import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request, requestHeaders } from '../src/lib/api-client.ts';
import {
  EMPTY_RESPONSE_TEXT,
  EmptyResponseError,
  FetchError,
  HttpError,
  ParsingError,
  TimeoutError,
} from '../src/lib/api-errors.ts';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';

function answer(status: number, body: string) {
  return vi.fn(async () => new Response(body, { status, headers: { 'Content-Type': 'application/json' } }));
}

describe('API client', () => {
  beforeEach(() => setRuntimeConfig({ queryUrl: 'https://q.example/api', commandUrl: 'https://c.example/api' }));
  afterEach(() => vi.unstubAllGlobals());

  it('sends the bearer token, the selected account and a JSON content type to the configured base URL', async () => {
    window.localStorage.setItem('authToken', 'tok-1');
    window.localStorage.setItem('selectedAccount', JSON.stringify({ id: 7, name: 'Demo' }));
    const fetchMock = answer(200, JSON.stringify({ success: true, data: { content: [], totalElements: 0 } }));
    vi.stubGlobal('fetch', fetchMock);
    await request('query', 'countries', { method: 'POST', body: { a: 1 } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://q.example/api/countries');
    expect(init.headers).toMatchObject({
      Authorization: 'Bearer tok-1',
      'X-Account-Id': '7',
      'Content-Type': 'application/json',
    });
  });

  it('reads a selection stored as a bare id, and ignores one that is not readable', () => {
    window.sessionStorage.setItem('selectedAccount', '12');
    expect(requestHeaders()['X-Account-Id']).toBe('12');
    window.sessionStorage.setItem('selectedAccount', '{broken');
    expect(requestHeaders()['X-Account-Id']).toBeUndefined();
  });

  it('returns the envelope data', async () => {
    vi.stubGlobal('fetch', answer(200, JSON.stringify({ success: true, data: { id: 3 } })));
    await expect(request('command', 'countries')).resolves.toEqual({ id: 3 });
  });

  it('classes a network failure as FETCH_ERROR', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await request('query', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect(error).toMatchObject({ status: 'FETCH_ERROR', message: 'Failed to fetch' });
  });

  it('classes a call that outlives its timeout as TIMEOUT_ERROR', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const error = await request('query', 'x', { timeoutMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ status: 'TIMEOUT_ERROR' });
  });

  it('classes an unreadable answer as PARSING_ERROR with the original status and text', async () => {
    vi.stubGlobal('fetch', answer(502, '<html>Bad gateway</html>'));
    const error = await request('query', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParsingError);
    expect(error).toMatchObject({ status: 'PARSING_ERROR', originalStatus: 502, text: '<html>Bad gateway</html>' });
  });

  it('carries the HTTP status and body of a non-2xx answer', async () => {
    const body = { success: false, error: { code: 'CONFLICT', message: 'Changed by someone else' } };
    vi.stubGlobal('fetch', answer(409, JSON.stringify(body)));
    const error = await request('command', 'x', { method: 'PUT', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 409,
      httpStatus: 409,
      body,
      code: 'CONFLICT',
      message: 'Changed by someone else',
    });
  });

  it('turns an answer with neither data nor error into the Turkish "API did not respond" error', async () => {
    for (const empty of ['', '{}', '{"success":true}']) {
      vi.stubGlobal('fetch', answer(200, empty));
      const error = await request('query', 'x').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmptyResponseError);
      expect((error as Error).message).toBe(EMPTY_RESPONSE_TEXT);
    }
    expect(EMPTY_RESPONSE_TEXT).toBe('API yanıt vermedi');
  });
});
