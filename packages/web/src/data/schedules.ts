import type { RunningSchedules, SchedulePreview, SchedulePreviewRequest } from '@lampyr/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';

/** The plan of a group, device or street for the coming nights (`body` undefined: nothing asked yet). */
export function useSchedulePreview(body: SchedulePreviewRequest | undefined) {
  return useQuery({
    queryKey: keys.view('schedules', JSON.stringify(body ?? null)),
    queryFn: ({ signal }) =>
      request<SchedulePreview>('query', '/schedules/preview', { method: 'POST', body, signal, timeoutMs: 60_000 }),
    enabled: body !== undefined,
  });
}

/** What each task group does now and next, and what the scheduler sent lately. */
export function useRunningSchedules() {
  return useQuery({
    queryKey: keys.view('schedules', 'running'),
    queryFn: ({ signal }) => request<RunningSchedules>('query', '/schedules/running', { signal }),
    refetchInterval: 30_000,
  });
}
