import { field } from '../fields.ts';
import { defineResource } from '../resource.ts';

/** ChirpStack's regions, MAC versions, regional-parameters revisions and ADR algorithms. */
export const LORAWAN_REGIONS = [
  'EU868',
  'US915',
  'AS923',
  'AU915',
  'CN470',
  'IN865',
  'KR920',
  'RU864',
  'EU433',
] as const;
export const MAC_VERSIONS = [
  'LORAWAN_1_0_0',
  'LORAWAN_1_0_1',
  'LORAWAN_1_0_2',
  'LORAWAN_1_0_3',
  'LORAWAN_1_0_4',
  'LORAWAN_1_1_0',
] as const;
export const REG_PARAMS_REVISIONS = ['A', 'B', 'RP002_1_0_0', 'RP002_1_0_1', 'RP002_1_0_2', 'RP002_1_0_3'] as const;
export const ADR_ALGORITHMS = ['default', 'lr_fhss', 'lora_lr_fhss'] as const;

export const gateways = defineResource({
  name: 'gateway',
  route: 'gatewaymanagement/gateway',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    description: field.longText(),
    devEui: field.text({ required: true, list: true, search: true, maxLength: 16 }),
    gatewayCode: field.text({ list: true, search: true }),
    metadata: field.json(),
    statsInterval: field.integer({ min: 1, max: 86400, list: true }),
    latitude: field.number({ min: -90, max: 90 }),
    longitude: field.number({ min: -180, max: 180 }),
    // Kept by Lampyr from the uplinks the gateway forwards (rxInfo) and its stats, never typed in.
    status: field.enum(['online', 'offline', 'never_seen'], { list: true, readOnly: true }),
    lastSeenAt: field.datetime({ list: true, readOnly: true }),
    message: field.text(),
    // The gateway's newest stats (ChirpStack `event/stats`): its counters over that stats interval.
    statsAt: field.datetime({ readOnly: true }),
    rxPacketsReceived: field.integer({ readOnly: true }),
    rxPacketsReceivedOk: field.integer({ readOnly: true }),
    txPacketsReceived: field.integer({ readOnly: true }),
    txPacketsEmitted: field.integer({ readOnly: true }),
  },
});

export const gatewayDeviceProfiles = defineResource({
  name: 'gatewaydeviceprofile',
  route: 'gatewaymanagement/gatewaydeviceprofile',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    region: field.enum(LORAWAN_REGIONS, { required: true, list: true, codes: true }),
    macVersion: field.enum(MAC_VERSIONS, { required: true, list: true, codes: true }),
    regParamsRevision: field.enum(REG_PARAMS_REVISIONS, { required: true, list: true, codes: true }),
    supportsOtaa: field.boolean({ list: true }),
    supportsClassB: field.boolean({ list: true }),
    supportsClassC: field.boolean({ list: true }),
    adrAlgorithmId: field.enum(ADR_ALGORITHMS, { required: true }),
  },
});

export const gatewayApplications = defineResource({
  name: 'gatewayapplication',
  route: 'gatewaymanagement/gatewayapplication',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    description: field.longText({ list: true }),
    chirpstackApplicationId: field.text({ list: true }),
  },
});

const HEX_KEY = { min: 32, maxLength: 32 };

export const gatewayDevicePairing = defineResource({
  name: 'gatewaydevicepairing',
  route: 'gatewaymanagement/gatewaydevicepairing',
  scope: 'account',
  display: 'id',
  fields: {
    deviceId: field.ref('devices', { required: true, list: true }),
    applicationId: field.ref('gatewayapplication', { required: true, list: true }),
    profileId: field.ref('gatewaydeviceprofile', { required: true, list: true }),
    nwkKey: field.secret('encrypt', HEX_KEY),
    appKey: field.secret('encrypt', HEX_KEY),
  },
});

export const multicastGroups = defineResource({
  name: 'gatewaymulticastgroup',
  route: 'gatewaymanagement/gatewaymulticastgroup',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    applicationId: field.ref('gatewayapplication', { list: true }),
    multicastAddress: field.text({ required: true, list: true, maxLength: 8 }),
    mcNwkSKey: field.secret('encrypt', HEX_KEY),
    mcAppSKey: field.secret('encrypt', HEX_KEY),
    dataRate: field.integer({ min: 0, max: 15, list: true }),
    frequency: field.integer({ min: 100_000_000, max: 1_000_000_000, list: true }),
    groupType: field.enum(['CLASS_B', 'CLASS_C'], { required: true, list: true }),
    classBPingSlotPeriodicity: field.integer({ min: 0, max: 7 }),
    classCSchedulingType: field.enum(['DELAY', 'GPS_TIME']),
  },
});
