import { CONSTANTS } from '../constants.ts';
import { field } from '../fields.ts';
import { formulaRule } from '../formula.ts';
import { defineResource } from '../resource.ts';

export const INSTALLATION_STATUSES = ['planned', 'installed', 'commissioned', 'faulty', 'removed'] as const;
export const DATA_TYPES = ['bool', 'uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'float32'] as const;
export const ALERT_LEVELS = ['low', 'medium', 'high'] as const;

export const deviceTopologyTypes = defineResource({
  name: 'device-topology-types',
  route: 'assets-devices/device-topology-types',
  scope: 'global',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    description: field.longText({ list: true }),
  },
});

export const deviceTypeProtocols = defineResource({
  name: 'device-type-protocols',
  route: 'assets-devices/device-type-protocols',
  scope: 'global',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    description: field.longText({ list: true }),
  },
});

export const deviceTypes = defineResource({
  name: 'devices-types',
  route: 'assets-devices/devices-types',
  scope: 'global',
  display: 'typeNameEn',
  defaultSort: 'typeNameEn,asc',
  fields: {
    typeNameEn: field.text({ required: true, list: true, search: true }),
    typeNameTr: field.text({ required: true, list: true, search: true }),
    typeNameEs: field.text({ search: true }),
    typeNameAr: field.text({ search: true }),
    typeNameFr: field.text({ search: true }),
    iotType: field.enum(['IOT', 'NON-IOT'], { required: true, list: true }),
    deviceTopologyTypeId: field.ref('device-topology-types', { list: true }),
  },
});

export const deviceModels = defineResource({
  name: 'device-models',
  route: 'assets-devices/device-models',
  scope: 'global',
  display: 'modelName',
  defaultSort: 'modelName,asc',
  fields: {
    modelName: field.text({ required: true, list: true, search: true }),
    picture: field.image(),
    deviceTypeId: field.ref('devices-types', { required: true, list: true }),
    deviceTypeModelId: field.ref('device-models'),
    deviceTypeProtocolId: field.ref('device-type-protocols', { required: true, list: true }),
    supportTask: field.boolean({ list: true }),
    remark: field.text(),
    detail: field.longText(),
    parameterGroupCode: field.text({ required: true, list: true }),
    classType: field.enum(['A', 'B', 'C'], { list: true, codes: true }),
    /** The luminaire this controller usually drives, in watts: the energy baseline when a device states none. */
    ratedPower: field.number({ min: 0, max: 100_000 }),
    nominalVoltage: field.number({ min: 0, max: 1_000 }),
  },
});

export const devices = defineResource({
  name: 'devices',
  route: 'assets-devices/devices',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    deviceTypeModelId: field.ref('device-models', { required: true, list: true }),
    regionId: field.ref('regions', { list: true }),
    /** This luminaire's rated power in watts (else its model's): the energy baseline. */
    ratedPower: field.number({ min: 0, max: 100_000 }),
    code: field.text({ search: true }),
    uid: field.text({ search: true, format: 'deviceUid', maxLength: 64 }),
    serialNumber: field.text({ search: true }),
    mac: field.text(),
    address: field.text({ search: true }),
    street: field.text({ list: true, search: true }),
    latitude: field.number({ min: -90, max: 90 }),
    longitude: field.number({ min: -180, max: 180 }),
    imsi: field.text(),
    imei: field.text(),
    iccid: field.text(),
    devEui: field.text({ list: true, search: true, format: 'eui64', maxLength: 32 }),
    status: field.enum(INSTALLATION_STATUSES, { list: true }),
    notes: field.longText(),
    isActive: field.boolean({ list: true }),
    portNumber: field.integer({ min: 0, max: 65535 }),
    applicationId: field.text(),
    applicationName: field.text(),
    location: field.text(),
    side: field.text(),
    confirmed: field.boolean(),
    connectionAttemptNumber: field.integer({ min: 0, max: 100 }),
    sleepTime: field.integer({ min: CONSTANTS.deviceSleepMinutes.min, max: CONSTANTS.deviceSleepMinutes.max }),
    hasSubChannel: field.boolean(),
  },
});

export const deviceTopology = defineResource({
  name: 'device-topology',
  route: 'assets-devices/device-topology',
  scope: 'account',
  display: 'description',
  fields: {
    topologyId: field.ref('device-topology-types', { required: true, list: true }),
    parentDeviceId: field.ref('devices', { required: true, list: true }),
    childDeviceId: field.ref('devices', { required: true, list: true }),
    description: field.text({ list: true, search: true }),
  },
});

export const deviceConnectionStatus = defineResource({
  name: 'device-connection-status',
  route: 'assets-devices/device-connection-status',
  scope: 'account',
  display: 'deviceId',
  defaultSort: 'dateTime,desc',
  readOnly: true,
  fields: {
    deviceId: field.ref('devices', { list: true }),
    status: field.enum(['online', 'offline'], { list: true }),
    dateTime: field.datetime({ list: true }),
    rssi: field.number({ list: true }),
    snr: field.number({ list: true }),
    batteryLevel: field.number({ list: true }),
    externalPower: field.boolean({ list: true }),
    linkMargin: field.number({ list: true }),
    healthAt: field.datetime(),
    gatewayEui: field.text({ list: true }),
  },
});

export const deviceNodeLossSettings = defineResource({
  name: 'device-node-loss-settings',
  route: 'assets-devices/device-node-loss-settings',
  scope: 'account',
  display: 'deviceId',
  fields: {
    deviceId: field.ref('devices', { required: true, list: true }),
    alertLevel: field.enum(ALERT_LEVELS, { required: true, list: true }),
    isActive: field.boolean({ list: true }),
    alarmDuration: field.integer({ min: 0, max: 10080 }),
    alarmCount: field.integer({ min: 0, max: 1000 }),
    isForever: field.boolean({ list: true }),
    heartbeatThreshold: field.integer({ required: true, min: 1, max: 1440, list: true }),
    heartbeatCycle: field.integer({ min: 1, max: 1440 }),
    notifySms: field.boolean(),
    notifyEmail: field.boolean(),
    notifyPush: field.boolean(),
    period: field.integer({ min: 1, max: 1440 }),
  },
});

export const channelValueTypes = defineResource({
  name: 'channel-value-types',
  route: 'device-channels/channel-value-types',
  scope: 'global',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    description: field.longText({ list: true }),
  },
});

/** How a channel is read from a payload and written back (DEVICES.md). */
const templateFields = () => ({
  name: field.text({ required: true, list: true, search: true }),
  deviceTypeModelId: field.ref('device-models', { required: true, list: true }),
  channelValueTypeId: field.ref('channel-value-types'),
  channelType: field.enum(['read', 'write', 'readwrite'], { required: true, list: true }),
  channelOrder: field.integer({ required: true, min: 0, max: 1000, list: true }),
  channelCode: field.text({ required: true, list: true, search: true }),
  address: field.text(),
  unit: field.text({ required: true, list: true, maxLength: 32 }),
  dataType: field.enum(DATA_TYPES, { required: true, list: true, codes: true }),
  description: field.text({ required: true }),
  alertParameterCode: field.text({ required: true }),
  mqttPackageOrder: field.integer({ required: true, min: 0, max: 1000 }),
  dataLimitMax: field.number({ required: true }),
  dataLimitMin: field.number({ required: true }),
  dataByteLength: field.integer({ required: true, min: 0, max: 8 }),
  dataBitLength: field.integer({ min: 1, max: 32 }),
  dataLabel: field.text({ required: true, list: true }),
  variables: field.text({ required: true }),
  formula: field.text({ required: true }),
  channelPackageOrder: field.integer({ min: 0, max: 1000 }),
});

export const deviceChannelTemplates = defineResource({
  name: 'device-channel-templates',
  route: 'device-channels/device-channel-templates',
  scope: 'global',
  display: 'name',
  defaultSort: 'channelOrder,asc',
  fields: templateFields(),
  rules: [formulaRule],
});

export const subDeviceChannelTemplates = defineResource({
  name: 'sub-device-channel-templates',
  route: 'device-channels/sub-device-channel-templates',
  scope: 'global',
  display: 'name',
  defaultSort: 'channelOrder,asc',
  fields: { ...templateFields(), parentTemplateId: field.ref('device-channel-templates', { list: true }) },
  rules: [formulaRule],
});

/** Latest value per device channel, for the live screens. */
export const channelValues = defineResource({
  name: 'channel-values',
  route: 'assets-devices/channel-values',
  scope: 'account',
  display: 'id',
  defaultSort: 'dateTime,desc',
  readOnly: true,
  fields: {
    deviceId: field.ref('devices', { list: true }),
    deviceChannelTemplateId: field.ref('device-channel-templates', { list: true }),
    subChannel: field.integer({ list: true }),
    value: field.number({ list: true }),
    dateTime: field.datetime({ list: true }),
    status: field.enum(['ok', 'out_of_range'], { list: true }),
  },
});

/** Every reading, in a table partitioned by time. */
export const channelReadValues = defineResource({
  name: 'channel-read-values',
  route: 'assets-devices/channel-read-values',
  scope: 'account',
  display: 'id',
  defaultSort: 'dateTime,desc',
  readOnly: true,
  timeWindow: 'dateTime',
  fields: {
    deviceId: field.ref('devices', { list: true }),
    deviceChannelTemplateId: field.ref('device-channel-templates', { list: true }),
    subChannel: field.integer({ list: true }),
    value: field.number({ list: true }),
    dateTime: field.datetime({ list: true }),
    status: field.enum(['ok', 'out_of_range'], { list: true }),
    operationSource: field.text({ list: true }),
    controlTime: field.datetime(),
  },
});

export const channelWriteValues = defineResource({
  name: 'channel-write-values',
  route: 'assets-devices/channel-write-values',
  scope: 'account',
  display: 'id',
  fields: {
    deviceId: field.ref('devices', { required: true, list: true }),
    deviceChannelTemplateId: field.ref('device-channel-templates', { required: true, list: true }),
    value: field.number({ required: true, list: true }),
    status: field.enum(['pending', 'sent', 'acknowledged', 'failed'], { readOnly: true, list: true }),
    message: field.text({ readOnly: true, list: true }),
    sentAt: field.datetime({ readOnly: true }),
    answeredAt: field.datetime({ readOnly: true, list: true }),
    operationSource: field.text({ readOnly: true }),
    attempts: field.integer({ readOnly: true }),
  },
});
