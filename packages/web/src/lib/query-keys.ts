/**
 * Query keys, one factory for every resource. Everything read from the query API sits under
 * `['query', prefix]`, so a command invalidates exactly its resource's lists and record.
 */
export const keys = {
  all: ['query'] as const,
  resource: (prefix: string) => ['query', prefix] as const,
  lists: (prefix: string) => ['query', prefix, 'list'] as const,
  list: (prefix: string, params: unknown) => ['query', prefix, 'list', params] as const,
  detail: (prefix: string, id: number | string) => ['query', prefix, 'detail', String(id)] as const,
  lookup: (prefix: string, ids: readonly number[]) => ['query', prefix, 'lookup', [...ids].sort()] as const,
  options: (prefix: string, search: string) => ['query', prefix, 'options', search] as const,
  me: () => ['query', 'auth', 'me'] as const,
};
