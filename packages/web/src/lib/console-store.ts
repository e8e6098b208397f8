import type { Condition } from '@lampyr/contract';
import { CONSTANTS } from '@lampyr/contract';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { FilterObject } from './resource-api.ts';

/** SPEC §9's table parameters, kept per table prefix. */
export interface TableParams {
  page: number;
  size: number;
  sort: string[];
  filters: FilterObject | null;
  detailFilter: Condition[] | null;
  selectedColumns: Record<string, boolean> | null;
}

export interface SelectOption {
  value: number;
  label: string;
}

/** What this browser does when an alarm or a console notification arrives (the operator's choice). */
export interface AlertPrefs {
  /** A short sound and a desktop notification for a raised HIGH alarm. */
  desktop: boolean;
  /** Web Push to this browser, even with the console closed. */
  push: boolean;
  /** A chime or spoken text for an `audio` notification. */
  audio: boolean;
}

export interface ConsoleState {
  tableParams: Record<string, TableParams>;
  formValues: Record<string, Record<string, unknown>>;
  alertPrefs: AlertPrefs;
  setAlertPrefs: (patch: Partial<AlertPrefs>) => void;
  setTableParams: (prefix: string, patch: Partial<TableParams>) => void;
  resetTableParams: (prefix: string) => void;
  setFormValues: (formKey: string, values: Record<string, unknown>) => void;
  clearFormValues: (formKey: string) => void;
}

export function defaultTableParams(): TableParams {
  const d = CONSTANTS.defaultTableParams;
  return { page: d.page, size: d.size, sort: [...d.sort], filters: null, detailFilter: null, selectedColumns: null };
}

/** The localStorage key of the persisted store: `persist:` plus the product prefix. */
export const PERSIST_KEY = CONSTANTS.persistPrefix;

export const useConsoleStore = create<ConsoleState>()(
  persist(
    (set) => ({
      tableParams: {},
      formValues: {},
      alertPrefs: { desktop: false, push: false, audio: false },
      setAlertPrefs: (patch) => set((state) => ({ alertPrefs: { ...state.alertPrefs, ...patch } })),
      setTableParams: (prefix, patch) =>
        set((state) => ({
          tableParams: { ...state.tableParams, [prefix]: { ...tableParamsOf(state, prefix), ...patch } },
        })),
      resetTableParams: (prefix) =>
        set((state) => ({ tableParams: { ...state.tableParams, [prefix]: defaultTableParams() } })),
      setFormValues: (formKey, values) => set((state) => ({ formValues: { ...state.formValues, [formKey]: values } })),
      clearFormValues: (formKey) =>
        set((state) => {
          const { [formKey]: _dropped, ...rest } = state.formValues;
          return { formValues: rest };
        }),
    }),
    {
      name: PERSIST_KEY,
      version: 1,
      storage: createJSONStorage(() => window.localStorage),
      // SPEC §1: table parameters and form values are persisted; so is the operator's alert opt-in,
      // which the browser's own permission alone cannot say (it may allow and the operator mute).
      partialize: (state) => ({
        tableParams: state.tableParams,
        formValues: state.formValues,
        alertPrefs: state.alertPrefs,
      }),
      skipHydration: true,
    },
  ),
);

export function tableParamsOf(state: Pick<ConsoleState, 'tableParams'>, prefix: string): TableParams {
  return state.tableParams[prefix] ?? defaultTableParams();
}

/** SPEC §4: not started, then registered, then rehydrated. */
export type PersistStatus = 'idle' | 'registered' | 'rehydrated';

export interface PersistGate {
  status: PersistStatus;
  /** Set when restoring gave up after the timeout. */
  timedOut: boolean;
}

export const usePersistGate = create<PersistGate>(() => ({ status: 'idle', timedOut: false }));

/**
 * Restores the persisted parts. Loading lifts once they are restored; if restoring hangs, after
 * `timeoutMs` the console goes on with defaults and says which key it gave up on.
 */
export async function restorePersistedState(
  timeoutMs: number = CONSTANTS.persistTimeoutMs,
  rehydrate: () => Promise<void> | void = () => useConsoleStore.persist.rehydrate(),
): Promise<PersistGate> {
  usePersistGate.setState({ status: 'registered', timedOut: false });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const restored = Promise.resolve()
    .then(rehydrate)
    .then(
      () => 'done' as const,
      () => 'done' as const,
    );
  const outcome = await Promise.race([restored, timeout]);
  clearTimeout(timer);
  usePersistGate.setState({ status: 'rehydrated', timedOut: outcome === 'timeout' });
  return usePersistGate.getState();
}
