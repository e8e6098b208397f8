import type { DeviceDirectory, KnownDevice } from './device-directory.ts';

export type RefusalReason = 'device_inactive' | 'account_inactive' | 'application_mismatch';

export interface Refusal {
  reason: RefusalReason;
  /** Whose data log keeps the message: the device's account, or the application's on a mismatch. */
  accountId?: number;
}

/**
 * Why a message from this device must not be taken, if it must not: the device or its account is
 * deactivated, or (ChirpStack) the topic's application is not one of the device's account (or of
 * the integrator above it) — a DevEUI registered in one account cannot receive another's uplinks.
 */
export async function refusalOf(
  directory: DeviceDirectory,
  device: KnownDevice,
  applicationId?: string,
): Promise<Refusal | undefined> {
  if (applicationId !== undefined) {
    const owner = await directory.accountOfApplication(applicationId);
    const lineage = await directory.lineageOf(device.accountId);
    const named = device.applicationId === null || device.applicationId.toLowerCase() === applicationId.toLowerCase();
    if (owner === undefined || !lineage.includes(owner) || !named)
      return { reason: 'application_mismatch', accountId: owner };
  }
  if (!device.accountActive) return { reason: 'account_inactive', accountId: device.accountId };
  if (!device.isActive) return { reason: 'device_inactive', accountId: device.accountId };
  return undefined;
}
