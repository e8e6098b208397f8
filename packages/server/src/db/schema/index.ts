import type { PgTable } from 'drizzle-orm/pg-core';
import * as assets from './assets.ts';
import * as operations from './operations.ts';
import * as system from './system.ts';

export * from './assets.ts';
export * from './operations.ts';
export * from './system.ts';

/** The table behind each catalogue resource, by resource name. */
export const resourceTables: Record<string, PgTable> = {
  accounts: system.accounts,
  roles: system.roles,
  users: system.users,
  'users-roles': system.usersRoles,
  countries: system.countries,
  states: system.states,
  cities: system.cities,
  addresses: system.addresses,
  regions: system.regions,
  sunsetsunrises: system.sunsetSunrises,
  'system-log-settings': system.systemLogSettings,
  'transaction-logs': system.transactionLogs,
  'device-topology-types': assets.deviceTopologyTypes,
  'device-type-protocols': assets.deviceTypeProtocols,
  'devices-types': assets.deviceTypes,
  'device-models': assets.deviceModels,
  devices: assets.devices,
  'device-topology': assets.deviceTopology,
  'device-connection-status': assets.deviceConnectionStatus,
  'device-node-loss-settings': assets.deviceNodeLossSettings,
  'channel-value-types': assets.channelValueTypes,
  'device-channel-templates': assets.deviceChannelTemplates,
  'sub-device-channel-templates': assets.subDeviceChannelTemplates,
  'channel-values': assets.channelValues,
  'channel-read-values': assets.channelReadValues,
  'channel-write-values': assets.channelWriteValues,
  'alert-device-parameter-groups': operations.alertParameterGroups,
  'alert-device-parameter-templates': operations.alertParameterTemplates,
  'alert-events': operations.alertEvents,
  'alert-device-pairing': operations.alertDevicePairing,
  'alert-logs': operations.alertLogs,
  'alert-event-logs': operations.alertEventLogs,
  'alert-notification-settings': operations.alertNotificationSettings,
  'alert-notification-list': operations.alertNotificationList,
  'task-types': operations.taskTypes,
  profiles: operations.taskProfiles,
  'task-groups': operations.taskGroups,
  'task-group-profiles': operations.taskGroupProfiles,
  'task-profile-timings': operations.taskProfileTimings,
  'task-profile-execution-periods': operations.taskProfileExecutionPeriods,
  autonomous: operations.autonomousProfiles,
  'deploy-response-logs': operations.deployResponseLogs,
  'task-control-logs': operations.taskControlLogs,
  gateway: operations.gateways,
  gatewaydeviceprofile: operations.gatewayDeviceProfiles,
  gatewayapplication: operations.gatewayApplications,
  gatewaydevicepairing: operations.gatewayDevicePairing,
  gatewaymulticastgroup: operations.multicastGroups,
  'report-a-fault': operations.faultReports,
  'maintenance-planning': operations.maintenancePlanning,
  'maintenance-history': operations.maintenanceHistory,
  'data-logs': operations.dataLogs,
  'system-logs': operations.systemLogs,
};

/** Columns only the server uses, which the catalogue rightly does not show. */
export const internalColumns: Record<string, string[]> = {
  'channel-read-values': ['frameKey'],
};
