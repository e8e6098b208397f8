/** Business constants of SPEC §9. */
export const CONSTANTS = {
  menuTopologyList: { page: 1, size: 100 },
  subChannelPairingSearch: { page: 0, size: 100 },
  defaultTableParams: {
    page: 1,
    size: 10,
    sort: [] as string[],
    filters: null,
    detailFilter: null,
    selectedColumns: null,
  },
  fetchAll: { page: 0, size: 1000, sortDirection: 'DESC' as const },
  accountSwitchReloadMs: 500,
  sideMenu: { width: 300, collapsedLarge: 90, collapsedSmall: 0 },
  footerHeight: 44,
  accountLabelMaxWidth: 100,
  cacheStaleMs: 60_000,
  cacheGcMs: 5 * 60_000,
  fetchRetries: 3,
  fetchRetryBaseMs: 1000,
  fetchRetryMaxMs: 30_000,
  persistTimeoutMs: 5000,
  persistPrefix: 'persist:lampyr',
  defaultTheme: 'light' as const,
  defaultLanguage: 'en' as const,
  languages: ['en', 'tr'] as const,
  chartMaxDays: 15,
  /** Widest time range of a list, search or aggregate over readings and data logs. */
  timeWindowMaxDays: 31,
  /** The range the console's readings and data-log tables show until the person picks one. */
  timeWindowDefaultHours: 24,
  deviceSleepMinutes: { min: 1, max: 60 },
  translationRetries: { retries: 5, baseMs: 350, parallel: 10 },
  colors: { primary: '#2e9e4f', menuDark: '#141414', menuLight: '#16325c' },
} as const;

export type Language = (typeof CONSTANTS.languages)[number];
