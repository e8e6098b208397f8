import { CONSTANTS } from '@lampyr/contract';
import { QueryClient } from '@tanstack/react-query';
import { HttpError } from './api-errors.ts';

/**
 * A 4xx answer (bad request, forbidden, not found, validation, conflict) will be the same on the
 * next try, so only network failures, timeouts, unreadable answers, 408, 429 and 5xx are retried.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof HttpError) {
    const status = error.httpStatus;
    return status >= 500 || status === 408 || status === 429;
  }
  return true;
}

/** SPEC §8/§9: up to 3 retries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < CONSTANTS.fetchRetries && isRetryable(error);
}

/** SPEC §9: 1 s, doubling, at most 30 s. */
export function retryDelay(attemptIndex: number): number {
  return Math.min(CONSTANTS.fetchRetryBaseMs * 2 ** attemptIndex, CONSTANTS.fetchRetryMaxMs);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        staleTime: CONSTANTS.cacheStaleMs,
        gcTime: CONSTANTS.cacheGcMs,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/** Drops the cached data of both APIs: every query answer and every mutation record. */
export function clearApiCaches(client: QueryClient = queryClient): void {
  client.cancelQueries();
  client.getQueryCache().clear();
  client.getMutationCache().clear();
}
