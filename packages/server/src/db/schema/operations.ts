import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, text, time } from 'drizzle-orm/pg-core';
import { deviceChannelTemplates, deviceModels, devices, deviceTypes } from './assets.ts';
import { at, recordColumns, refColumn } from './columns.ts';
import { resourceTable } from './resource-table.ts';
import { accountColumn, regions } from './system.ts';

const scoped = () => ({ ...recordColumns(), accountId: accountColumn() });

// ─── alerts and alarms ────────────────────────────────────────────────────────

export const alertParameterGroups = resourceTable(
  'alert-device-parameter-groups',
  pgTable(
    'alert_parameter_groups',
    {
      ...scoped(),
      name: text().notNull(),
      deviceTypeId: refColumn().references(() => deviceTypes.id),
      deviceTypeModelId: refColumn().references(() => deviceModels.id),
      parameterGroupCode: text().notNull(),
      enable: boolean().notNull().default(true),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const alertParameterTemplates = resourceTable(
  'alert-device-parameter-templates',
  pgTable(
    'alert_parameter_templates',
    {
      ...scoped(),
      name: text().notNull(),
      groupId: refColumn().references(() => alertParameterGroups.id),
      condition: text().notNull(),
      value: doublePrecision().notNull(),
      value2: doublePrecision(),
      unit: text(),
      alertLevel: text().notNull(),
      threshold: doublePrecision(),
      channelTemplateId: refColumn().references(() => deviceChannelTemplates.id),
      code: text(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const alertEvents = resourceTable(
  'alert-events',
  pgTable(
    'alert_events',
    {
      ...scoped(),
      eventName: text().notNull(),
      deviceId: refColumn().references(() => devices.id),
      deviceChannelTemplateId: refColumn().references(() => deviceChannelTemplates.id),
      isForever: boolean().notNull(),
      startTime: at(),
      endTime: at(),
      priority: integer(),
      eventTime: at(),
      status: text(),
      executionCount: integer().notNull().default(0),
      logs: text(),
      turnToAlarm: boolean().notNull().default(false),
      durationOfAlarm: integer(),
      reportingFrequency: integer(),
      notifySms: boolean().notNull().default(false),
      notifyEmail: boolean().notNull().default(false),
      notifyPush: boolean().notNull().default(false),
      smsList: text(),
      emailList: text(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const alertDevicePairing = resourceTable(
  'alert-device-pairing',
  pgTable(
    'alert_device_pairing',
    {
      ...scoped(),
      alertTemplateId: refColumn()
        .notNull()
        .references(() => alertParameterTemplates.id),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id),
    },
    (t) => [index().on(t.accountId, t.deviceId)],
  ),
);

export const alertLogs = resourceTable(
  'alert-logs',
  pgTable(
    'alert_logs',
    {
      ...scoped(),
      alertLevel: text(),
      dateTime: at().notNull(),
      deviceId: refColumn(),
      templateId: refColumn(),
      value: doublePrecision(),
      channelType: text(),
      channelValue: text(),
      regionId: refColumn(),
      deviceTypeId: refColumn(),
      eventName: text(),
      isActive: boolean().notNull().default(true),
    },
    (t) => [index().on(t.accountId, t.dateTime)],
  ),
);

export const alertEventLogs = resourceTable(
  'alert-event-logs',
  pgTable(
    'alert_event_logs',
    {
      ...scoped(),
      dateTime: at().notNull(),
      alertEventId: refColumn(),
      status: text(),
      alertMessage: text(),
      deviceId: refColumn(),
      deviceTypeId: refColumn(),
    },
    (t) => [index().on(t.accountId, t.dateTime)],
  ),
);

export const alertNotificationSettings = resourceTable(
  'alert-notification-settings',
  pgTable(
    'alert_notification_settings',
    {
      ...scoped(),
      name: text(),
      notificationType: text().notNull(),
      serviceName: text().notNull(),
      serviceUri: text().notNull(),
      encryption: text(),
      portNumber: integer(),
      mailHost: text(),
      userName: text(),
      mailPasswordEncrypted: text(),
      smsMsgHeader: text(),
      smsUserCode: text(),
      smsPasswordEncrypted: text(),
      messageSubject: text(),
      messageBody: text(),
      notificationAddress: text(),
    },
    (t) => [index().on(t.accountId)],
  ),
);

export const alertNotificationList = resourceTable(
  'alert-notification-list',
  pgTable(
    'alert_notification_list',
    {
      ...scoped(),
      dateTime: at().notNull(),
      channel: text(),
      recipient: text(),
      subject: text(),
      status: text(),
      message: text(),
      alertLogId: refColumn(),
    },
    (t) => [index().on(t.accountId, t.dateTime)],
  ),
);

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

/** Four on/off pairs, each a time type (sunrise, sunset, custom), a time and a value. */
const timing = () => ({
  on1Type: text(),
  on1Time: time(),
  on1Value: integer(),
  off1Type: text(),
  off1Time: time(),
  off1Value: integer(),
  on2Type: text(),
  on2Time: time(),
  on2Value: integer(),
  off2Type: text(),
  off2Time: time(),
  off2Value: integer(),
  on3Type: text(),
  on3Time: time(),
  on3Value: integer(),
  off3Type: text(),
  off3Time: time(),
  off3Value: integer(),
  on4Type: text(),
  on4Time: time(),
  on4Value: integer(),
  off4Type: text(),
  off4Time: time(),
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
    },
    (t) => [index().on(t.accountId, t.deployTime)],
  ),
);

export const taskControlLogs = resourceTable(
  'task-control-logs',
  pgTable(
    'task_control_logs',
    { ...scoped(), profileId: refColumn(), controlDate: at().notNull(), controlType: text() },
    (t) => [index().on(t.accountId, t.controlDate)],
  ),
);

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
      message: text(),
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

// ─── maintenance and logs ─────────────────────────────────────────────────────

export const faultReports = resourceTable(
  'report-a-fault',
  pgTable(
    'fault_reports',
    {
      ...scoped(),
      deviceId: refColumn()
        .notNull()
        .references(() => devices.id),
      faultType: text().notNull(),
      description: text(),
      reporter: text(),
      reportedAt: at().notNull(),
      status: text().notNull(),
    },
    (t) => [index().on(t.accountId, t.reportedAt)],
  ),
);

export const maintenancePlanning = resourceTable(
  'maintenance-planning',
  pgTable(
    'maintenance_planning',
    {
      ...scoped(),
      title: text().notNull(),
      deviceId: refColumn().references(() => devices.id),
      regionId: refColumn().references(() => regions.id),
      work: text().notNull(),
      dueDate: date({ mode: 'string' }).notNull(),
      assignee: text(),
      status: text().notNull(),
    },
    (t) => [index().on(t.accountId, t.dueDate)],
  ),
);

export const maintenanceHistory = resourceTable(
  'maintenance-history',
  pgTable(
    'maintenance_history',
    {
      ...scoped(),
      deviceId: refColumn().references(() => devices.id),
      work: text().notNull(),
      performedBy: text().notNull(),
      performedAt: at().notNull(),
      faultReportId: refColumn().references(() => faultReports.id),
    },
    (t) => [index().on(t.accountId, t.performedAt)],
  ),
);

export const dataLogs = resourceTable(
  'data-logs',
  pgTable(
    'data_logs',
    { ...scoped(), topic: text(), deviceUid: text(), reason: text(), payload: text(), detail: text() },
    (t) => [index().on(t.accountId, t.createdAt)],
  ),
);

export const systemLogs = resourceTable(
  'system-logs',
  pgTable('system_logs', { ...scoped(), level: text(), source: text(), message: text(), context: jsonb() }, (t) => [
    index().on(t.accountId, t.createdAt),
  ]),
);
