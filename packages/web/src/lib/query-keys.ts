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
  /** One screen's aggregate of a resource (a chart, an overview), by its query. */
  aggregate: (prefix: string, screen: string, query: unknown) => ['query', prefix, 'aggregate', screen, query] as const,
  /** A screen's own read of a resource outside the list pages (the map's devices and their status). */
  view: (prefix: string, screen: string) => ['query', prefix, screen] as const,
  /** The dashboard's summary, per device type filter, or all of them. */
  dashboardSummary: (deviceTypeId?: number | null) =>
    deviceTypeId === undefined
      ? (['query', 'dashboard-summary'] as const)
      : (['query', 'dashboard-summary', deviceTypeId] as const),
  /** A report computed by the server (`reports/<name>`), by its request. */
  report: (name: string, request: unknown) => ['query', 'reports', name, request] as const,
  /** The account's saved report templates. */
  reportTemplates: () => ['query', 'report-templates'] as const,
  /** The platform operators' screen's reads (the account tree, the operators). */
  platform: (part: 'accounts' | 'users') => ['query', 'platform', part] as const,
  me: () => ['query', 'auth', 'me'] as const,
};
