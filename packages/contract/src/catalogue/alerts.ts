import { field } from '../fields.ts';
import { notificationServiceRule, recipientListsRule } from '../notifications.ts';
import { defineResource } from '../resource.ts';
import { ordered, requiredWhen } from '../validation.ts';
import { ALERT_LEVELS } from './assets.ts';

/** The eight conditions of SPEC §3; the last two take a second bound. */
export const CONDITIONS = ['gt', 'lt', 'eq', 'ne', 'gte', 'lte', 'between', 'notBetween'] as const;

/** An alarm is active until acknowledged, and stays on record once cleared. */
export const ALARM_STATES = ['active', 'acknowledged', 'cleared'] as const;
/**
 * The lamp faults the fault engine detects from readings and the commanded state (engines/faults),
 * each its own alarm kind. Communication loss is node loss.
 */
export const FAULT_RULES = [
  'lampFailure',
  'dayBurning',
  'cycling',
  'overVoltage',
  'underVoltage',
  'lowPowerFactor',
  'powerMismatch',
] as const;
export type FaultRule = (typeof FAULT_RULES)[number];
/**
 * A threshold alarm comes from a template; a node-loss alarm from a silent device; a fault alarm
 * from a fault rule; a gateway-loss alarm from a silent gateway.
 */
export const ALARM_KINDS = ['threshold', 'nodeLoss', ...FAULT_RULES, 'gatewayLoss'] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];
/** Who cleared it: a value back inside the hysteresis band, an operator, or the device speaking again. */
export const CLEAR_REASONS = ['value', 'operator', 'recovery'] as const;

export const alertParameterGroups = defineResource({
  name: 'alert-device-parameter-groups',
  route: 'alerts-alarms/alert-device-parameter-groups',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    deviceTypeId: field.ref('devices-types', { list: true }),
    deviceTypeModelId: field.ref('device-models', { list: true }),
    parameterGroupCode: field.text({ required: true, list: true }),
    enable: field.boolean({ list: true }),
  },
});

export const alertParameterTemplates = defineResource({
  name: 'alert-device-parameter-templates',
  route: 'alerts-alarms/alert-device-parameter-templates',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    groupId: field.ref('alert-device-parameter-groups', { list: true }),
    condition: field.enum(CONDITIONS, { required: true, list: true }),
    value: field.number({ required: true, list: true }),
    value2: field.number({ list: true }),
    unit: field.text({ maxLength: 32, list: true }),
    alertLevel: field.enum(ALERT_LEVELS, { required: true, list: true }),
    threshold: field.number(),
    channelTemplateId: field.ref('device-channel-templates', { list: true }),
    code: field.text({ search: true }),
    /** Judged only while the lamp is on: an electrical fault (no power) of a lamp switched off is none. */
    whileLampOn: field.boolean({ list: true }),
  },
  rules: [
    requiredWhen('value2', (r) => r.condition === 'between' || r.condition === 'notBetween'),
    (r) => (r.condition === 'between' || r.condition === 'notBetween' ? ordered('value', 'value2')(r) : undefined),
  ],
});

export const alertEvents = defineResource({
  name: 'alert-events',
  route: 'alerts-alarms/alert-events',
  scope: 'account',
  display: 'eventName',
  defaultSort: 'eventName,asc',
  fields: {
    eventName: field.text({ required: true, list: true, search: true }),
    deviceId: field.ref('devices', { list: true }),
    deviceChannelTemplateId: field.ref('device-channel-templates'),
    isForever: field.boolean({ required: true, list: true }),
    startTime: field.datetime({ list: true }),
    endTime: field.datetime({ list: true }),
    priority: field.integer({ min: 1, max: 10, list: true }),
    eventTime: field.datetime(),
    status: field.enum(['active', 'inactive', 'triggered', 'resolved'], { list: true }),
    executionCount: field.integer({ readOnly: true, list: true }),
    logs: field.longText(),
    turnToAlarm: field.boolean(),
    durationOfAlarm: field.integer({ min: 0, max: 10080 }),
    reportingFrequency: field.integer({ min: 0, max: 10080 }),
    notifySms: field.boolean(),
    notifyEmail: field.boolean(),
    notifyPush: field.boolean(),
    smsList: field.text({ maxLength: 2000 }),
    emailList: field.text({ maxLength: 2000 }),
  },
  rules: [
    requiredWhen('startTime', (r) => r.isForever === false),
    requiredWhen('endTime', (r) => r.isForever === false),
    ordered('startTime', 'endTime'),
    requiredWhen('durationOfAlarm', (r) => r.turnToAlarm === true),
    requiredWhen('smsList', (r) => r.notifySms === true),
    requiredWhen('emailList', (r) => r.notifyEmail === true),
    recipientListsRule,
  ],
});

export const alertDevicePairing = defineResource({
  name: 'alert-device-pairing',
  route: 'alerts-alarms/alert-device-pairing',
  scope: 'account',
  display: 'id',
  fields: {
    alertTemplateId: field.ref('alert-device-parameter-templates', { required: true, list: true }),
    deviceId: field.ref('devices', { required: true, list: true }),
  },
});

export const alertLogs = defineResource({
  name: 'alert-logs',
  route: 'alerts-alarms/alert-logs',
  scope: 'account',
  display: 'id',
  defaultSort: 'dateTime,desc',
  readOnly: true,
  fields: {
    alertLevel: field.enum(ALERT_LEVELS, { list: true }),
    dateTime: field.datetime({ list: true }),
    deviceId: field.ref('devices', { list: true }),
    templateId: field.ref('alert-device-parameter-templates', { list: true }),
    value: field.number({ list: true }),
    channelType: field.text(),
    channelValue: field.text(),
    regionId: field.ref('regions', { list: true }),
    deviceTypeId: field.ref('devices-types'),
    eventName: field.text({ list: true, search: true }),
    isActive: field.boolean({ list: true }),
    // The alarm's lifecycle (DEVICES.md "Alarms"): set by the alarm engine and its commands only.
    channelTemplateId: field.ref('device-channel-templates', { readOnly: true }),
    subChannel: field.integer({ readOnly: true }),
    state: field.enum(ALARM_STATES, { readOnly: true, list: true }),
    kind: field.enum(ALARM_KINDS, { readOnly: true, list: true }),
    unit: field.text({ maxLength: 32, readOnly: true }),
    acknowledgedAt: field.datetime({ readOnly: true }),
    acknowledgedBy: field.ref('users', { readOnly: true }),
    clearedAt: field.datetime({ readOnly: true }),
    clearedBy: field.ref('users', { readOnly: true }),
    clearReason: field.enum(CLEAR_REASONS, { readOnly: true }),
    comment: field.longText({ readOnly: true }),
    shelvedUntil: field.datetime({ readOnly: true }),
    // A gateway-loss alarm's gateway, and what a fault or gateway alarm found (engines/faults).
    gatewayId: field.ref('gateway', { readOnly: true, list: true }),
    details: field.json({ readOnly: true }),
  },
});

export const alertEventLogs = defineResource({
  name: 'alert-event-logs',
  route: 'alerts-alarms/alert-event-logs',
  scope: 'account',
  display: 'id',
  defaultSort: 'dateTime,desc',
  readOnly: true,
  fields: {
    dateTime: field.datetime({ list: true }),
    alertEventId: field.ref('alert-events', { list: true }),
    status: field.text({ list: true }),
    alertMessage: field.text({ list: true, search: true }),
    deviceId: field.ref('devices', { list: true }),
    deviceTypeId: field.ref('devices-types'),
  },
});

export const alertNotificationSettings = defineResource({
  name: 'alert-notification-settings',
  route: 'alerts-alarms/alert-notification-settings',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  rules: [notificationServiceRule],
  fields: {
    name: field.text({ list: true, search: true }),
    notificationType: field.enum(['sms', 'email', 'appPush', 'audioBroadcast'], { required: true, list: true }),
    serviceName: field.text({ required: true, list: true }),
    // An SMS gateway's URL template (`{{to}}`, `{{text}}`...) or a mail server's address: see notificationServiceRule.
    serviceUri: field.text({ required: true, list: true, maxLength: 1000 }),
    encryption: field.enum(['none', 'ssl', 'tls']),
    portNumber: field.integer({ min: 1, max: 65535 }),
    mailHost: field.text(),
    userName: field.text(),
    mailPassword: field.secret('encrypt'),
    smsMsgHeader: field.text(),
    smsUserCode: field.text(),
    smsPassword: field.secret('encrypt'),
    messageSubject: field.text(),
    messageBody: field.longText(),
    notificationAddress: field.text({ list: true }),
  },
});

/** queued → sent, or failed (retried with backoff) → dead after the last attempt or a permanent refusal. */
export const NOTIFICATION_STATUSES = ['queued', 'sent', 'failed', 'dead'] as const;

export const alertNotificationList = defineResource({
  name: 'alert-notification-list',
  route: 'alerts-alarms/alert-notification-list',
  scope: 'account',
  display: 'id',
  defaultSort: 'dateTime,desc',
  readOnly: true,
  fields: {
    dateTime: field.datetime({ list: true }),
    channel: field.enum(['sms', 'email', 'appPush', 'audioBroadcast'], { list: true }),
    recipient: field.text({ list: true, search: true }),
    subject: field.text({ list: true, search: true }),
    status: field.enum(NOTIFICATION_STATUSES, { list: true, readOnly: true }),
    message: field.longText(),
    alertLogId: field.ref('alert-logs'),
    alertEventId: field.ref('alert-events', { readOnly: true }),
    level: field.text({ maxLength: 32, list: true, readOnly: true }),
    serviceId: field.ref('alert-notification-settings', { readOnly: true }),
    attempts: field.integer({ list: true, readOnly: true }),
    lastError: field.longText({ readOnly: true }),
    nextAttemptAt: field.datetime({ readOnly: true }),
    sentAt: field.datetime({ list: true, readOnly: true }),
    dedupeKey: field.text({ readOnly: true }),
    language: field.enum(['en', 'tr'], { readOnly: true }),
  },
});
