import type { LiveAlarm, Page } from '@lampyr/contract';
import type { QueryClient } from '@tanstack/react-query';
import { keys } from './query-keys.ts';
import type { ListParams, Row } from './resource-api.ts';

export type { LiveAlarm } from '@lampyr/contract';

/**
 * A message for signed-in consoles (an `appPush` or `audioBroadcast` notification); the same shape
 * as the notification service's contract type (branch i-notify), which replaces it once merged.
 */
export interface LiveNotification {
  id: number;
  level: string;
  title: string;
  body: string;
  sound: boolean;
  audio: boolean;
}

export const ALARMS = 'alert-logs';
/** The states an alarm is shown in on Real-time Alarms: everything not yet cleared. */
export const OPEN_STATES = ['active', 'acknowledged'] as const;

/** The fields of an alarm row an event carries (the rest — region, channel… — stay as read). */
function fieldsOf(event: LiveAlarm): Row {
  const { transition: _transition, ...row } = event;
  return { ...row, isActive: event.state !== 'cleared' };
}

/** Whether a list filter keeps the event's alarm: true/false, or undefined when it cannot tell. */
export function filterKeeps(filter: ListParams['filter'], event: LiveAlarm): boolean | undefined {
  const row = fieldsOf(event);
  for (const [field, wanted] of Object.entries(filter ?? {})) {
    if (wanted === undefined || wanted === null) continue;
    if (!(field in row)) return undefined;
    const actual = row[field];
    if (Array.isArray(wanted) ? !wanted.includes(actual as never) : wanted !== actual) return false;
  }
  return true;
}

export type AlarmListChange = { page: Page<Row>; refetch: boolean };

/**
 * One alarm event applied to one cached page of alarms, newest first: a row it shows is updated,
 * or removed when the list's filter no longer keeps it (a cleared alarm leaves Real-time Alarms);
 * a raised alarm the filter keeps goes on top of the first page. `refetch` says the page cannot be
 * made right locally (the alarm belongs to another page, or the filter is on a field the event lacks).
 */
export function reduceAlarmPage(page: Page<Row>, params: ListParams, event: LiveAlarm): AlarmListChange {
  const keeps = filterKeeps(params.filter, event);
  const index = page.content.findIndex((row) => row.id === event.id);
  const detailFiltered = (params.detailFilter ?? []).length > 0;
  if (index >= 0) {
    if (keeps === false) {
      return {
        page: {
          ...page,
          content: page.content.filter((row) => row.id !== event.id),
          totalElements: Math.max(0, page.totalElements - 1),
        },
        // The next page's first row should move up into this one.
        refetch: page.totalElements > page.content.length,
      };
    }
    const content = page.content.map((row) => (row.id === event.id ? { ...row, ...fieldsOf(event) } : row));
    return { page: { ...page, content }, refetch: keeps === undefined };
  }
  if (event.transition !== 'raised' || keeps === false) return { page, refetch: false };
  const sort = params.pageable.sort[0] ?? 'dateTime,desc';
  const newestFirst = sort.toLowerCase() === 'datetime,desc';
  if (keeps === undefined || detailFiltered || !newestFirst || params.pageable.page !== 1)
    return { page, refetch: true };
  const content = [fieldsOf(event), ...page.content].slice(0, params.pageable.size);
  return { page: { ...page, content, totalElements: page.totalElements + 1 }, refetch: false };
}

/**
 * Writes an alarm event into every cached list of alarms and its record, so Real-time Alarms,
 * Alarm History and the alert-log records redraw without a reload. Says whether some list must
 * be fetched again to be right.
 */
export function applyAlarmEvent(client: QueryClient, event: LiveAlarm): boolean {
  let refetch = false;
  for (const query of client.getQueryCache().findAll({ queryKey: keys.lists(ALARMS) })) {
    const params = query.queryKey[3] as ListParams | undefined;
    const page = query.state.data as Page<Row> | undefined;
    if (!params?.pageable || !page?.content) continue;
    const change = reduceAlarmPage(page, params, event);
    if (change.page !== page) client.setQueryData(query.queryKey, change.page);
    refetch ||= change.refetch;
  }
  client.setQueryData<Row>(keys.detail(ALARMS, event.id), (row) => (row ? { ...row, ...fieldsOf(event) } : row));
  return refetch;
}
