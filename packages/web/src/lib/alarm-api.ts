import { request } from './api-client.ts';

/** What an alarm command did: the alarms it changed, and the ones it left alone with why. */
export interface AlarmCommandResult {
  updated: number[];
  skipped: { id: number; reason: string }[];
}

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
