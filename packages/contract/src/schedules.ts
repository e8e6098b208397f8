import type { FieldError } from './validation.ts';
import { isCalendarDate } from './validation.ts';

/** Nights a schedule preview covers by default, and at most. */
export const PREVIEW_NIGHTS = { default: 30, max: 60 } as const;

export type PreviewTarget = { taskGroupId: number } | { deviceId: number } | { street: string; regionId?: number };

export interface SchedulePreviewRequest {
  target: PreviewTarget;
  nights: number;
  /** The first night's local date (YYYY-MM-DD); today in the devices' zone when left out. */
  from?: string;
}

export type SwitchRuleKind = 'timing' | 'period' | 'pairing' | 'dawn' | 'override';

export interface PreviewSwitchPoint {
  at: string;
  /** The device's local clock time, HH:MM. */
  time: string;
  level: number;
  rule: {
    kind: SwitchRuleKind;
    pairingId: number | null;
    profileId: number | null;
    timingId: number | null;
    periodId: number | null;
    groupId: number | null;
    slot?: string;
    profileName?: string;
    groupName?: string;
    color?: string | null;
  };
}

export interface PreviewNight {
  night: string;
  start: string;
  end: string;
  sunset: string | null;
  sunrise: string | null;
  polarDay: boolean;
  polarNight: boolean;
  holiday: boolean;
  levelAtStart: number;
  switchPoints: PreviewSwitchPoint[];
  /** Hours the shown device burns at any level. */
  burnHours: number;
  /** Energy of every device of the target that has a rated power (kWh), or null when none has. */
  energyKwh: number | null;
  winner: { pairingId: number; profileId: number; groupId: number; priority: number } | null;
}

export interface SchedulePreview {
  /** Devices the target names. */
  devices: number;
  /** The device whose switch points are shown (the target's first). */
  device: { id: number; name: string; timeZone: string; supportTask: boolean; ratedPower: number | null } | null;
  /** Devices whose model states a rated power (the energy estimate counts these alone). */
  devicesWithPower: number;
  nights: PreviewNight[];
  totals: { burnHours: number; energyKwh: number | null };
}

const isId = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/**
 * Checks a preview request: field errors (translation keys of `validation.*`) or the request with
 * its defaults filled.
 */
export function checkPreviewRequest(
  body: unknown,
): { ok: true; value: SchedulePreviewRequest } | { ok: false; errors: Record<string, FieldError> } {
  const errors: Record<string, FieldError> = {};
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const t = b.target as Record<string, unknown> | undefined;
  let target: PreviewTarget | undefined;
  if (typeof t !== 'object' || t === null || Array.isArray(t)) errors.target = { key: 'validation.required' };
  else if ('taskGroupId' in t) {
    if (isId(t.taskGroupId)) target = { taskGroupId: t.taskGroupId as number };
    else errors.taskGroupId = { key: 'validation.type' };
  } else if ('deviceId' in t) {
    if (isId(t.deviceId)) target = { deviceId: t.deviceId as number };
    else errors.deviceId = { key: 'validation.type' };
  } else if ('street' in t) {
    const street = typeof t.street === 'string' ? t.street.trim() : '';
    if (!street) errors.street = { key: 'validation.required' };
    else if (street.length > 255) errors.street = { key: 'validation.maxLength', vars: { maxLength: 255 } };
    if (t.regionId !== undefined && t.regionId !== null && !isId(t.regionId))
      errors.regionId = { key: 'validation.type' };
    if (!errors.street && !errors.regionId)
      target = { street, ...(isId(t.regionId) ? { regionId: t.regionId as number } : {}) };
  } else errors.target = { key: 'validation.required' };
  const nights = b.nights ?? PREVIEW_NIGHTS.default;
  if (typeof nights !== 'number' || !Number.isInteger(nights)) errors.nights = { key: 'validation.integer' };
  else if (nights < 1) errors.nights = { key: 'validation.min', vars: { min: 1 } };
  else if (nights > PREVIEW_NIGHTS.max) errors.nights = { key: 'validation.max', vars: { max: PREVIEW_NIGHTS.max } };
  const from = b.from;
  if (from !== undefined && from !== null && from !== '') {
    if (typeof from !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(from) || !isCalendarDate(from))
      errors.from = { key: 'validation.date' };
    else if (from < '2000-01-01' || from > '2100-12-31')
      errors.from = { key: 'validation.dateRange', vars: { min: '2000-01-01', max: '2100-12-31' } };
  }
  if (Object.keys(errors).length || !target) return { ok: false, errors };
  return {
    ok: true,
    value: { target, nights: nights as number, ...(typeof from === 'string' && from ? { from } : {}) },
  };
}

interface RunningRule {
  kind: SwitchRuleKind;
  pairingId: number | null;
  profileId: number | null;
  timingId: number | null;
  groupId: number | null;
}

/** GET /query/api/schedules/running: what each task group does now and next, and what ran. */
export interface RunningSchedules {
  now: string;
  groups: {
    groupId: number;
    name: string;
    status: string | null;
    devices: number;
    device: { id: number; name: string; supportTask: boolean } | null;
    current: { level: number; since: string | null; rule: RunningRule | null } | null;
    next: { at: string; level: number; rule: RunningRule } | null;
  }[];
  recent: {
    id: number;
    deviceId: number | null;
    deviceName: string | null;
    taskGroupId: number | null;
    profileId: number | null;
    plannedAt: string | null;
    controlDate: string;
    level: number | null;
    status: string | null;
    controlType: string | null;
    writeStatus: string | null;
  }[];
}
