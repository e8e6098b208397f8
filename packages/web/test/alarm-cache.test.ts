import type { Page } from '@lampyr/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { realTimeParams } from '../src/features/alerts-alarms/real-time-page.tsx';
import { type LiveAlarm, reduceAlarmPage } from '../src/lib/alarm-cache.ts';
import { applyLiveEvent } from '../src/lib/live-stream.ts';
import { keys } from '../src/lib/query-keys.ts';
import type { ListParams, Row } from '../src/lib/resource-api.ts';

const alarm = (id: number, patch: Partial<LiveAlarm> = {}): LiveAlarm => ({
  id,
  deviceId: 7,
  state: 'active',
  kind: 'threshold',
  alertLevel: 'high',
  templateId: 3,
  eventName: 'Over voltage',
  value: 251,
  unit: 'V',
  dateTime: `2026-11-23T22:0${id % 10}:00.000Z`,
  transition: 'raised',
  shelvedUntil: null,
  ...patch,
});
const row = (id: number, patch: Record<string, unknown> = {}): Row => ({
  id,
  deviceId: 7,
  state: 'active',
  alertLevel: 'low',
  regionId: 2,
  ...patch,
});
const page = (content: Row[], totalElements = content.length): Page<Row> => ({ content, totalElements });
const realTime = realTimeParams(1, 3);

describe('Real-time Alarms: an alarm event into a cached page', () => {
  it('puts a raised alarm on top of the first page, keeps the page size and counts it', () => {
    const before = page([row(3), row(2), row(1)], 5);
    const { page: after, refetch } = reduceAlarmPage(before, realTime, alarm(9));
    expect(after.content.map((r) => r.id)).toEqual([9, 3, 2]);
    expect(after.totalElements).toBe(6);
    expect(after.content[0]).toMatchObject({ state: 'active', value: 251, unit: 'V', alertLevel: 'high' });
    expect(after.content[0]).not.toHaveProperty('transition');
    expect(refetch).toBe(false);
  });

  it('updates a row it shows in place, keeping the fields the event lacks', () => {
    const before = page([row(3), row(2)]);
    const { page: after } = reduceAlarmPage(
      before,
      realTime,
      alarm(2, { state: 'acknowledged', transition: 'acknowledged' }),
    );
    expect(after.content.map((r) => r.id)).toEqual([3, 2]);
    expect(after.content[1]).toMatchObject({ state: 'acknowledged', regionId: 2, alertLevel: 'high' });
    expect(after.totalElements).toBe(2);
  });

  it('removes a cleared alarm, and asks for the next page to fill the gap when there is one', () => {
    const { page: last, refetch: lastRefetch } = reduceAlarmPage(
      page([row(3), row(2)]),
      realTime,
      alarm(3, { state: 'cleared', transition: 'cleared' }),
    );
    expect(last.content.map((r) => r.id)).toEqual([2]);
    expect(last.totalElements).toBe(1);
    expect(lastRefetch).toBe(false);
    const { page: full, refetch } = reduceAlarmPage(
      page([row(3), row(2), row(1)], 8),
      realTime,
      alarm(2, { state: 'cleared', transition: 'cleared' }),
    );
    expect(full.content.map((r) => r.id)).toEqual([3, 1]);
    expect(full.totalElements).toBe(7);
    expect(refetch).toBe(true);
  });

  it('leaves a page alone for an alarm it does not show that is not new, or that its filter refuses', () => {
    const before = page([row(3)]);
    expect(reduceAlarmPage(before, realTime, alarm(5, { transition: 'shelved' })).page).toBe(before);
    const highOnly: ListParams = { ...realTime, filter: { ...realTime.filter, alertLevel: ['high'] } };
    expect(reduceAlarmPage(before, highOnly, alarm(6, { alertLevel: 'low' })).page).toBe(before);
    // A cleared alarm never enters the real-time list.
    expect(reduceAlarmPage(before, realTime, alarm(7, { state: 'cleared', transition: 'cleared' })).page).toBe(before);
  });

  it('refetches instead of guessing: a later page, a time-range filter or a field the event lacks', () => {
    const before = page([row(3)]);
    expect(reduceAlarmPage(before, realTimeParams(2, 3), alarm(9))).toEqual({ page: before, refetch: true });
    const ranged: ListParams = {
      ...realTime,
      detailFilter: [{ field: 'dateTime', operator: 'between', value: ['a', 'b'] }],
    };
    expect(reduceAlarmPage(before, ranged, alarm(9))).toEqual({ page: before, refetch: true });
    const byRegion: ListParams = { ...realTime, filter: { regionId: 2 } };
    expect(reduceAlarmPage(before, byRegion, alarm(9))).toEqual({ page: before, refetch: true });
  });
});

describe('alarm events through the live stream', () => {
  afterEach(() => vi.useRealTimers());

  it('moves every cached list of alarms and the record, and refreshes a list it cannot fill', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const realKey = keys.list('alert-logs', realTime);
    const history: ListParams = { ...realTime, filter: null };
    const historyKey = keys.list('alert-logs', history);
    const otherKey = keys.list('channel-values', realTime);
    client.setQueryData(realKey, page([row(2), row(1)]));
    client.setQueryData(historyKey, page([row(2), row(1)]));
    client.setQueryData(otherKey, page([row(2)]));
    client.setQueryData(keys.detail('alert-logs', 2), row(2));

    applyLiveEvent(client, { type: 'alarm', ...alarm(4) });
    expect(client.getQueryData<Page<Row>>(realKey)?.content.map((r) => r.id)).toEqual([4, 2, 1]);
    // History shows every state: it takes the new alarm too.
    expect(client.getQueryData<Page<Row>>(historyKey)?.content.map((r) => r.id)).toEqual([4, 2, 1]);

    applyLiveEvent(client, { type: 'alarm', ...alarm(2, { state: 'cleared', transition: 'cleared' }) });
    expect(client.getQueryData<Page<Row>>(realKey)?.content.map((r) => r.id)).toEqual([4, 1]);
    // History keeps the cleared alarm, now cleared.
    expect(client.getQueryData<Page<Row>>(historyKey)?.content.find((r) => r.id === 2)).toMatchObject({
      state: 'cleared',
      isActive: false,
    });
    expect(client.getQueryData<Row>(keys.detail('alert-logs', 2))).toMatchObject({ state: 'cleared' });
    expect(client.getQueryData<Page<Row>>(otherKey)?.content).toEqual([row(2)]);

    // An alarm raised while page 2 is shown: that page is fetched again, once for the burst.
    const secondKey = keys.list('alert-logs', realTimeParams(2, 3));
    client.setQueryData(secondKey, page([row(1)], 4));
    const spy = vi.spyOn(client, 'invalidateQueries');
    applyLiveEvent(client, { type: 'alarm', ...alarm(5) });
    applyLiveEvent(client, { type: 'alarm', ...alarm(6) });
    expect(spy).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1100);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy).toHaveBeenCalledWith({ queryKey: keys.lists('alert-logs') });
  });
});
