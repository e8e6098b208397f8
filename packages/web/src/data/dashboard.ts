import { useQuery } from '@tanstack/react-query';
import { keys } from '../lib/query-keys.ts';
import { fetchDashboardSummary } from '../lib/resource-api.ts';

/** The dashboard's summary of the selected account, for one device type or all (`null`). */
export function useDashboardSummary(deviceTypeId: number | null) {
  return useQuery({
    queryKey: keys.dashboardSummary(deviceTypeId),
    queryFn: ({ signal }) => fetchDashboardSummary(deviceTypeId, { signal }),
    refetchInterval: 60_000,
  });
}
