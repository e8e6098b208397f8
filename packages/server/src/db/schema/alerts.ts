import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { deviceChannelTemplates, deviceModels, devices, deviceTypes } from './assets.ts';
import { at, refColumn } from './columns.ts';
import { gateways } from './gateways.ts';
import { resourceTable } from './resource-table.ts';
import { accounts, scopedColumns as scoped, users } from './system.ts';

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
      whileLampOn: boolean().notNull().default(false),
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
      channelTemplateId: refColumn().references(() => deviceChannelTemplates.id),
      subChannel: integer().notNull().default(0),
      state: text().notNull().default('active'),
      kind: text().notNull().default('threshold'),
      unit: text(),
      acknowledgedAt: at(),
      acknowledgedBy: refColumn().references(() => users.id),
      clearedAt: at(),
      clearedBy: refColumn().references(() => users.id),
      clearReason: text(),
      comment: text(),
      shelvedUntil: at(),
      /** A `gatewayLoss` alarm's gateway (it names no device). */
      gatewayId: refColumn().references(() => gateways.id, { onDelete: 'cascade' }),
      /** What the alarm is about beyond its value: a fault rule's figures, a gateway's lone luminaires. */
      details: jsonb(),
    },
    (t) => [
      index().on(t.accountId, t.dateTime),
      // At most one active gateway-loss alarm per gateway (the key above never matches: no device).
      uniqueIndex('alert_logs_active_gateway')
        .on(t.gatewayId, t.kind)
        .where(sql`${t.isActive} AND ${t.gatewayId} IS NOT NULL`),
      // At most one active alarm per (device, channel, sub-channel, template, kind): the engine raises
      // with INSERT ... ON CONFLICT DO NOTHING against it, never read-then-write. A node-loss alarm has
      // neither channel nor template; coalesce makes those unique per device too (PostgreSQL 15 and
      // PGlite both accept it, NULLS NOT DISTINCT only from 15 and not in every drizzle-kit).
      uniqueIndex('alert_logs_active_key')
        .on(
          t.deviceId,
          sql`coalesce(${t.channelTemplateId}, 0)`,
          t.subChannel,
          sql`coalesce(${t.templateId}, 0)`,
          t.kind,
        )
        .where(sql`${t.isActive}`),
      index().on(t.accountId, t.isActive, t.alertLevel),
    ],
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
      alertEventId: refColumn(),
      level: text(),
      serviceId: refColumn().references(() => alertNotificationSettings.id, { onDelete: 'set null' }),
      attempts: integer().notNull().default(0),
      lastError: text(),
      nextAttemptAt: at(),
      sentAt: at(),
      dedupeKey: text(),
      language: text(),
      /** A file sent with the mail (a scheduled report, report_files); no foreign key: the file table comes later. */
      attachmentId: refColumn(),
    },
    (t) => [
      index().on(t.accountId, t.dateTime),
      // The same notification (key) to the same recipient on the same channel is written once.
      uniqueIndex().on(t.accountId, t.dedupeKey, t.channel, t.recipient),
      // What the delivery loop claims: due rows still to send.
      index('alert_notification_list_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('queued', 'failed')`),
    ],
  ),
);

/**
 * Browsers that asked for Web Push (VAPID): one row per endpoint in an account, owned by the user
 * who subscribed last from it. Deleted when the push service answers 404/410.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: refColumn()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: refColumn()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text().notNull(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    createdAt: at().notNull().defaultNow(),
  },
  (t) => [uniqueIndex().on(t.accountId, t.endpoint), index().on(t.userId)],
);

/**
 * What the alarm engine still owes an alarm: an alert event's first firing (after its
 * `durationOfAlarm`) and its repeats (`reportingFrequency`), or a node-loss alarm's notifications.
 * Kept in the database so a restart neither loses nor repeats one; a worker claims a due timer
 * (`claimed_until`, taken with FOR UPDATE SKIP LOCKED), notifies with a key unique to the firing,
 * then moves the timer on. Not a catalogue resource: no API reads or writes it.
 */
export const alarmTimers = pgTable(
  'alarm_timers',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: refColumn().notNull(),
    alertLogId: refColumn()
      .notNull()
      .references(() => alertLogs.id, { onDelete: 'cascade' }),
    /** The alert event that notifies; null for a node-loss alarm (its settings notify). */
    alertEventId: refColumn().references(() => alertEvents.id, { onDelete: 'cascade' }),
    dueAt: at().notNull(),
    /** Notifications sent so far (the next one's number in its dedupe key). */
    sequence: integer().notNull().default(0),
    /** Node loss: the start of the current `period` and the notifications sent in it. */
    windowStart: at(),
    windowCount: integer().notNull().default(0),
    /** A worker is sending it until then; past it, another worker may take it over. */
    claimedUntil: at(),
    createdAt: at().notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alarm_timers_key').on(t.alertLogId, sql`coalesce(${t.alertEventId}, 0)`), index().on(t.dueAt)],
);
