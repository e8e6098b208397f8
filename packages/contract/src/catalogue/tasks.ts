import { field } from '../fields.ts';
import { defineResource } from '../resource.ts';
import { ordered, requiredWhen } from '../validation.ts';
import { CONDITIONS } from './alerts.ts';
import {
  MAX_SUN_OFFSET_MINUTES,
  pairingConsistent,
  periodConsistent,
  profileDaysConsistent,
  timingConsistent,
} from './schedule-rules.ts';

export const OPERATIONS = ['on', 'off', 'dimming'] as const;
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const TIME_TYPES = ['sunrise', 'sunset', 'custom'] as const;
/** A device configuration command's progress (docs/device-config.md). */
export const DEPLOY_STATUSES = ['pending', 'sent', 'confirmed', 'mismatch', 'timeout', 'failed'] as const;
export const CONFIG_OPERATIONS = [
  'config-request',
  'clear-device-data',
  'reset-device-config',
  'deploy',
  'override',
  'cancel-override',
] as const;

export const taskTypes = defineResource({
  name: 'task-types',
  route: 'tasks-schedules/task-types',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: { name: field.text({ required: true, list: true, search: true }) },
});

export const taskProfiles = defineResource({
  name: 'profiles',
  route: 'tasks-schedules/profiles',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    taskTypeId: field.ref('task-types', { required: true, list: true }),
    operation: field.enum(OPERATIONS, { required: true, list: true }),
    dimLevel: field.integer({ min: 0, max: 100, list: true }),
    color: field.color({ required: true, list: true }),
    cyclicType: field.enum(['everyday', 'odd', 'even', 'cyclic', 'custom'], { list: true }),
    priority: field.integer({ required: true, min: 1, max: 10, list: true }),
    offDays: field.json(),
    individualOrBatch: field.enum(['individual', 'batch'], { list: true }),
    startDate: field.date(),
    endDate: field.date(),
    startDay: field.integer({ min: 1, max: 31 }),
    endDay: field.integer({ min: 1, max: 31 }),
    cycleDay: field.integer({ min: 1, max: 365 }),
    /** The dates a `custom` cycle runs on (YYYY-MM-DD list). */
    customDates: field.json(),
    deviceTypeModelId: field.ref('device-models'),
    loraWanOperationTypeId: field.integer({ min: 0, max: 255 }),
  },
  rules: [
    requiredWhen('dimLevel', (r) => r.operation === 'dimming'),
    requiredWhen('cycleDay', (r) => r.cyclicType === 'cyclic'),
    ordered('startDate', 'endDate'),
    profileDaysConsistent,
  ],
});

export const taskGroups = defineResource({
  name: 'task-groups',
  route: 'tasks-schedules/task-groups',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    details: field.longText(),
    isMulticast: field.boolean({ list: true }),
    deviceTypeModelId: field.ref('device-models', { list: true }),
    regionId: field.ref('regions', { list: true }),
    content: field.longText(),
    status: field.enum(['draft', 'active', 'paused'], { list: true }),
    message: field.text(),
    color: field.color(),
    publicationStatus: field.enum(['unpublished', 'publishing', 'published', 'failed'], { list: true }),
    type: field.text(),
  },
});

export const taskGroupProfiles = defineResource({
  name: 'task-group-profiles',
  route: 'tasks-schedules/task-group-profiles',
  scope: 'account',
  display: 'id',
  fields: {
    taskGroupId: field.ref('task-groups', { required: true, list: true }),
    taskProfileId: field.ref('profiles', { required: true, list: true }),
    mode: field.enum(['time', 'sun'], { required: true, list: true }),
    method: field.enum(['fixed', 'sunset', 'sunrise'], { required: true, list: true }),
    operation: field.enum(OPERATIONS, { required: true, list: true }),
    hour: field.integer({ required: true, min: -23, max: 23, list: true }),
    minute: field.integer({ required: true, min: -59, max: 59, list: true }),
    startDay: field.integer({ required: true, min: 1, max: 31 }),
    endDay: field.integer({ required: true, min: 1, max: 31 }),
    priority: field.integer({ required: true, min: 1, max: 10, list: true }),
    color: field.color({ required: true }),
    unlimited: field.boolean(),
    holidaysOnly: field.boolean(),
    weekendsOnly: field.boolean(),
    excludeWeekends: field.boolean(),
    enforceExecution: field.boolean(),
  },
  rules: [pairingConsistent],
});

/**
 * A task group's listed members. A group with listed members runs on exactly those devices; one
 * without runs on the devices of its model and region.
 */
export const taskGroupMembers = defineResource({
  name: 'task-group-members',
  route: 'tasks-schedules/task-group-members',
  scope: 'account',
  display: 'id',
  fields: {
    taskGroupId: field.ref('task-groups', { required: true, list: true }),
    deviceId: field.ref('devices', { required: true, list: true }),
  },
});

/** A sunset/sunrise slot's shift in minutes (−360…360); a custom slot's clock time is its time. */
const offset = () => field.integer({ min: -MAX_SUN_OFFSET_MINUTES, max: MAX_SUN_OFFSET_MINUTES });

const timing = (n: number) => ({
  [`on${n}Type`]: field.enum(TIME_TYPES),
  [`on${n}Time`]: field.time(),
  [`on${n}Offset`]: offset(),
  [`on${n}Value`]: field.integer({ min: 0, max: 100 }),
  [`off${n}Type`]: field.enum(TIME_TYPES),
  [`off${n}Time`]: field.time(),
  [`off${n}Offset`]: offset(),
  [`off${n}Value`]: field.integer({ min: 0, max: 100 }),
});

export const taskProfileTimings = defineResource({
  name: 'task-profile-timings',
  route: 'tasks-schedules/task-profile-timings',
  scope: 'account',
  display: 'id',
  fields: {
    taskProfileId: field.ref('profiles', { required: true, list: true }),
    deviceTypeModelId: field.ref('device-models', { list: true }),
    deviceId: field.ref('devices', { list: true }),
    channelTemplateId: field.ref('device-channel-templates'),
    ...timing(1),
    ...timing(2),
    ...timing(3),
    ...timing(4),
  },
  rules: [timingConsistent],
});

export const taskProfileExecutionPeriods = defineResource({
  name: 'task-profile-execution-periods',
  route: 'tasks-schedules/task-profile-execution-periods',
  scope: 'account',
  display: 'id',
  fields: {
    taskProfileId: field.ref('profiles', { required: true, list: true }),
    isSunset: field.boolean({ list: true }),
    isSunrise: field.boolean({ list: true }),
    startTime: field.time({ required: true, list: true }),
    endTime: field.time({ required: true, list: true }),
    value: field.integer({ min: 0, max: 100, list: true }),
  },
  rules: [periodConsistent],
});

export const autonomousProfiles = defineResource({
  name: 'autonomous',
  route: 'tasks-schedules/autonomous',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    startTime: field.time({ required: true, list: true }),
    endTime: field.time({ required: true, list: true }),
    delayTime: field.integer({ min: 0, max: 3600 }),
    threshold: field.number({ list: true }),
    condition: field.enum(CONDITIONS, { list: true }),
    sensorControl: field.boolean(),
    weatherControl: field.boolean(),
    formula: field.text(),
    deviceTypeId: field.ref('devices-types', { list: true }),
    day: field.enum(WEEKDAYS),
    period: field.integer({ min: 1, max: 1440 }),
  },
});

export const deployResponseLogs = defineResource({
  name: 'deploy-response-logs',
  route: 'tasks-schedules/deploy-response-logs',
  scope: 'account',
  display: 'id',
  defaultSort: 'deployTime,desc',
  readOnly: true,
  fields: {
    taskProfileId: field.ref('profiles', { list: true }),
    loraWanOperationTypeId: field.integer(),
    devEui: field.text({ list: true, search: true }),
    deviceId: field.ref('devices', { list: true }),
    deployTime: field.datetime({ list: true }),
    responseTime: field.datetime({ list: true }),
    responseResult: field.text({ list: true }),
    resendOperation: field.boolean(),
    resendCount: field.integer({ list: true }),
    channelNumber: field.integer(),
    status: field.enum(DEPLOY_STATUSES, { list: true }),
    operation: field.enum(CONFIG_OPERATIONS, { list: true }),
    version: field.integer({ list: true }),
    reportedVersion: field.integer(),
    taskGroupId: field.ref('task-groups', { list: true }),
    batchId: field.text(),
  },
});

/**
 * What the scheduler did: one row per device and switch point it executed (server-timed devices),
 * unique on (device, planned time), so a switch point is sent once however many replicas run.
 */
export const taskControlLogs = defineResource({
  name: 'task-control-logs',
  route: 'tasks-schedules/task-control-logs',
  scope: 'account',
  display: 'id',
  defaultSort: 'controlDate,desc',
  readOnly: true,
  fields: {
    profileId: field.ref('profiles', { list: true }),
    controlDate: field.datetime({ list: true }),
    controlType: field.text({ list: true }),
    deviceId: field.ref('devices', { list: true }),
    taskGroupId: field.ref('task-groups', { list: true }),
    pairingId: field.ref('task-group-profiles'),
    timingId: field.ref('task-profile-timings'),
    plannedAt: field.datetime({ list: true }),
    level: field.integer({ list: true }),
    status: field.enum(['sent', 'failed', 'skipped'], { list: true }),
    channelWriteValueId: field.ref('channel-write-values'),
    message: field.text(),
  },
});

/**
 * A lighting override: a level held on some lights until a time, whatever their schedule says.
 * Made and cancelled through `POST /command/api/overrides` and `DELETE /command/api/overrides/{id}`
 * (the lights it covers are resolved when it is made), listed like any entity.
 */
export const overrides = defineResource({
  name: 'overrides',
  route: 'tasks-schedules/overrides',
  scope: 'account',
  display: 'reason',
  defaultSort: 'createdAt,desc',
  readOnly: true,
  fields: {
    level: field.integer({ min: 0, max: 100, required: true, list: true }),
    until: field.datetime({ required: true, list: true }),
    reason: field.text({ required: true, list: true, search: true }),
    status: field.enum(['active', 'expired', 'cancelled'], { list: true }),
    street: field.text({ list: true, search: true }),
    regionId: field.ref('regions', { list: true }),
    deviceIds: field.json(),
    deviceCount: field.integer({ list: true }),
    cancelledAt: field.datetime(),
    /** Set when an autonomous profile made it (its sensor condition held), not an operator. */
    autonomousProfileId: field.ref('autonomous', { list: true }),
  },
});
