import type { FaultRule } from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { clears, holds } from '../engines/alarms/conditions.ts';
import { loadRuleBook, type WatchedDevice } from '../engines/alarms/rule-book.ts';
import { CommandedSource } from '../engines/faults/commanded.ts';
import {
  FAULT_CHANNEL_CODES,
  judgeSample,
  type LampSample,
  newDeviceState,
  reportedCommand,
  scaledTimings,
} from '../engines/faults/fault-judge.ts';
import { RULE_LEVELS, THRESHOLDS } from '../engines/faults/fault-rules.ts';
import { translator } from '../i18n/translate.ts';
import { rowsOf } from '../ingest/array-codec.ts';
import type { DemoFault } from './demo-faults.ts';
import type { HistorySample } from './history-readings.ts';

const MINUTE = 60_000;

/** One alarm of the history: raised at one reading, cleared at a later one (or still active at the end). */
export interface AlarmEpisode {
  deviceId: number;
  kind: FaultRule | 'threshold' | 'nodeLoss';
  level: string;
  at: number;
  clearedAt: number | null;
  clearReason: 'value' | 'recovery';
  value: number | null;
  unit: string | null;
  details: Record<string, unknown> | null;
  name: string;
  templateId: number | null;
  channelTemplateId: number | null;
  channelType: string | null;
  channelValue: string | null;
}

export interface FaultyLight {
  deviceId: number;
  accountId: number;
  fault: DemoFault;
  samples: HistorySample[];
  /** The light's channel templates: code → id. */
  channels: Map<string, number>;
}

/**
 * What the engines would have made of the readings of lights with faults: the alarm templates that
 * watch them (threshold alarms), the lamp fault rules against what their schedule commanded then, and
 * their node-loss settings — each alarm with the times of the readings that raised and cleared it.
 */
export async function alarmEpisodes(db: Db, lights: FaultyLight[]): Promise<AlarmEpisode[]> {
  const t = translator('en');
  const episodes: AlarmEpisode[] = [];
  const book = await loadRuleBook(db);
  const commanded = new CommandedSource(db);
  const ids = lights.map((l) => l.deviceId);
  await commanded.prepare(ids);
  const models = await lampModels(db, ids);
  const nodeLoss = await nodeLossSettings(db, ids);
  for (const light of lights) {
    episodes.push(...thresholdAlarms(light, book.get(light.deviceId)));
    episodes.push(...(await faultAlarms(light, commanded, models.get(light.deviceId), t)));
    const setting = nodeLoss.get(light.deviceId);
    if (setting) episodes.push(...nodeLossAlarms(light, setting));
  }
  return episodes;
}

/** The alarm templates' verdicts (DEVICES.md "Alarms"): raise when the condition holds, clear past its hysteresis. */
function thresholdAlarms(light: FaultyLight, watched: WatchedDevice | undefined): AlarmEpisode[] {
  if (!watched) return [];
  const codeOf = new Map([...light.channels].map(([code, id]) => [id, code]));
  const lampCode = watched.lampChannelId === null ? undefined : codeOf.get(watched.lampChannelId);
  const open = new Map<number, AlarmEpisode>();
  const out: AlarmEpisode[] = [];
  for (const s of light.samples) {
    const lampOn = lampCode === undefined ? undefined : (s.values[lampCode] ?? 0) > 0;
    for (const [channelId, rules] of watched.byChannel) {
      const value = s.values[codeOf.get(channelId) ?? ''];
      if (value === undefined) continue;
      for (const rule of rules) {
        if (rule.whileLampOn && lampOn !== true) continue;
        const active = open.get(rule.templateId);
        if (active) {
          if (clears(rule, value)) {
            active.clearedAt = s.at;
            open.delete(rule.templateId);
          }
        } else if (holds(rule, value)) {
          const episode: AlarmEpisode = {
            deviceId: light.deviceId,
            kind: 'threshold',
            level: rule.alertLevel,
            at: s.at,
            clearedAt: null,
            clearReason: 'value',
            value,
            unit: rule.unit,
            details: null,
            name: rule.templateName,
            templateId: rule.templateId,
            channelTemplateId: rule.channelTemplateId,
            channelType: rule.channelCode,
            channelValue: rule.channelName,
          };
          open.set(rule.templateId, episode);
          out.push(episode);
        }
      }
    }
  }
  return out;
}

/** The lamp fault rules (engines/faults), sample by sample, against what the light was commanded to then. */
async function faultAlarms(
  light: FaultyLight,
  commanded: CommandedSource,
  model: { ratedPower: number | null; nominalVoltage: number } | undefined,
  t: ReturnType<typeof translator>,
): Promise<AlarmEpisode[]> {
  if (!model) return [];
  const state = newDeviceState();
  const timings = scaledTimings();
  const open = new Map<FaultRule, AlarmEpisode>();
  const out: AlarmEpisode[] = [];
  for (const s of light.samples) {
    const sample: LampSample = { at: s.at };
    for (const [code, value] of Object.entries(s.values)) {
      const field = FAULT_CHANNEL_CODES[code];
      if (field) sample[field] = value;
    }
    const reported = reportedCommand(state, sample);
    const command = (await commanded.commandedAt(light.deviceId, s.at)) ?? reported;
    const isDay = commanded.isDay(light.deviceId, s.at);
    for (const { rule, result, verdict } of judgeSample(state, model, sample, command, isDay, timings)) {
      if (result === 'latch' && verdict) {
        const episode: AlarmEpisode = {
          deviceId: light.deviceId,
          kind: rule,
          level: RULE_LEVELS[rule],
          at: s.at,
          clearedAt: null,
          clearReason: 'value',
          value: verdict.value,
          unit: verdict.unit || null,
          details: { rule, ...verdict.figures },
          name: t(`faults.rules.${rule}`),
          templateId: null,
          channelTemplateId: null,
          channelType: null,
          channelValue: null,
        };
        open.set(rule, episode);
        out.push(episode);
      } else if (result === 'clear') {
        const episode = open.get(rule);
        if (episode) episode.clearedAt = s.at;
        open.delete(rule);
      }
    }
  }
  return out;
}

/** Node loss: a silence longer than the heartbeat threshold raises at its end and clears with the next report. */
function nodeLossAlarms(light: FaultyLight, setting: { level: string; thresholdMs: number }): AlarmEpisode[] {
  const out: AlarmEpisode[] = [];
  for (let i = 1; i < light.samples.length; i++) {
    const before = (light.samples[i - 1] as HistorySample).at;
    const after = (light.samples[i] as HistorySample).at;
    if (after - before <= setting.thresholdMs) continue;
    out.push({
      deviceId: light.deviceId,
      kind: 'nodeLoss',
      level: setting.level,
      at: before + setting.thresholdMs,
      clearedAt: after,
      clearReason: 'recovery',
      value: null,
      unit: null,
      details: null,
      name: '',
      templateId: null,
      channelTemplateId: null,
      channelType: null,
      channelValue: null,
    });
  }
  return out;
}

async function lampModels(db: Db, ids: number[]) {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT d.id, coalesce(d.rated_power, m.rated_power) AS rated_power, m.nominal_voltage
      FROM devices d JOIN device_models m ON m.id = d.device_type_model_id
      WHERE d.id = ANY(${`{${ids.join(',')}}`}::bigint[])`),
  );
  return new Map(
    rows.map((r) => {
      const rated = r.rated_power === null ? null : Number(r.rated_power);
      const nominal = r.nominal_voltage === null ? null : Number(r.nominal_voltage);
      return [
        Number(r.id),
        {
          ratedPower: rated && rated > 0 ? rated : null,
          nominalVoltage: nominal && nominal > 0 ? nominal : THRESHOLDS.nominalVoltage,
        },
      ];
    }),
  );
}

async function nodeLossSettings(db: Db, ids: number[]) {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT DISTINCT ON (device_id) device_id, alert_level, heartbeat_threshold FROM device_node_loss_settings
      WHERE is_active AND device_id = ANY(${`{${ids.join(',')}}`}::bigint[]) ORDER BY device_id, id`),
  );
  return new Map(
    rows.map((r) => [
      Number(r.device_id),
      { level: String(r.alert_level), thresholdMs: Number(r.heartbeat_threshold) * MINUTE },
    ]),
  );
}
