import type { Db } from '../db/connect.ts';
import { alertDevicePairing, alertEvents, alertParameterTemplates } from '../db/schema/index.ts';

type Tx = Pick<Db, 'insert'>;

/**
 * The demo's alarm rules (DEVICES.md "Alarms"): over-voltage above 253 V (EN 50160's +10 %),
 * under-voltage below 207 V (−10 %), and lamp failure (the lamp draws under 5 W). They belong to the
 * street-light group of the metering model, so every SLC-L2 light is watched; the IP controllers and
 * the SLC-L1 lights (which meter power only) are paired with them. Codes are the channels' alert
 * parameter codes, so a paired device of another model is watched on its own channel of that code.
 */
export async function seedAlarmRules(
  tx: Tx,
  demo: {
    accountId: number;
    groupId: number;
    /** The metering model's channels by code. */
    channels: Map<string, number>;
    /** Devices with voltage and power (the IP controllers). */
    meteringDeviceIds: number[];
    /** Devices with power only (SLC-L1). */
    powerOnlyDeviceIds: number[];
  },
): Promise<void> {
  const { accountId, groupId, channels } = demo;
  const [over, under, lampFailure] = await tx
    .insert(alertParameterTemplates)
    .values([
      {
        accountId,
        name: 'Over-voltage',
        groupId,
        condition: 'gt',
        value: 253,
        threshold: 5,
        unit: 'V',
        alertLevel: 'high',
        channelTemplateId: channels.get('voltage'),
        code: 'VOLTAGE',
      },
      {
        accountId,
        name: 'Under-voltage',
        groupId,
        condition: 'lt',
        value: 207,
        threshold: 5,
        unit: 'V',
        alertLevel: 'medium',
        channelTemplateId: channels.get('voltage'),
        code: 'VOLTAGE',
      },
      {
        accountId,
        name: 'Lamp failure',
        groupId,
        condition: 'lt',
        value: 5,
        threshold: 5,
        unit: 'W',
        alertLevel: 'high',
        channelTemplateId: channels.get('power'),
        code: 'POWER',
        // Lamps switched off by their schedule draw nothing too: only a lamp that is on has failed.
        whileLampOn: true,
      },
    ])
    .returning({ id: alertParameterTemplates.id });
  const pairs = [
    ...demo.meteringDeviceIds.flatMap((deviceId) =>
      [over, under, lampFailure].map((t) => ({ accountId, alertTemplateId: t?.id as number, deviceId })),
    ),
    ...demo.powerOnlyDeviceIds.map((deviceId) => ({ accountId, alertTemplateId: lampFailure?.id as number, deviceId })),
  ];
  if (pairs.length) await tx.insert(alertDevicePairing).values(pairs);
}

/**
 * An alert event that e-mails the administrator about any alarm of the account once it has held for
 * a minute (a spike mails nobody), again every 30 minutes while nobody acknowledges it.
 */
export async function seedAlarmMail(tx: Tx, demo: { accountId: number; adminEmail: string }): Promise<void> {
  await tx.insert(alertEvents).values({
    accountId: demo.accountId,
    eventName: 'E-mail the administrator',
    isForever: true,
    priority: 1,
    status: 'active',
    turnToAlarm: true,
    durationOfAlarm: 1,
    reportingFrequency: 30,
    notifyEmail: true,
    emailList: demo.adminEmail,
    notifyPush: true,
  });
}
