import type {
  AlarmReport,
  AlarmReportRequest,
  AssetReport,
  AssetReportRequest,
  EnergyReport,
  EnergyReportRequest,
  MaintenanceReport,
  MaintenanceReportRequest,
  ReportKind,
  ReportTemplate,
  ReportTemplateInput,
} from '@lampyr/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../lib/api-client.ts';
import { keys } from '../lib/query-keys.ts';

/** Each report the query API computes (`POST reports/<kind>`): its request and its answer. */
interface Reports {
  /** Energy, baseline and savings over a period, grouped, with a per-day series. */
  energy: { request: EnergyReportRequest; report: EnergyReport };
  /** Alarm counts and mean times to acknowledge and clear, grouped, with a per-day series. */
  alarms: { request: AlarmReportRequest; report: AlarmReport };
  /** The device inventory grouped: online share, faults and health. */
  assets: { request: AssetReportRequest; report: AssetReport };
  /** Open work orders, repairs and mean times, by fault type or region. */
  maintenance: { request: MaintenanceReportRequest; report: MaintenanceReport };
}
export type ReportRequestOf<K extends ReportKind> = Reports[K]['request'];
export type ReportOf<K extends ReportKind> = Reports[K]['report'];

/** A report for a period, grouped and paged; the page on screen stays while the next one loads. */
export function useReport<K extends ReportKind>(kind: K, body: ReportRequestOf<K>) {
  return useQuery({
    queryKey: keys.report(kind, body),
    queryFn: ({ signal }) => request<ReportOf<K>>('query', `reports/${kind}`, { method: 'POST', body, signal }),
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
