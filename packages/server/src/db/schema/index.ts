export * from './alerts.ts';
export * from './assets.ts';
export * from './auth.ts';
export * from './energy.ts';
export * from './gateways.ts';
export * from './lamp-values.ts';
export * from './logs.ts';
export * from './maintenance.ts';
export * from './reports.ts';
export { resourceTables } from './resource-table.ts';
export * from './system.ts';
export * from './tasks.ts';

/** Columns only the server uses, which the catalogue rightly does not show. */
export const internalColumns: Record<string, string[]> = {
  'channel-read-values': ['frameKey'],
  // Identity belongs to the person: no generic write sets a password or a pending address.
  users: ['passwordHash', 'pendingEmail', 'tokenVersion'],
  devices: ['mqttPasswordEncrypted'],
  'channel-write-values': ['downlinkId', 'confirmed'],
  // The command's arguments, its wire id and its timer are the deployment engine's.
  'deploy-response-logs': ['command', 'downlinkId', 'nextAttemptAt'],
  // A scheduled report's file, attached by the sender; the list shows the row, not the file.
  'alert-notification-list': ['attachmentId'],
  // The gateways that heard a device's newest frame: the gateway-health watcher's.
  'device-connection-status': ['gatewayEuis'],
};
