import * as z from 'zod/mini';
import type { FieldDef } from './fields.ts';
import type { ResourceDef } from './resource.ts';

/** A validation failure: a translation key and what it interpolates, besides the field's label. */
export interface FieldError {
  key: string;
  vars?: Record<string, string | number>;
}

export type ValidationResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; errors: Record<string, FieldError> };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const COLOR = /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8}|[0-9a-fA-F]{3})$/;
/** Raster images only: an SVG can carry script. */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/]+={0,2}$/i;

/** An absolute http(s) address with a host; `javascript:`, `data:`, `file:` and the like are not. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * What a URL or image field may hold: http(s), and for images also a base64 `data:image/...`.
 * Checked on save; the console also links only to such values (older rows may predate the check).
 */
export function isSafeLink(kind: 'url' | 'image', value: string): boolean {
  return isHttpUrl(value) || (kind === 'image' && DATA_IMAGE.test(value));
}

/** A day that exists: 2026-02-30 matches the pattern but is no date. */
export function isCalendarDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** An IANA time zone the runtime knows (Europe/Istanbul); offsets and abbreviations are not zones. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value) || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** One MQTT topic level that is also a fair user name: no `/ + #`, no spaces or control characters. */
const DEVICE_UID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/**
 * A DevEUI in its one stored form: 16 lowercase hex digits. `AA-BB-CC-…`, `aa:bb:…` and spaces are
 * accepted; anything else is `undefined`.
 */
export function normalizeEui64(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 32) return undefined;
  const eui = value.replace(/[\s:.-]/g, '').toLowerCase();
  return /^[0-9a-f]{16}$/.test(eui) ? eui : undefined;
}

/**
 * Messages are translation keys; `describeError` adds the numbers from the field definition.
 * zod/mini: the console's record forms run these checks too, at a fraction of classic zod's weight.
 */
function valueSchema(def: FieldDef): z.ZodMiniType {
  const type = { error: 'validation.type' };
  const wholeNumber = (error: string) => z.refine<number>((n) => Number.isSafeInteger(n), { error });
  switch (def.kind) {
    case 'integer':
    case 'number': {
      const checks: z.core.$ZodCheck<number>[] = [];
      if (def.kind === 'integer') checks.push(wholeNumber('validation.integer'));
      if (def.min !== undefined) checks.push(z.gte(def.min, { error: 'validation.min' }));
      if (def.max !== undefined) checks.push(z.lte(def.max, { error: 'validation.max' }));
      return z.number(type).check(...checks);
    }
    case 'reference':
      return z.number(type).check(wholeNumber('validation.type'), z.positive({ error: 'validation.type' }));
    case 'boolean':
      return z.boolean(type);
    case 'enum':
      return z.enum(def.options as [string, ...string[]], { error: 'validation.oneOf' });
    case 'date':
      return z
        .string(type)
        .check(
          z.regex(DATE, { error: 'validation.date' }),
          z.refine<string>(isCalendarDate, { error: 'validation.date' }),
        );
    case 'time':
      return z.string(type).check(z.regex(TIME, { error: 'validation.time' }));
    case 'datetime':
      return z.iso.datetime({ offset: true, error: 'validation.datetime' });
    case 'json':
      return z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())], type);
    case 'email':
      return z
        .email({ error: 'validation.email' })
        .check(z.maxLength(def.maxLength ?? 255, { error: 'validation.maxLength' }));
    case 'url':
    case 'image': {
      const kind = def.kind;
      return z.string(type).check(
        z.maxLength(def.maxLength ?? 1000, { error: 'validation.maxLength' }),
        z.refine<string>((v) => isSafeLink(kind, v), { error: `validation.${kind}` }),
      );
    }
    case 'color':
      return z.string(type).check(z.regex(COLOR, { error: 'validation.color' }));
    default: {
      if (def.format === 'eui64')
        return z
          .string(type)
          .check(z.refine<string>((v) => normalizeEui64(v) !== undefined, { error: 'validation.eui64' }));
      if (def.format === 'deviceUid')
        return z.string(type).check(z.regex(DEVICE_UID, { error: 'validation.deviceUid' }));
      if (def.format === 'timeZone')
        return z.string(type).check(z.refine<string>(isTimeZone, { error: 'validation.timeZone' }));
      const checks: z.core.$ZodCheck<string>[] = [z.maxLength(def.maxLength ?? 255, { error: 'validation.maxLength' })];
      if (def.min !== undefined) checks.push(z.minLength(def.min, { error: 'validation.minLength' }));
      return z.string(type).check(...checks);
    }
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function describeError(def: FieldDef, key: string): FieldError {
  const vars: Record<string, string | number> = {};
  if (def.min !== undefined) vars.min = def.min;
  if (def.max !== undefined) vars.max = def.max;
  if (def.maxLength !== undefined) vars.maxLength = def.maxLength;
  if (def.options) vars.options = def.options.join(', ');
  return { key, vars };
}

/** Checks one field's value; `undefined` when it is acceptable. */
export function validateField(def: FieldDef, value: unknown): FieldError | undefined {
  if (isEmpty(value)) return def.required ? { key: 'validation.required' } : undefined;
  const parsed = valueSchema(def).safeParse(typeof value === 'string' ? value.trim() : value);
  if (parsed.success) return undefined;
  return describeError(def, parsed.error.issues[0]?.message ?? 'validation.type');
}

/**
 * Validates a command body against the catalogue. On create every required field must be there;
 * on update only the fields sent are checked (a field left out keeps its value).
 * Unknown and server-set fields are reported under the key `invalidField`.
 */
export function validateRecord(
  resource: ResourceDef,
  input: Record<string, unknown>,
  mode: 'create' | 'update',
): ValidationResult {
  const errors: Record<string, FieldError> = {};
  const value: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(resource.fields)) {
    if (def.readOnly) continue;
    const present = name in input;
    if (!present && mode === 'update') continue;
    // A secret left empty on update keeps the stored one.
    if (def.kind === 'secret' && mode === 'update' && isEmpty(input[name])) continue;
    const error = validateField(def, input[name]);
    if (error) errors[name] = error;
    else if (present) {
      const raw = input[name];
      if (isEmpty(raw)) value[name] = null;
      else if (def.format === 'eui64') value[name] = normalizeEui64(String(raw).trim());
      else value[name] = typeof raw === 'string' ? raw.trim() : raw;
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value };
}

/** Runs a resource's rules across fields on a whole record (on update: the stored one with the changes). */
export function checkRules(
  resource: ResourceDef,
  record: Record<string, unknown>,
): Record<string, FieldError> | undefined {
  const errors: Record<string, FieldError> = {};
  for (const rule of resource.rules ?? []) Object.assign(errors, rule(record));
  return Object.keys(errors).length ? errors : undefined;
}

/** A field is needed when another has a given value: `between` needs its second bound. */
export const requiredWhen =
  (field: string, when: (record: Record<string, unknown>) => boolean) =>
  (record: Record<string, unknown>): Record<string, FieldError> | undefined =>
    when(record) && (record[field] === undefined || record[field] === null || record[field] === '')
      ? { [field]: { key: 'validation.required' } }
      : undefined;

/** `to` must come after `from` when both are given. */
export const ordered =
  (from: string, to: string) =>
  (record: Record<string, unknown>): Record<string, FieldError> | undefined => {
    const a = record[from];
    const b = record[to];
    if (a === undefined || a === null || b === undefined || b === null) return undefined;
    const before = typeof a === 'number' && typeof b === 'number' ? a <= b : String(a) <= String(b);
    return before ? undefined : { [to]: { key: 'validation.after', vars: { other: from } } };
  };
