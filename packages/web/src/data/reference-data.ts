import { CONSTANTS, findResource, type ResourceDef } from '@lampyr/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import type { SelectOption } from '../lib/console-store.ts';
import { keys } from '../lib/query-keys.ts';
import { listRecords, type Row } from '../lib/resource-api.ts';
import { needsAccount } from './resource-list.ts';

/** How many options a reference select loads at once; larger sets are searched on the server. */
export const OPTIONS_PAGE = 1000;

export function displayOf(prefix: string): string {
  return findResource(prefix)?.display ?? 'name';
}

export function recordLabel(prefix: string, record: Row): string {
  const value = record[displayOf(prefix)];
  return value === undefined || value === null || value === '' ? `#${record.id}` : String(value);
}

async function loadOptions(prefix: string, search: string, signal: AbortSignal, narrow?: Record<string, number>) {
  const display = displayOf(prefix);
  const filter = { ...(search ? { q: search } : {}), ...(narrow ?? {}) };
  const page = await listRecords<Row>(
    prefix,
    {
      filter: Object.keys(filter).length ? filter : null,
      detailFilter: [],
      selectedColumns: { [display]: true },
      pageable: { page: 1, size: OPTIONS_PAGE, sort: display === 'id' ? [] : [`${display},asc`] },
    },
    { signal, skipAccountFilter: !needsAccount(findResource(prefix)) },
  );
  return {
    options: page.content.map((r): SelectOption => ({ value: r.id, label: recordLabel(prefix, r) })),
    complete: page.totalElements <= page.content.length,
  };
}

/**
 * The options of a reference select (SPEC §9): the full list of a prefix is held in the query cache
 * under `keys.options` with the time it was fetched, reused while fresh and dropped by any command
 * on the prefix (it sits under the prefix's key); a typed search goes to the server when the list
 * is partial.
 */
export function useReferenceOptions(prefix: string, search = '', narrow?: Record<string, number>) {
  // Narrowed options (a country's states) sit beside the full list, under the same prefix key.
  const optionsKey = (text: string) => (narrow ? [...keys.options(prefix, text), narrow] : keys.options(prefix, text));
  const all = useQuery({
    queryKey: optionsKey(''),
    queryFn: ({ signal }) => loadOptions(prefix, '', signal, narrow),
    staleTime: CONSTANTS.cacheStaleMs,
  });
  const remote = search.trim() !== '' && all.data?.complete === false;
  const searched = useQuery({
    queryKey: optionsKey(search.trim()),
    queryFn: ({ signal }) => loadOptions(prefix, search.trim(), signal, narrow),
    enabled: remote,
  });
  return {
    options: (remote ? searched.data?.options : all.data?.options) ?? [],
    loading: all.isFetching || (remote && searched.isFetching),
    error: all.error ?? searched.error,
    remoteSearch: remote,
  };
}

/** The read of some records' names by id (a page's references, chosen options not loaded). */
function lookupQuery(prefix: string, ids: number[]) {
  const display = displayOf(prefix);
  return {
    queryKey: keys.lookup(prefix, ids),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      listRecords<Row>(
        prefix,
        {
          filter: { id: ids },
          detailFilter: [],
          selectedColumns: { [display]: true },
          pageable: { page: 1, size: Math.min(ids.length, OPTIONS_PAGE), sort: [] },
        },
        { signal, skipAccountFilter: !needsAccount(findResource(prefix)) },
      ),
  };
}

/** The names of the records a page of rows references, per referenced prefix. */
export function useReferenceNames(resource: ResourceDef, rows: readonly Row[], fields: readonly string[]) {
  const wanted = new Map<string, Set<number>>();
  for (const name of fields) {
    const def = resource.fields[name];
    if (def?.kind !== 'reference' || !def.ref) continue;
    const ids = wanted.get(def.ref) ?? new Set<number>();
    for (const row of rows) {
      const id = row[name];
      if (typeof id === 'number') ids.add(id);
    }
    wanted.set(def.ref, ids);
  }
  const entries = [...wanted.entries()].filter(([, ids]) => ids.size > 0);
  const results = useQueries({
    queries: entries.map(([prefix, idSet]) =>
      lookupQuery(
        prefix,
        [...idSet].sort((a, b) => a - b),
      ),
    ),
  });
  const names = new Map<string, Map<number, string>>();
  entries.forEach(([prefix], index) => {
    const map = new Map<number, string>();
    for (const record of results[index]?.data?.content ?? []) map.set(record.id, recordLabel(prefix, record));
    names.set(prefix, map);
  });
  return names;
}

/**
 * Options for chosen records that the loaded options lack (a list larger than one page): their
 * names are read by id, so a select never shows a bare id for a chosen record.
 */
export function useChosenOptions(prefix: string, chosen: readonly number[], options: SelectOption[]): SelectOption[] {
  const known = new Set(options.map((o) => o.value));
  const missing = chosen.filter((id) => !known.has(id)).sort((a, b) => a - b);
  const lookup = useQuery({ ...lookupQuery(prefix, missing), enabled: missing.length > 0 });
  const extra = (lookup.data?.content ?? [])
    .filter((r) => !known.has(r.id))
    .map((r): SelectOption => ({ value: r.id, label: recordLabel(prefix, r) }));
  return extra.length ? [...options, ...extra] : options;
}
