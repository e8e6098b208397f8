import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { at, recordColumns, refColumn } from './columns.ts';
import { resourceTable } from './resource-table.ts';
import { accountColumn, regions } from './system.ts';

export const deviceTopologyTypes = resourceTable(
  'device-topology-types',
  pgTable('device_topology_types', {
    ...recordColumns(),
    name: text().notNull().unique(),
    description: text(),
  }),
);

export const deviceTypeProtocols = resourceTable(
  'device-type-protocols',
  pgTable('device_type_protocols', {
    ...recordColumns(),
    name: text().notNull().unique(),
    description: text(),
  }),
);

export const deviceTypes = resourceTable(
  'devices-types',
  pgTable('device_types', {
    ...recordColumns(),
    typeNameEn: text().notNull(),
    typeNameTr: text().notNull(),
    typeNameEs: text(),
    typeNameAr: text(),
    typeNameFr: text(),
    iotType: text().notNull(),
    deviceTopologyTypeId: refColumn().references(() => deviceTopologyTypes.id),
  }),
);

export const deviceModels = resourceTable(
  'device-models',
  pgTable('device_models', {
    ...recordColumns(),
    modelName: text().notNull(),
    picture: text(),
    deviceTypeId: refColumn()
      .notNull()
      .references(() => deviceTypes.id),
    deviceTypeModelId: bigint({ mode: 'number' }),
    deviceTypeProtocolId: refColumn()
      .notNull()
      .references(() => deviceTypeProtocols.id),
    supportTask: boolean().notNull().default(false),
    remark: text(),
    detail: text(),
    parameterGroupCode: text().notNull(),
    classType: text(),
    ratedPower: doublePrecision(),
    /** The supply voltage its luminaires expect (V); 230 when not stated (fault detection). */
    nominalVoltage: doublePrecision(),
  }),
);

export const devices = resourceTable(
  'devices',
  pgTable(
    'devices',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      name: text().notNull(),
      deviceTypeModelId: refColumn()
        .notNull()
        .references(() => deviceModels.id),
      regionId: refColumn().references(() => regions.id),
      ratedPower: doublePrecision(),
      code: text(),
      uid: text(),
      serialNumber: text(),
      mac: text(),
      address: text(),
      street: text(),
      latitude: doublePrecision(),
      longitude: doublePrecision(),
      imsi: text(),
      imei: text(),
      iccid: text(),
      devEui: text(),
      status: text(),
      notes: text(),
      isActive: boolean().notNull().default(true),
      portNumber: integer(),
      applicationId: text(),
      applicationName: text(),
      location: text(),
      side: text(),
      confirmed: boolean().notNull().default(false),
      connectionAttemptNumber: integer(),
      sleepTime: integer(),
      hasSubChannel: boolean().notNull().default(false),
      /** An IP device's broker password (its username is its uid), sealed with the app's SecretBox. */
      mqttPasswordEncrypted: text(),
    },
    (t) => [
      index().on(t.accountId, t.name),
      index().on(t.accountId, t.regionId, t.name),
      // A device is found by its LoRaWAN DevEUI or its IP uid when its uplinks arrive. DevEUIs are
      // stored in one form (16 lowercase hex digits), so the unique index holds whatever was typed.
      uniqueIndex().on(t.devEui),
      uniqueIndex().on(t.uid),
      check('devices_dev_eui_format', sql`${t.devEui} ~ '^[0-9a-f]{16}$'`),
    ],
  ),
);

export const deviceTopology = resourceTable(
  'device-topology',
  pgTable(
    'device_topology',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      topologyId: refColumn()
        .notNull()
        .references(() => deviceTopologyTypes.id),
      parentDeviceId: refColumn()
        .notNull()
        .references(() => devices.id),
      childDeviceId: refColumn()
        .notNull()
        .references(() => devices.id),
      description: text(),
    },
    (t) => [index().on(t.accountId, t.topologyId), uniqueIndex().on(t.topologyId, t.childDeviceId)],
  ),
);

export const deviceConnectionStatus = resourceTable(
  'device-connection-status',
  pgTable(
    'device_connection_status',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id, { onDelete: 'cascade' }),
      status: text().notNull(),
      dateTime: at().notNull(),
      rssi: doublePrecision(),
      snr: doublePrecision(),
      // The network server's device status (ChirpStack `event/status`) and the gateway heard best.
      batteryLevel: doublePrecision(),
      externalPower: boolean(),
      linkMargin: doublePrecision(),
      healthAt: at(),
      gatewayEui: text(),
      /** Every gateway that heard its newest frame (a luminaire heard by one only is lost with it). */
      gatewayEuis: text().array(),
    },
    (t) => [uniqueIndex().on(t.deviceId), index().on(t.accountId, t.status)],
  ),
);

export const deviceNodeLossSettings = resourceTable(
  'device-node-loss-settings',
  pgTable(
    'device_node_loss_settings',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id),
      alertLevel: text().notNull(),
      isActive: boolean().notNull().default(true),
      alarmDuration: integer(),
      alarmCount: integer(),
      isForever: boolean().notNull().default(true),
      heartbeatThreshold: integer().notNull(),
      heartbeatCycle: integer(),
      notifySms: boolean().notNull().default(false),
      notifyEmail: boolean().notNull().default(false),
      notifyPush: boolean().notNull().default(false),
      period: integer(),
    },
    (t) => [index().on(t.accountId, t.deviceId)],
  ),
);

export const channelValueTypes = resourceTable(
  'channel-value-types',
  pgTable('channel_value_types', {
    ...recordColumns(),
    name: text().notNull().unique(),
    description: text(),
  }),
);

const templateColumns = () => ({
  ...recordColumns(),
  name: text().notNull(),
  deviceTypeModelId: refColumn()
    .notNull()
    .references(() => deviceModels.id),
  channelValueTypeId: refColumn().references(() => channelValueTypes.id),
  channelType: text().notNull(),
  channelOrder: integer().notNull(),
  channelCode: text().notNull(),
  address: text(),
  unit: text().notNull(),
  dataType: text().notNull(),
  description: text().notNull(),
  alertParameterCode: text().notNull(),
  mqttPackageOrder: integer().notNull(),
  dataLimitMax: doublePrecision().notNull(),
  dataLimitMin: doublePrecision().notNull(),
  dataByteLength: integer().notNull(),
  dataBitLength: integer(),
  dataLabel: text().notNull(),
  variables: text().notNull(),
  formula: text().notNull(),
  channelPackageOrder: integer(),
});

export const deviceChannelTemplates = resourceTable(
  'device-channel-templates',
  pgTable('device_channel_templates', templateColumns(), (t) => [index().on(t.deviceTypeModelId, t.mqttPackageOrder)]),
);

export const subDeviceChannelTemplates = resourceTable(
  'sub-device-channel-templates',
  pgTable(
    'sub_device_channel_templates',
    { ...templateColumns(), parentTemplateId: refColumn().references(() => deviceChannelTemplates.id) },
    (t) => [index().on(t.deviceTypeModelId, t.channelPackageOrder)],
  ),
);

/** The newest reading of each device channel, kept small for the live screens. */
export const channelValues = resourceTable(
  'channel-values',
  pgTable(
    'channel_values',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id, { onDelete: 'cascade' }),
      deviceChannelTemplateId: refColumn()
        .notNull()
        .references(() => deviceChannelTemplates.id, { onDelete: 'cascade' }),
      /** 0 for the channel itself; a sub-device channel's package order inside its parent's package. */
      subChannel: integer().notNull().default(0),
      value: doublePrecision().notNull(),
      dateTime: at().notNull(),
      status: text().notNull(),
    },
    // No index holds the value or its time, so the ingest's many updates stay heap-only (HOT).
    (t) => [uniqueIndex().on(t.deviceId, t.deviceChannelTemplateId, t.subChannel), index().on(t.accountId)],
  ),
);

/**
 * Every reading. Range-partitioned by `date_time` in the migration (drizzle-kit cannot say so);
 * its key includes the time, as a partitioned table's must. `frame_key` (frame counter or time of
 * the uplink) makes a reading delivered twice land once.
 */
export const channelReadValues = resourceTable(
  'channel-read-values',
  pgTable(
    'channel_read_values',
    {
      id: bigint({ mode: 'number' }).generatedAlwaysAsIdentity(),
      createdAt: at().notNull().defaultNow(),
      updatedAt: at().notNull().defaultNow(),
      accountId: refColumn().notNull(),
      deviceId: refColumn().notNull(),
      deviceChannelTemplateId: refColumn().notNull(),
      /** 0 for the channel itself; a sub-device channel's package order inside its parent's package. */
      subChannel: integer().notNull().default(0),
      value: doublePrecision().notNull(),
      dateTime: at().notNull(),
      status: text().notNull(),
      operationSource: text(),
      controlTime: at(),
      frameKey: text().notNull(),
    },
    (t) => [
      primaryKey({ columns: [t.id, t.dateTime] }),
      // Identity of a reading, and the path of a channel's readings over time (graphs, pairing).
      uniqueIndex().on(t.deviceId, t.deviceChannelTemplateId, t.subChannel, t.dateTime, t.frameKey),
      // An account's readings newest first (the list screen); new readings append at its end.
      index().on(t.accountId, t.dateTime),
    ],
  ),
);

export const channelWriteValues = resourceTable(
  'channel-write-values',
  pgTable(
    'channel_write_values',
    {
      ...recordColumns(),
      accountId: accountColumn(),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id),
      deviceChannelTemplateId: refColumn()
        .notNull()
        .references(() => deviceChannelTemplates.id),
      value: doublePrecision().notNull(),
      status: text().notNull().default('pending'),
      message: text(),
      sentAt: at(),
      answeredAt: at(),
      operationSource: text(),
      /** The command's id on the wire: random, so an answer cannot be forged by guessing it. */
      downlinkId: text(),
      /** Sent as a confirmed downlink (settled by the device's ack) or not (settled by the gateway's txack). */
      confirmed: boolean(),
      /** How many times it was sent; a timed-out write is sent again up to the device's ConnectionAttemptNumber. */
      attempts: integer().notNull().default(0),
    },
    (t) => [index().on(t.accountId, t.createdAt), index().on(t.status), uniqueIndex().on(t.downlinkId)],
  ),
);
