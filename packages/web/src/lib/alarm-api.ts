import type { AlarmCommandResult } from '@lampyr/contract';
import { request } from './api-client.ts';

export type { AlarmCommandResult } from '@lampyr/contract';

export type AlarmCommand =
  | { action: 'acknowledge'; ids: number[]; comment?: string }
  | { action: 'clear'; ids: number[]; comment: string }
  | { action: 'shelve'; ids: number[]; until: string; comment?: string };

/** `POST {command}/alarms/{acknowledge|clear|shelve}` (DEVICES.md "Alarms": the operator's transitions). */
export function sendAlarmCommand(command: AlarmCommand): Promise<AlarmCommandResult> {
  const { action, ...body } = command;
  return request<AlarmCommandResult>('command', `alarms/${action}`, { method: 'POST', body });
}

/** `POST {command}/notifications/resend`: queues the notifications again. */
export function resendNotifications(ids: number[]): Promise<AlarmCommandResult> {
  return request<AlarmCommandResult>('command', 'notifications/resend', { method: 'POST', body: { ids } });
}
