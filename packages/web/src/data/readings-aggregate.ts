import { useQuery } from '@tanstack/react-query';
import { keys } from '../lib/query-keys.ts';

/**
 * One screen's aggregate of the readings (a chart, an overview), cached by its query; nothing is
 * asked until the person has asked for something (`query` set).
 */
export function useReadingsAggregate<Q, R>(
  screen: string,
  query: Q | undefined,
  run: (query: Q, signal: AbortSignal) => Promise<R>,
) {
  return useQuery({
    queryKey: keys.aggregate('channel-read-values', screen, query),
    queryFn: ({ signal }) => run(query as Q, signal),
    enabled: query !== undefined,
  });
}
