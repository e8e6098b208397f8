import type {
  AlarmReport,
  AlarmReportRequest,
  AssetReport,
  AssetReportRequest,
  EnergyReport,
  EnergyReportRequest,
  MaintenanceReport,
  MaintenanceReportRequest,
  ReportTemplate,
  ReportTemplateInput,
} from '@lampyr/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/** The alarm report: counts and mean times to acknowledge and clear, grouped, with a per-day series. */
export function useAlarmReport(body: AlarmReportRequest) {
  return useQuery({
    queryKey: keys.report('alarms', body),
    queryFn: ({ signal }) => request<AlarmReport>('query', 'reports/alarms', { method: 'POST', body, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The device-asset report: the inventory grouped, online share, faults and health. */
export function useAssetReport(body: AssetReportRequest) {
  return useQuery({
    queryKey: keys.report('assets', body),
    queryFn: ({ signal }) => request<AssetReport>('query', 'reports/assets', { method: 'POST', body, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The fault and maintenance KPI report: open work orders, repairs and mean times, by fault type or region. */
export function useMaintenanceReport(body: MaintenanceReportRequest) {
  return useQuery({
    queryKey: keys.report('maintenance', body),
    queryFn: ({ signal }) =>
      request<MaintenanceReport>('query', 'reports/maintenance', { method: 'POST', body, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The account's report templates. */
export function useReportTemplates() {
  return useQuery({
    queryKey: keys.reportTemplates(),
    queryFn: ({ signal }) => request<ReportTemplate[]>('query', 'report-templates', { signal }),
  });
}

/** Saves a new template, or changes one (`id`). */
export function useSaveReportTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ReportTemplateInput }) =>
      request<ReportTemplate>('command', id ? `report-templates/${id}` : 'report-templates', {
        method: id ? 'PUT' : 'POST',
        body: input,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.reportTemplates() }),
  });
}

export function useDeleteReportTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      request<{ id: number }>('command', `report-templates/${id}`, { method: 'DELETE', body: {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.reportTemplates() }),
  });
}
