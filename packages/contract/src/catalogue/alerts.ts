import { field } from '../fields.ts';
import { defineResource } from '../resource.ts';
import { type FieldError, ordered, requiredWhen } from '../validation.ts';
import { ALERT_LEVELS } from './assets.ts';

/** The eight conditions of SPEC §3; the last two take a second bound. */
export const CONDITIONS = ['gt', 'lt', 'eq', 'ne', 'gte', 'lte', 'between', 'notBetween'] as const;

/** An alarm is active until acknowledged, and stays on record once cleared. */
export const ALARM_STATES = ['active', 'acknowledged', 'cleared'] as const;
/** A threshold alarm comes from a template; a node-loss alarm from a silent device. */
export const ALARM_KINDS = ['threshold', 'nodeLoss'] as const;
/** Who cleared it: a value back inside the hysteresis band, an operator, or the device speaking again. */
export const CLEAR_REASONS = ['value', 'operator', 'recovery'] as const;

/** An operator's list of recipients: separated by commas, semicolons or new lines. */
export function splitRecipientList(list: unknown): string[] {
  if (typeof list !== 'string') return [];
  return [
    ...new Set(
      list
        .split(/[,;\n]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
const PHONE = /^\+?[0-9][0-9 ()-]{4,22}[0-9]$/;

/** Every address of an alert event's e-mail list is an e-mail address, every number of its SMS list a phone number. */
export function recipientListsRule(record: Record<string, unknown>): Record<string, FieldError> | undefined {
  const errors: Record<string, FieldError> = {};
  const badEmail = splitRecipientList(record.emailList).find((item) => !EMAIL.test(item) || item.length > 254);
  if (badEmail !== undefined)
    errors.emailList = { key: 'validation.recipientEmails', vars: { item: badEmail.slice(0, 80) } };
  const badPhone = splitRecipientList(record.smsList).find((item) => !PHONE.test(item));
  if (badPhone !== undefined)
    errors.smsList = { key: 'validation.recipientPhones', vars: { item: badPhone.slice(0, 80) } };
  return Object.keys(errors).length ? errors : undefined;
}

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

/**
 * What a notification service's address may be: an SMS gateway is an http(s) URL template, a mail
 * service an `smtp://`/`smtps://` address (or an http(s) one of a mail API); no other scheme
 * (`javascript:`, `file:`...) is ever stored.
 */
export function serviceUriRule(record: Record<string, unknown>): Record<string, FieldError> | undefined {
  const uri = record.serviceUri;
  if (typeof uri !== 'string' || uri.trim() === '') return undefined;
  const schemes = record.notificationType === 'email' ? ['http', 'https', 'smtp', 'smtps'] : ['http', 'https'];
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/[^\s/?#]+/i.exec(uri.trim())?.[1]?.toLowerCase();
  if (scheme && schemes.includes(scheme)) return undefined;
  return {
    serviceUri: { key: record.notificationType === 'email' ? 'validation.mailUri' : 'validation.url' },
  };
}

export const alertNotificationSettings = defineResource({
  name: 'alert-notification-settings',
  route: 'alerts-alarms/alert-notification-settings',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  rules: [serviceUriRule],
  fields: {
    name: field.text({ list: true, search: true }),
    notificationType: field.enum(['sms', 'email', 'appPush', 'audioBroadcast'], { required: true, list: true }),
    serviceName: field.text({ required: true, list: true }),
    // An SMS gateway's URL template (`{{to}}`, `{{text}}`...) or a mail server's address: see serviceUriRule.
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
    status: field.enum(['sent', 'failed'], { list: true }),
    message: field.longText(),
    alertLogId: field.ref('alert-logs'),
  },
});
