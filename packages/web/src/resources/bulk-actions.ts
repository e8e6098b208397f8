/**
 * What can be done to several records of a resource at once, offered on its list when rows are
 * selected: the devices' four configuration actions (SPEC "device actions"), each opening its
 * screen with the selection, where it is confirmed and followed per device. Written by hand, like
 * record-links.ts: these are behaviours, not entities.
 */
export interface BulkAction {
  /** Translation key of the action's label. */
  label: string;
  to(ids: readonly number[]): string;
}

/** The menu's device action slugs, in the menu's order. */
export const DEVICE_ACTION_SLUGS = [
  'manual-config-request',
  'clear-device-data',
  'reset-device-config',
  'config-deploy',
] as const;

export const deviceActionPath = (slug: string, ids: readonly number[]) =>
  `/assets-devices/configuration?action=${slug}&deviceIds=${ids.join(',')}`;

export const BULK_ACTIONS: Partial<Record<string, BulkAction[]>> = {
  devices: DEVICE_ACTION_SLUGS.map((slug) => ({
    label: `menu.assets-devices.actions.${slug}`,
    to: (ids) => deviceActionPath(slug, ids),
  })),
};
