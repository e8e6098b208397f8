import { boolean, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { devices } from './assets.ts';
import { at, refColumn } from './columns.ts';
import { resourceTable } from './resource-table.ts';
import { scopedColumns as scoped } from './system.ts';

// ─── gateways ─────────────────────────────────────────────────────────────────

export const gateways = resourceTable(
  'gateway',
  pgTable(
    'gateways',
    {
      ...scoped(),
      name: text().notNull(),
      description: text(),
      devEui: text().notNull().unique(),
      gatewayCode: text(),
      metadata: jsonb(),
      statsInterval: integer(),
      latitude: doublePrecision(),
      longitude: doublePrecision(),
      status: text(),
      lastSeenAt: at(),
      message: text(),
      // The newest ChirpStack gateway stats (`event/stats`): when, and its counters of that interval.
      statsAt: at(),
      rxPacketsReceived: integer(),
      rxPacketsReceivedOk: integer(),
      txPacketsReceived: integer(),
      txPacketsEmitted: integer(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const gatewayDeviceProfiles = resourceTable(
  'gatewaydeviceprofile',
  pgTable(
    'gateway_device_profiles',
    {
      ...scoped(),
      name: text().notNull(),
      region: text().notNull(),
      macVersion: text().notNull(),
      regParamsRevision: text().notNull(),
      supportsOtaa: boolean().notNull().default(true),
      supportsClassB: boolean().notNull().default(false),
      supportsClassC: boolean().notNull().default(false),
      adrAlgorithmId: text().notNull(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const gatewayApplications = resourceTable(
  'gatewayapplication',
  pgTable(
    'gateway_applications',
    { ...scoped(), name: text().notNull(), description: text(), chirpstackApplicationId: text().unique() },
    (t) => [index().on(t.accountId)],
  ),
);

export const gatewayDevicePairing = resourceTable(
  'gatewaydevicepairing',
  pgTable(
    'gateway_device_pairing',
    {
      ...scoped(),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id),
      applicationId: refColumn()
        .notNull()
        .references(() => gatewayApplications.id),
      profileId: refColumn()
        .notNull()
        .references(() => gatewayDeviceProfiles.id),
      nwkKeyEncrypted: text(),
      appKeyEncrypted: text(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const multicastGroups = resourceTable(
  'gatewaymulticastgroup',
  pgTable(
    'multicast_groups',
    {
      ...scoped(),
      name: text().notNull(),
      applicationId: refColumn().references(() => gatewayApplications.id),
      multicastAddress: text().notNull(),
      mcNwkSKeyEncrypted: text(),
      mcAppSKeyEncrypted: text(),
      dataRate: integer(),
      frequency: integer(),
      groupType: text().notNull(),
      classBPingSlotPeriodicity: integer(),
      classCSchedulingType: text(),
    },
    (t) => [index().on(t.accountId)],
  ),
);
