import type { FieldDef, ResourceDef } from '@lampyr/contract';
import dayjs, { type Dayjs } from 'dayjs';

export type FormValues = Record<string, unknown>;

/** The fields a person edits: everything the server does not set itself. */
export function editableFields(resource: ResourceDef): [string, FieldDef][] {
  return Object.entries(resource.fields).filter(([, def]) => !def.readOnly);
}

/** Fields the server sets (or that change elsewhere, like the account tree): shown, not edited. */
export function readOnlyFields(resource: ResourceDef): [string, FieldDef][] {
  return Object.entries(resource.fields).filter(([, def]) => def.readOnly && def.kind !== 'secret');
}

/** A stored value as its form widget holds it (dates as dayjs, JSON as text). */
export function toWidgetValue(def: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (def.kind) {
    case 'date':
    case 'datetime':
      return typeof value === 'string' ? dayjs(value) : undefined;
    case 'time':
      return typeof value === 'string' ? dayjs(`1970-01-01T${value}`) : undefined;
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    case 'secret':
      return undefined;
    default:
      return value;
  }
}

/**
 * A new record's widget value before anyone types: unticked for a switch, now for a required
 * date-time (a fault is reported, work performed, when it is entered), empty otherwise.
 */
export function newRecordValue(def: FieldDef): unknown {
  if (def.kind === 'boolean') return false;
  if (def.kind === 'datetime' && def.required) return dayjs();
  return undefined;
}

/** A widget's value as the API takes it; `undefined` for an empty widget. */
export function fromWidgetValue(def: FieldDef, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  switch (def.kind) {
    case 'date':
      return dayjs.isDayjs(value) ? value.format('YYYY-MM-DD') : value;
    case 'datetime':
      return dayjs.isDayjs(value) ? value.toISOString() : value;
    case 'time':
      return dayjs.isDayjs(value) ? value.format('HH:mm') : value;
    case 'json':
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value);
      } catch {
        // Left as text: the validator reports it as not JSON.
        return value;
      }
    default:
      return value;
  }
}

export function toFormValues(resource: ResourceDef, record: FormValues): FormValues {
  return Object.fromEntries(editableFields(resource).map(([name, def]) => [name, toWidgetValue(def, record[name])]));
}

/**
 * The command body from the form: on create, empty fields are left out; on update they are sent as
 * null to clear them, except a secret left empty, which keeps its stored value.
 */
export function toCommandBody(resource: ResourceDef, values: FormValues, mode: 'create' | 'update'): FormValues {
  const body: FormValues = {};
  for (const [name, def] of editableFields(resource)) {
    const value = fromWidgetValue(def, values[name]);
    if (value !== undefined) body[name] = value;
    else if (mode === 'update' && def.kind !== 'secret') body[name] = null;
  }
  return body;
}

/** A draft fit for local storage: serialisable, and never a secret. */
export function toDraft(resource: ResourceDef, values: FormValues): FormValues {
  const draft: FormValues = {};
  for (const [name, def] of editableFields(resource)) {
    if (def.kind === 'secret') continue;
    const value = fromWidgetValue(def, values[name]);
    if (value !== undefined) draft[name] = def.kind === 'json' ? values[name] : value;
  }
  return draft;
}

export function isDayjs(value: unknown): value is Dayjs {
  return dayjs.isDayjs(value);
}
