import type { ReportFaultBody, ReportFaultResult, WorkOrderBody, WorkOrderTransition } from '@lampyr/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, send } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';
import type { Row } from '../lib/resource-api.ts';
import { selectedAccountId } from '../lib/session-storage.ts';

const FAULTS = 'report-a-fault';

/** What a work order command changes: the work orders, their histories and plans, the KPIs. */
function useAfterWorkOrderChange() {
  const client = useQueryClient();
  return async () => {
    await Promise.all(
      [FAULTS, 'maintenance-history', 'maintenance-planning', 'reports'].map((prefix) =>
        client.invalidateQueries({ queryKey: keys.resource(prefix) }),
      ),
    );
  };
}

/** One step of a work order (assign, plan, start, resolve, close, reopen); answers the work order. */
export function useWorkOrderTransition() {
  const after = useAfterWorkOrderChange();
  return useMutation({
    mutationFn: ({ step, body }: { step: WorkOrderTransition; body: WorkOrderBody<WorkOrderTransition> }) =>
      request<Row>('command', `work-orders/${step}`, { method: 'POST', body }),
    onSuccess: after,
  });
}

/** A person reports a fault (with a photo and a location); it may reopen a work order closed within the week. */
export function useReportFault() {
  const after = useAfterWorkOrderChange();
  return useMutation({
    mutationFn: (body: ReportFaultBody) =>
      request<ReportFaultResult & { reportId: number; record: Row }>('command', 'work-orders/report', {
        method: 'POST',
        body,
        timeoutMs: 120_000,
      }),
    onSuccess: after,
  });
}

export interface Assignee {
  id: number;
  name: string;
  email: string;
}

/** The people a work order of the selected account can be given to. */
export function useAssignees() {
  return useQuery({
    queryKey: keys.view(FAULTS, 'assignees'),
    queryFn: ({ signal }) => request<Assignee[]>('query', 'work-orders/assignees', { signal }),
    enabled: selectedAccountId() !== undefined,
    staleTime: 60_000,
  });
}

/** A work order's history, oldest first (what was done, by whom, when). */
export function useWorkOrderHistory(faultReportId: number) {
  return useQuery({
    queryKey: keys.list('maintenance-history', { faultReportId }),
    queryFn: ({ signal }) =>
      request<{ content: Row[]; totalElements: number }>('query', 'maintenance-history', {
        method: 'POST',
        body: {
          filter: { faultReportId },
          detailFilter: [],
          selectedColumns: null,
          pageable: { page: 1, size: 200, sort: ['performedAt,asc', 'id,asc'] },
        },
        signal,
      }),
  });
}

/** A fault report's photo as a data URL (read with the session's headers, so never a bare link). */
export function useFaultPhoto(id: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.detail(FAULTS, `${id}/photo`),
    queryFn: async ({ signal }) => {
      const response = await send('query', `work-orders/${id}/photo`, { signal });
      const blob = await response.blob();
      return new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(blob);
      });
    },
    enabled,
    staleTime: 5 * 60_000,
  });
}
