import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../src/lib/live-stream.ts';
import { keys } from '../src/lib/query-keys.ts';

const page = (content: Record<string, unknown>[]) => ({ content, totalElements: content.length });
const params = (filter: Record<string, unknown> | null) => ({
  filter,
  detailFilter: [],
  selectedColumns: null,
  pageable: { page: 1, size: 10, sort: [] },
});

describe('live events into the query cache', () => {
  afterEach(() => vi.useRealTimers());

  it('moves a channel value in every cached list that shows it, and nothing else', () => {
    const client = new QueryClient();
    const key = keys.list('channel-values', params({ deviceId: 7 }));
    client.setQueryData(
      key,
      page([
        { id: 1, deviceId: 7, deviceChannelTemplateId: 3, subChannel: 0, value: 10, status: 'ok', dateTime: 'a' },
        { id: 2, deviceId: 7, deviceChannelTemplateId: 4, subChannel: 0, value: 20, status: 'ok', dateTime: 'a' },
        { id: 3, deviceId: 7, deviceChannelTemplateId: 4, subChannel: 2, value: 30, status: 'ok', dateTime: 'a' },
      ]),
    );
    applyLiveEvent(client, {
      type: 'value',
      deviceId: 7,
      deviceChannelTemplateId: 4,
      subChannel: 2,
      channelCode: 'dim',
      value: 55,
      status: 'out_of_range',
      dateTime: 'b',
    });
    // Only the sub-channel the value belongs to moves.
    expect(client.getQueryData<{ content: unknown[] }>(key)?.content).toEqual([
      { id: 1, deviceId: 7, deviceChannelTemplateId: 3, subChannel: 0, value: 10, status: 'ok', dateTime: 'a' },
      { id: 2, deviceId: 7, deviceChannelTemplateId: 4, subChannel: 0, value: 20, status: 'ok', dateTime: 'a' },
      {
        id: 3,
        deviceId: 7,
        deviceChannelTemplateId: 4,
        subChannel: 2,
        value: 55,
        status: 'out_of_range',
        dateTime: 'b',
      },
    ]);
  });

  it("refetches a device's list that lacks a new channel, once for a burst", () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    client.setQueryData(keys.list('channel-values', params({ deviceId: 7 })), page([]));
    for (let i = 0; i < 5; i++)
      applyLiveEvent(client, {
        type: 'value',
        deviceId: 7,
        deviceChannelTemplateId: i,
        subChannel: 0,
        channelCode: 'x',
        value: i,
        status: 'ok',
        dateTime: 'b',
      });
    // A value of a device no cached list is filtered to does not refetch anything.
    applyLiveEvent(client, {
      type: 'value',
      deviceId: 8,
      deviceChannelTemplateId: 1,
      subChannel: 0,
      channelCode: 'x',
      value: 1,
      status: 'ok',
      dateTime: 'b',
    });
    vi.advanceTimersByTime(1500);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: keys.lists('channel-values') });
  });

  it("follows a write's status and a device's connection in place", () => {
    const client = new QueryClient();
    const writes = keys.list('channel-write-values', params(null));
    const statuses = keys.list('device-connection-status', params({ deviceId: [7, 8] }));
    client.setQueryData(writes, page([{ id: 31, deviceId: 7, value: 30, status: 'pending', message: null }]));
    client.setQueryData(statuses, page([{ id: 1, deviceId: 8, status: 'online', rssi: -90, snr: 5, dateTime: 'a' }]));
    applyLiveEvent(client, {
      type: 'write',
      id: 31,
      deviceId: 7,
      deviceChannelTemplateId: 4,
      value: 30,
      status: 'acknowledged',
      message: null,
      sentAt: '2026-11-22T04:00:00.000Z',
      answeredAt: '2026-11-22T04:00:02.000Z',
      updatedAt: '2026-11-22T04:00:02.000Z',
    });
    applyLiveEvent(client, { type: 'status', deviceId: 8, status: 'offline', dateTime: 'b', rssi: null, snr: null });
    expect(client.getQueryData<{ content: unknown[] }>(writes)?.content[0]).toMatchObject({
      status: 'acknowledged',
      sentAt: '2026-11-22T04:00:00.000Z',
      answeredAt: '2026-11-22T04:00:02.000Z',
      updatedAt: '2026-11-22T04:00:02.000Z',
    });
    expect(client.getQueryData<{ content: unknown[] }>(statuses)?.content[0]).toMatchObject({
      status: 'offline',
      dateTime: 'b',
    });
  });
});
