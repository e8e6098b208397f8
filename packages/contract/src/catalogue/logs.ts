import { field } from '../fields.ts';
import { defineResource } from '../resource.ts';

/** What the device side received and could not use, with the reason. */
export const dataLogs = defineResource({
  name: 'data-logs',
  route: 'logs/data-logs',
  scope: 'account',
  display: 'id',
  readOnly: true,
  timeWindow: 'createdAt',
  fields: {
    topic: field.text({ list: true, search: true }),
    deviceUid: field.text({ list: true, search: true }),
    reason: field.text({ list: true }),
    detail: field.text({ list: true }),
    payload: field.longText(),
  },
});

export const systemLogs = defineResource({
  name: 'system-logs',
  route: 'logs/system-logs',
  scope: 'account',
  display: 'id',
  readOnly: true,
  fields: {
    level: field.enum(['debug', 'info', 'warn', 'error'], { list: true }),
    source: field.text({ list: true, search: true }),
    message: field.text({ list: true, search: true }),
    context: field.json(),
  },
});
