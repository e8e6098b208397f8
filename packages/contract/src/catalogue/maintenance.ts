import { field } from '../fields.ts';
import { defineResource } from '../resource.ts';

export const FAULT_TYPES = [
  'lamp_failure',
  'no_power',
  'over_voltage',
  'communication',
  'physical_damage',
  'other',
] as const;

export const faultReports = defineResource({
  name: 'report-a-fault',
  route: 'maintenance-fault/report-a-fault',
  scope: 'account',
  display: 'id',
  defaultSort: 'reportedAt,desc',
  fields: {
    deviceId: field.ref('devices', { required: true, list: true }),
    faultType: field.enum(FAULT_TYPES, { required: true, list: true }),
    description: field.longText({ search: true }),
    reporter: field.text({ list: true, search: true }),
    reportedAt: field.datetime({ required: true, list: true }),
    status: field.enum(['open', 'in_progress', 'resolved', 'closed'], { required: true, list: true }),
  },
});

export const maintenancePlanning = defineResource({
  name: 'maintenance-planning',
  route: 'maintenance-fault/maintenance-planning',
  scope: 'account',
  display: 'title',
  defaultSort: 'dueDate,asc',
  fields: {
    title: field.text({ required: true, list: true, search: true }),
    deviceId: field.ref('devices', { list: true }),
    regionId: field.ref('regions', { list: true }),
    work: field.longText({ required: true, search: true }),
    dueDate: field.date({ required: true, list: true }),
    assignee: field.text({ list: true, search: true }),
    status: field.enum(['planned', 'in_progress', 'done', 'cancelled'], { required: true, list: true }),
  },
});

export const maintenanceHistory = defineResource({
  name: 'maintenance-history',
  route: 'maintenance-fault/maintenance-history',
  scope: 'account',
  display: 'id',
  defaultSort: 'performedAt,desc',
  fields: {
    deviceId: field.ref('devices', { list: true }),
    work: field.longText({ required: true, list: true, search: true }),
    performedBy: field.text({ required: true, list: true, search: true }),
    performedAt: field.datetime({ required: true, list: true }),
    faultReportId: field.ref('report-a-fault', { list: true }),
  },
});
