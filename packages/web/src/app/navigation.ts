/** Screens written by hand, for routes that are more than one entity's list. */
export type ScreenName =
  | 'dashboard'
  | 'device-details'
  | 'live-control'
  | 'graphic'
  | 'channel-average'
  | 'average-overview'
  | 'map'
  | 'platform';

/** One screen of SPEC §2: its path under the layout and the translation key of its label. */
export interface MenuEntry {
  path: string;
  /** Key in the console namespace. */
  label: string;
  /** Catalogue resource shown on this path when its route is not the resource's own. */
  resource?: string;
  /** A fixed filter of that resource's list on this path (real-time alarms: the active ones). */
  filter?: Record<string, string | number | boolean>;
  /** A dedicated screen instead of the generic one. */
  screen?: ScreenName;
  /** Registered as a route but kept out of the menu (a second path to the same screen). */
  hidden?: boolean;
  /** Query string of an action entry that opens a screen in a given mode. */
  search?: string;
  /** Shown in the menu to platform operators only (the server refuses everyone else anyway). */
  operatorsOnly?: boolean;
}

export interface MenuGroup {
  key: string;
  label: string;
  entries: MenuEntry[];
}

export function entry(group: string, slug: string, extra: Partial<MenuEntry> = {}): MenuEntry {
  return { path: `${group}/${slug}`, label: `menu.${group}.${slug}`, ...extra };
}
