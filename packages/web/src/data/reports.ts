import type { EnergyReport, EnergyReportRequest } from '@lampyr/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';

/** The energy and savings report for a period, grouped and paged. */
export function useEnergyReport(body: EnergyReportRequest) {
  return useQuery({
    queryKey: keys.report('energy', body),
    queryFn: ({ signal }) => request<EnergyReport>('query', 'reports/energy', { method: 'POST', body, signal }),
    placeholderData: keepPreviousData,
  });
}
