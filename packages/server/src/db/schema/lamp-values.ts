import { doublePrecision, pgTable } from 'drizzle-orm/pg-core';
import { devices } from './assets.ts';
import { at, refColumn } from './columns.ts';
import { accountColumn } from './system.ts';

/**
 * Each device's latest lamp, dim and power readings, one row per device, so the lamp state of a
 * whole city (map, dashboard: data/lamp-state.ts) joins one row per device instead of aggregating
 * `channel_values`. Kept by the database itself (triggers of migration 0022 on `channel_values` and
 * `device_channel_templates`), so every writer of latest values keeps it without knowing of it.
 * A column is the newest reading among the device's channels (sub-channel 0) with that channel
 * code, with its time; it is replaced only by a reading at least as new. (A device with two channels
 * of one code shows the newer one's value, not the larger one's.) No index beside the key: the
 * ingest's updates of these rows stay heap-only.
 */
export const deviceLampValues = pgTable('device_lamp_values', {
  deviceId: refColumn()
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  accountId: accountColumn(),
  lamp: doublePrecision(),
  lampAt: at(),
  dim: doublePrecision(),
  dimAt: at(),
  power: doublePrecision(),
  powerAt: at(),
});
