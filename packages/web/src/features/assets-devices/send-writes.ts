import { type ChannelTemplate, writeTemplate } from '../../data/device-data.ts';
import { createRecord, type Row } from '../../lib/resource-api.ts';

/** `lamp` 1/0, `dim` 0–100, or any other write channel of the devices' models with its value. */
export type Command = { code: string; value: number };

export interface SendResult {
  sent: number;
  /** Devices whose model has no write channel for the command. */
  unsupported: number;
  failed: { deviceId: number; error: unknown }[];
}

const PARALLEL = 6;

/**
 * One channel write per device through the write channel of its model: `lamp` 1/0 for on/off,
 * `dim` 0–100 for the level. The server sends each downlink and reports its progress live.
 */
export async function sendCommand(
  devices: readonly Row[],
  templates: readonly ChannelTemplate[],
  command: Command,
  create: (body: Record<string, unknown>) => Promise<unknown> = (body) => createRecord('channel-write-values', body),
): Promise<SendResult> {
  const result: SendResult = { sent: 0, unsupported: 0, failed: [] };
  const jobs: { deviceId: number; templateId: number }[] = [];
  for (const device of devices) {
    const template = writeTemplate(templates, device.deviceTypeModelId as number, command.code);
    if (template) jobs.push({ deviceId: device.id, templateId: template.id });
    else result.unsupported++;
  }
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++] as (typeof jobs)[number];
      try {
        await create({ deviceId: job.deviceId, deviceChannelTemplateId: job.templateId, value: command.value });
        result.sent++;
      } catch (error) {
        result.failed.push({ deviceId: job.deviceId, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, worker));
  return result;
}
