import { describe, expect, it, vi } from 'vitest';
import { FetchError, HttpError, ParsingError, TimeoutError } from '../src/lib/api-errors.ts';
import { createQueryClient, retryDelay, shouldRetry } from '../src/lib/query-client.ts';

describe('retry policy', () => {
  it('retries a failed fetch 3 times, then gives up', () => {
    const error = new FetchError('down');
    expect([0, 1, 2, 3].map((n) => shouldRetry(n, error))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, new TimeoutError(10))).toBe(true);
    expect(shouldRetry(0, new ParsingError(502, 'x'))).toBe(true);
    expect(shouldRetry(0, new HttpError(503, {}))).toBe(true);
    expect(shouldRetry(0, new HttpError(429, {}))).toBe(true);
  });

  it('does not retry answers that a retry cannot change (4xx)', () => {
    for (const status of [400, 401, 403, 404, 409, 422]) expect(shouldRetry(0, new HttpError(status, {}))).toBe(false);
  });

  it('waits 1 s, doubling, at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('keeps data 60 s, collects it after 5 minutes, and never retries mutations', () => {
    const client = createQueryClient();
    const defaults = client.getDefaultOptions();
    expect(defaults.queries).toMatchObject({ staleTime: 60_000, gcTime: 300_000 });
    expect(defaults.mutations?.retry).toBe(false);
  });

  it('runs a failing query 4 times in all (1 + 3 retries) with the doubling delays', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const fn = vi.fn(async () => {
      throw new FetchError('down');
    });
    const done = client.fetchQuery({ queryKey: ['t'], queryFn: fn }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(await done).toBeInstanceOf(FetchError);
    expect(fn).toHaveBeenCalledTimes(4);
    vi.useRealTimers();
  });

  it('does not retry a mutation', async () => {
    const client = createQueryClient();
    const fn = vi.fn(async () => {
      throw new FetchError('down');
    });
    const mutation = client.getMutationCache().build(client, { mutationFn: fn });
    await mutation.execute(undefined).catch(() => undefined);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
