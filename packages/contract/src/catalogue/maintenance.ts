import { field } from '../fields.ts';
import { defineResource } from '../resource.ts';
import { WORK_ORDER_ACTIONS, WORK_ORDER_STATUSES } from '../work-orders.ts';
import { FAULT_RULES } from './alerts.ts';

export const FAULT_TYPES = [
  'lamp_failure',
  'no_power',
  'over_voltage',
  'communication',
  'physical_damage',
  'other',
  // Detected by the fault engine (engines/faults), besides lamp_failure, over_voltage and communication.
  'day_burning',
  'cycling',
  'under_voltage',
  'low_power_factor',
  'power_mismatch',
] as const;

/** Who found a fault: a person reported it, or the fault engine detected it. */
export const FAULT_SOURCES = ['reported', 'detected'] as const;

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
    // The work order (work-orders.ts): where the fault is, and what the workflow's commands set.
    latitude: field.number({ min: -90, max: 90 }),
    longitude: field.number({ min: -180, max: 180 }),
    hasPhoto: field.boolean({ readOnly: true }),
    assigneeId: field.ref('users', { readOnly: true, list: true }),
    crew: field.text({ readOnly: true, search: true }),
    plannedDate: field.date({ readOnly: true, list: true }),
    startedAt: field.datetime({ readOnly: true }),
    resolvedAt: field.datetime({ readOnly: true }),
    resolution: field.longText({ readOnly: true, search: true }),
    partsUsed: field.longText({ readOnly: true, search: true }),
    closedAt: field.datetime({ readOnly: true }),
    reopenCount: field.integer({ readOnly: true }),
    duplicateOfId: field.ref('report-a-fault', { readOnly: true }),
    reporter: field.text({ list: true, search: true }),
    reportedAt: field.datetime({ required: true, list: true }),
    // Moved only by the workflow's commands (a new report is open).
    status: field.enum(WORK_ORDER_STATUSES, { readOnly: true, list: true }),
    // Set by the fault engine for what it detects; a person's report is `reported`.
    source: field.enum(FAULT_SOURCES, { readOnly: true, list: true }),
    alertLogId: field.ref('alert-logs', { readOnly: true }),
    ruleCode: field.enum([...FAULT_RULES, 'communicationLoss'], { readOnly: true, list: true }),
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
    faultReportId: field.ref('report-a-fault', { list: true }),
  },
});

export const maintenanceHistory = defineResource({
  name: 'maintenance-history',
  route: 'maintenance-fault/maintenance-history',
  scope: 'account',
  display: 'id',
  defaultSort: 'performedAt,desc',
  // Written by the work order commands: the history of what was done, by whom, when.
  readOnly: true,
  fields: {
    deviceId: field.ref('devices', { list: true }),
    action: field.enum(WORK_ORDER_ACTIONS, { list: true }),
    work: field.longText({ required: true, list: true, search: true }),
    partsUsed: field.longText({ search: true }),
    performedBy: field.text({ required: true, list: true, search: true }),
    performedAt: field.datetime({ required: true, list: true }),
    faultReportId: field.ref('report-a-fault', { list: true }),
  },
});
