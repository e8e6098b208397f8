import { sql } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import { ApiException } from '../errors/api-exception.ts';
import { fieldLabel } from '../i18n/translate.ts';
import type { Executor } from './resource-repository.ts';

/**
 * An alert template's channel is one of its parameter group's device model (DEVICES.md "Alarms": a
 * template watches the channel it names on the devices of that model); a channel of another model
 * would watch nothing, so it is refused with a field message.
 */
export async function checkAlertTemplate(executor: Executor, record: Record<string, unknown>, t: TFunction) {
  const channelId = record.channelTemplateId;
  const groupId = record.groupId;
  if (typeof channelId !== 'number' || typeof groupId !== 'number') return;
  const result = (await executor.execute(sql`
    SELECT g.device_type_model_id AS group_model, c.device_type_model_id AS channel_model
    FROM alert_parameter_groups g, device_channel_templates c
    WHERE g.id = ${groupId} AND c.id = ${channelId}`)) as unknown as { rows: Record<string, unknown>[] };
  const row = result.rows[0];
  if (!row || row.group_model === null || row.group_model === undefined) return;
  if (Number(row.group_model) === Number(row.channel_model)) return;
  throw new ApiException(
    'VALIDATION',
    undefined,
    {},
    {
      channelTemplateId: t('validation.alertTemplateChannel', {
        field: fieldLabel(t, 'alert-device-parameter-templates', 'channelTemplateId'),
      }),
    },
  );
}
