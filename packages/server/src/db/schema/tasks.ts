import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  time,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { deviceChannelTemplates, deviceModels, devices, deviceTypes } from './assets.ts';
import { at, refColumn } from './columns.ts';
import { resourceTable } from './resource-table.ts';
import { regions, scopedColumns as scoped } from './system.ts';

// ─── tasks and schedules ──────────────────────────────────────────────────────

export const taskTypes = resourceTable(
  'task-types',
  pgTable('task_types', { ...scoped(), name: text().notNull() }, (t) => [index().on(t.accountId)]),
);

export const taskProfiles = resourceTable(
  'profiles',
  pgTable(
    'task_profiles',
    {
      ...scoped(),
      name: text().notNull(),
      taskTypeId: refColumn()
        .notNull()
        .references(() => taskTypes.id),
      operation: text().notNull(),
      dimLevel: integer(),
      color: text().notNull(),
      cyclicType: text(),
      priority: integer().notNull(),
      offDays: jsonb(),
      individualOrBatch: text(),
      startDate: date({ mode: 'string' }),
      endDate: date({ mode: 'string' }),
      startDay: integer(),
      endDay: integer(),
      cycleDay: integer(),
      customDates: jsonb(),
      deviceTypeModelId: refColumn().references(() => deviceModels.id),
      loraWanOperationTypeId: integer(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const taskGroups = resourceTable(
  'task-groups',
  pgTable(
    'task_groups',
    {
      ...scoped(),
      name: text().notNull(),
      details: text(),
      isMulticast: boolean().notNull().default(false),
      deviceTypeModelId: refColumn().references(() => deviceModels.id),
      regionId: refColumn().references(() => regions.id),
      content: text(),
      status: text(),
      message: text(),
      color: text(),
      publicationStatus: text(),
      type: text(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const taskGroupProfiles = resourceTable(
  'task-group-profiles',
  pgTable(
    'task_group_profiles',
    {
      ...scoped(),
      taskGroupId: refColumn()
        .notNull()
        .references(() => taskGroups.id),
      taskProfileId: refColumn()
        .notNull()
        .references(() => taskProfiles.id),
      mode: text().notNull(),
      method: text().notNull(),
      operation: text().notNull(),
      hour: integer().notNull(),
      minute: integer().notNull(),
      startDay: integer().notNull(),
      endDay: integer().notNull(),
      priority: integer().notNull(),
      color: text().notNull(),
      unlimited: boolean().notNull().default(false),
      holidaysOnly: boolean().notNull().default(false),
      weekendsOnly: boolean().notNull().default(false),
      excludeWeekends: boolean().notNull().default(false),
      enforceExecution: boolean().notNull().default(false),
    },
    (t) => [index().on(t.accountId, t.taskGroupId)],
  ),
);

export const taskGroupMembers = resourceTable(
  'task-group-members',
  pgTable(
    'task_group_members',
    {
      ...scoped(),
      taskGroupId: refColumn()
        .notNull()
        .references(() => taskGroups.id, { onDelete: 'cascade' }),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id, { onDelete: 'cascade' }),
    },
    (t) => [uniqueIndex().on(t.taskGroupId, t.deviceId), index().on(t.accountId, t.deviceId)],
  ),
);

/** Four on/off pairs, each a time type (sunrise, sunset, custom), a time and a value. */
const timing = () => ({
  on1Type: text(),
  on1Time: time(),
  on1Offset: integer(),
  on1Value: integer(),
  off1Type: text(),
  off1Time: time(),
  off1Offset: integer(),
  off1Value: integer(),
  on2Type: text(),
  on2Time: time(),
  on2Offset: integer(),
  on2Value: integer(),
  off2Type: text(),
  off2Time: time(),
  off2Offset: integer(),
  off2Value: integer(),
  on3Type: text(),
  on3Time: time(),
  on3Offset: integer(),
  on3Value: integer(),
  off3Type: text(),
  off3Time: time(),
  off3Offset: integer(),
  off3Value: integer(),
  on4Type: text(),
  on4Time: time(),
  on4Offset: integer(),
  on4Value: integer(),
  off4Type: text(),
  off4Time: time(),
  off4Offset: integer(),
  off4Value: integer(),
});

export const taskProfileTimings = resourceTable(
  'task-profile-timings',
  pgTable(
    'task_profile_timings',
    {
      ...scoped(),
      taskProfileId: refColumn()
        .notNull()
        .references(() => taskProfiles.id),
      deviceTypeModelId: refColumn().references(() => deviceModels.id),
      deviceId: refColumn().references(() => devices.id),
      channelTemplateId: refColumn().references(() => deviceChannelTemplates.id),
      ...timing(),
    },
    (t) => [index().on(t.accountId, t.taskProfileId)],
  ),
);

export const taskProfileExecutionPeriods = resourceTable(
  'task-profile-execution-periods',
  pgTable(
    'task_profile_execution_periods',
    {
      ...scoped(),
      taskProfileId: refColumn()
        .notNull()
        .references(() => taskProfiles.id),
      isSunset: boolean().notNull().default(false),
      isSunrise: boolean().notNull().default(false),
      startTime: time().notNull(),
      endTime: time().notNull(),
      value: integer(),
    },
    (t) => [index().on(t.accountId, t.taskProfileId)],
  ),
);

export const autonomousProfiles = resourceTable(
  'autonomous',
  pgTable(
    'autonomous_profiles',
    {
      ...scoped(),
      name: text().notNull(),
      startTime: time().notNull(),
      endTime: time().notNull(),
      delayTime: integer(),
      threshold: doublePrecision(),
      condition: text(),
      sensorControl: boolean().notNull().default(false),
      weatherControl: boolean().notNull().default(false),
      formula: text(),
      deviceTypeId: refColumn().references(() => deviceTypes.id),
      day: text(),
      period: integer(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const deployResponseLogs = resourceTable(
  'deploy-response-logs',
  pgTable(
    'deploy_response_logs',
    {
      ...scoped(),
      taskProfileId: refColumn(),
      loraWanOperationTypeId: integer(),
      devEui: text(),
      deviceId: refColumn(),
      deployTime: at(),
      responseTime: at(),
      responseResult: text(),
      resendOperation: boolean().notNull().default(false),
      resendCount: integer(),
      channelNumber: integer(),
      /** pending → sent → confirmed | mismatch | timeout | failed (docs/device-config.md). */
      status: text().notNull().default('pending'),
      /** The configuration operation (config-request, clear-device-data, reset-device-config, deploy, override, cancel-override). */
      operation: text(),
      /** The program version deployed, and the one the device last reported. */
      version: integer(),
      reportedVersion: integer(),
      taskGroupId: refColumn().references(() => taskGroups.id, { onDelete: 'set null' }),
      /** The rows of one request share it: a group deployment's progress is theirs. */
      batchId: text(),
      /** The command's arguments (the program, an override), kept so a resend after a restart sends the same. */
      command: jsonb(),
      downlinkId: text(),
      /** When an unconfirmed row is resent or given up: the timer lives in the row. */
      nextAttemptAt: at(),
    },
    (t) => [
      index().on(t.accountId, t.deployTime),
      index().on(t.deviceId, t.status),
      index().on(t.status, t.nextAttemptAt),
      index().on(t.batchId),
    ],
  ),
);

export const taskControlLogs = resourceTable(
  'task-control-logs',
  pgTable(
    'task_control_logs',
    {
      ...scoped(),
      profileId: refColumn(),
      controlDate: at().notNull(),
      controlType: text(),
      deviceId: refColumn(),
      taskGroupId: refColumn(),
      pairingId: refColumn(),
      timingId: refColumn(),
      plannedAt: at(),
      level: integer(),
      status: text(),
      channelWriteValueId: refColumn(),
      message: text(),
    },
    (t) => [
      index().on(t.accountId, t.controlDate),
      // One execution per device and switch point: the scheduler's claim.
      uniqueIndex().on(t.deviceId, t.plannedAt),
    ],
  ),
);

export const overrides = resourceTable(
  'overrides',
  pgTable(
    'overrides',
    {
      ...scoped(),
      level: integer().notNull(),
      until: at().notNull(),
      reason: text().notNull(),
      status: text().notNull().default('active'),
      street: text(),
      regionId: refColumn().references(() => regions.id),
      /** The devices it covers, resolved when it was made (a JSON array of ids). */
      deviceIds: jsonb().notNull(),
      deviceCount: integer().notNull(),
      cancelledAt: at(),
      autonomousProfileId: refColumn().references(() => autonomousProfiles.id, { onDelete: 'set null' }),
    },
    (t) => [index().on(t.accountId, t.createdAt), index().on(t.status, t.until)],
  ),
);
