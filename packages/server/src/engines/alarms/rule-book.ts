import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { type Bounds, CONDITION_NAMES, type Condition } from './conditions.ts';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * What the alarm engine knows of one rule on one sub-channel of its device: the newest value time
 * judged and the active alarm's id. The engine keeps these across reloads of the rules.
 */
export interface RuleSlot {
  readonly deviceId: number;
  lastAt: number;
  alarmId: number | undefined;
}

/** A template compiled for one channel of one device. */
export interface Rule extends Bounds {
  templateId: number;
  templateName: string;
  alertLevel: string;
  channelTemplateId: number;
  channelCode: string;
  channelName: string;
  unit: string | null;
  /** Judged only while the device's lamp is on (an electrical fault of a lamp switched off is none). */
  whileLampOn: boolean;
  /** The engine's slots of this rule by sub-channel, found once per reload (no key built per value). */
  slots: (RuleSlot | undefined)[];
}

export interface WatchedDevice {
  accountId: number;
  deviceTypeId: number | null;
  regionId: number | null;
  /** Channel template id → the rules watching it (every sub-channel of it). */
  byChannel: Map<number, Rule[]>;
  /** The channel that says whether the lamp is on: the model's `lamp` channel, else its `dim`. */
  lampChannelId: number | null;
}

/**
 * The templates that watch each device's channels, compiled from the database in one pass (five
 * queries, whatever the fleet's size): those paired with the device, and those of the enabled
 * parameter groups of its model — always of the device's own account. A template watches the channel
 * it names, or the channel of the device's model whose alert parameter code is the template's code;
 * a template naming a channel of another model watches nothing.
 */
export async function loadRuleBook(db: Db): Promise<Map<number, WatchedDevice>> {
  const [devices, channels, templates, pairings] = await Promise.all([
    db.execute(sql`
      SELECT d.id, d.account_id, d.region_id, d.device_type_model_id, m.device_type_id
      FROM devices d JOIN device_models m ON m.id = d.device_type_model_id
      WHERE d.is_active`),
    db.execute(sql`
      SELECT id, device_type_model_id, name, channel_code, unit, alert_parameter_code
      FROM device_channel_templates`),
    db.execute(sql`
      SELECT t.id, t.account_id, t.name, t.condition, t.value, t.value2, t.threshold, t.alert_level, t.unit, t.while_lamp_on,
             t.channel_template_id, t.code, g.device_type_model_id AS group_model_id, coalesce(g.enable, false) AS group_enabled
      FROM alert_parameter_templates t LEFT JOIN alert_parameter_groups g ON g.id = t.group_id`),
    db.execute(sql`SELECT alert_template_id, device_id FROM alert_device_pairing`),
  ]);

  type Channel = { id: number; modelId: number; code: string; name: string; unit: string | null };
  const channelById = new Map<number, Channel>();
  const channelByCode = new Map<string, Channel>();
  const lampChannel = new Map<number, number>();
  for (const row of rowsOf(channels)) {
    const channel: Channel = {
      id: Number(row.id),
      modelId: Number(row.device_type_model_id),
      code: String(row.channel_code ?? ''),
      name: String(row.name ?? ''),
      unit: (row.unit as string | null) ?? null,
    };
    channelById.set(channel.id, channel);
    if (channel.code === 'lamp' || (channel.code === 'dim' && !lampChannel.has(channel.modelId)))
      lampChannel.set(channel.modelId, channel.id);
    if (row.alert_parameter_code) channelByCode.set(`${channel.modelId}:${row.alert_parameter_code}`, channel);
  }

  type Template = {
    id: number;
    accountId: number;
    name: string;
    bounds: Bounds;
    alertLevel: string;
    unit: string | null;
    channelTemplateId: number | null;
    code: string | null;
    groupModelId: number | null;
    groupEnabled: boolean;
    whileLampOn: boolean;
  };
  const templateById = new Map<number, Template>();
  const byModel = new Map<number, Template[]>();
  for (const row of rowsOf(templates)) {
    const condition = String(row.condition) as Condition;
    const value = num(row.value);
    const value2 = num(row.value2);
    // Stored before the checks existed, or by hand: an unknown condition or a band without its
    // upper bound watches nothing rather than raising on every value.
    if (!CONDITION_NAMES.includes(condition) || value === null) continue;
    if ((condition === 'between' || condition === 'notBetween') && (value2 === null || value2 < value)) continue;
    const template: Template = {
      id: Number(row.id),
      accountId: Number(row.account_id),
      name: String(row.name),
      bounds: { condition, value, value2: value2 ?? value, threshold: Math.max(0, num(row.threshold) ?? 0) },
      alertLevel: String(row.alert_level),
      unit: (row.unit as string | null) ?? null,
      channelTemplateId: num(row.channel_template_id),
      code: (row.code as string | null) ?? null,
      groupModelId: num(row.group_model_id),
      groupEnabled: Boolean(row.group_enabled),
      whileLampOn: row.while_lamp_on === true,
    };
    templateById.set(template.id, template);
    if (template.groupEnabled && template.groupModelId !== null) {
      const list = byModel.get(template.groupModelId) ?? [];
      list.push(template);
      byModel.set(template.groupModelId, list);
    }
  }
  const pairedTo = new Map<number, Template[]>();
  for (const row of rowsOf(pairings)) {
    const template = templateById.get(Number(row.alert_template_id));
    if (!template) continue;
    const deviceId = Number(row.device_id);
    const list = pairedTo.get(deviceId) ?? [];
    list.push(template);
    pairedTo.set(deviceId, list);
  }

  const book = new Map<number, WatchedDevice>();
  for (const row of rowsOf(devices)) {
    const deviceId = Number(row.id);
    const accountId = Number(row.account_id);
    const modelId = Number(row.device_type_model_id);
    const watching = new Map<number, Template>();
    for (const t of [...(byModel.get(modelId) ?? []), ...(pairedTo.get(deviceId) ?? [])]) {
      if (t.accountId === accountId) watching.set(t.id, t);
    }
    if (!watching.size) continue;
    const byChannel = new Map<number, Rule[]>();
    for (const t of watching.values()) {
      const named = t.channelTemplateId === null ? undefined : channelById.get(t.channelTemplateId);
      const channel =
        named?.modelId === modelId ? named : t.code ? channelByCode.get(`${modelId}:${t.code}`) : undefined;
      if (!channel) continue;
      const rules = byChannel.get(channel.id) ?? [];
      // Every field written out, never spread from the bounds: spread copies took hidden classes of
      // their own, and judging a value against them went megamorphic (1.3 µs a value, measured, ~0.1 µs
      // written out).
      const { condition, value, value2, threshold } = t.bounds;
      rules.push({
        condition,
        value,
        value2,
        threshold,
        templateId: t.id,
        templateName: t.name,
        alertLevel: t.alertLevel,
        channelTemplateId: channel.id,
        channelCode: channel.code,
        channelName: channel.name,
        unit: t.unit ?? channel.unit,
        whileLampOn: t.whileLampOn,
        slots: [],
      });
      byChannel.set(channel.id, rules);
    }
    if (byChannel.size) {
      book.set(deviceId, {
        accountId,
        deviceTypeId: num(row.device_type_id),
        regionId: num(row.region_id),
        byChannel,
        lampChannelId: lampChannel.get(modelId) ?? null,
      });
    }
  }
  return book;
}
