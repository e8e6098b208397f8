import type { ComponentType, LazyExoticComponent } from 'react';

/** A page module written by hand, loaded when its route is first opened. */
export type Page = LazyExoticComponent<ComponentType>;

/** One screen of SPEC §2: its path under the layout and the translation key(s) of its label. */
export interface MenuEntry {
  path: string;
  /** Translation key of the label, or keys tried in turn (an entity's `menu`, then its `title`). */
  label: string | string[];
  /** Catalogue resource shown on this path: the entity of a plain route, or the one an alias shows. */
  resource?: string;
  /** A fixed filter of that resource's list on this path (real-time alarms: the active ones). */
  filter?: Record<string, string | number | boolean>;
  /** A page written by hand instead of the generic resource screen. */
  page?: Page;
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

/** A hand-written entry of a group: `slug` under the group's path, labelled `menu.<group>.<slug>`. */
export function entry(group: string, slug: string, extra: Partial<MenuEntry> = {}): MenuEntry {
  return { path: `${group}/${slug}`, label: `menu.${group}.${slug}`, ...extra };
}
