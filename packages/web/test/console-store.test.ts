import { describe, expect, it } from 'vitest';
import {
  defaultTableParams,
  PERSIST_KEY,
  restorePersistedState,
  useConsoleStore,
  usePersistGate,
} from '../src/lib/console-store.ts';

describe('persisted client store', () => {
  it('persists only table parameters, form values and the alert opt-in under persist:lampyr', async () => {
    await restorePersistedState();
    const store = useConsoleStore.getState();
    store.setTableParams('countries', { page: 3 });
    store.setFormValues('countries:create', { name: 'Gürcistan' });
    expect(PERSIST_KEY).toBe('persist:lampyr');
    const saved = JSON.parse(window.localStorage.getItem(PERSIST_KEY) ?? '{}');
    expect(Object.keys(saved.state).sort()).toEqual(['alertPrefs', 'formValues', 'tableParams']);
    expect(saved.state.tableParams.countries).toEqual({ ...defaultTableParams(), page: 3 });
  });

  it('defaults a table to page 1, size 10, empty sort and no filters or columns', () => {
    expect(defaultTableParams()).toEqual({
      page: 1,
      size: 10,
      sort: [],
      filters: null,
      detailFilter: null,
      selectedColumns: null,
    });
  });

  it('restores saved parameters, going from registered to rehydrated', async () => {
    window.localStorage.setItem(
      PERSIST_KEY,
      JSON.stringify({
        state: { tableParams: { cities: { ...defaultTableParams(), size: 50 } }, formValues: {} },
        version: 1,
      }),
    );
    const seen: string[] = [];
    const stop = usePersistGate.subscribe((s) => seen.push(s.status));
    await restorePersistedState();
    stop();
    expect(seen).toEqual(['registered', 'rehydrated']);
    expect(useConsoleStore.getState().tableParams.cities?.size).toBe(50);
    expect(usePersistGate.getState().timedOut).toBe(false);
  });

  it('gives up after the timeout and says so', async () => {
    const gate = await restorePersistedState(30, () => new Promise<void>(() => undefined));
    expect(gate).toEqual({ status: 'rehydrated', timedOut: true });
  });
});
