import { catalogue, type FieldDef } from '@lampyr/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { fromWidgetValue, newRecordValue, toCommandBody } from '../src/resources/form-values.ts';

const fault = catalogue.find((r) => r.name === 'report-a-fault');
if (!fault) throw new Error('report-a-fault is in the catalogue');
const def = (name: string) => fault.fields[name] as FieldDef;

describe('a new record form', () => {
  it('starts a required date-time at now, so a fault is reported when it is entered', () => {
    const before = Date.now();
    const value = newRecordValue(def('reportedAt'));
    expect(dayjs.isDayjs(value)).toBe(true);
    expect((value as dayjs.Dayjs).valueOf()).toBeGreaterThanOrEqual(before);
    expect((value as dayjs.Dayjs).valueOf()).toBeLessThanOrEqual(Date.now());
  });

  it('leaves other fields empty and switches off', () => {
    expect(newRecordValue(def('description'))).toBeUndefined();
    expect(newRecordValue({ ...def('reportedAt'), required: false })).toBeUndefined();
    expect(newRecordValue({ ...def('description'), kind: 'boolean' })).toBe(false);
  });

  it('sends the default date-time as ISO text the server takes', () => {
    const body = toCommandBody(fault, { reportedAt: dayjs('2026-11-23T21:05:00Z'), deviceId: 4 }, 'create');
    expect(body.reportedAt).toBe('2026-11-23T21:05:00.000Z');
    expect(fromWidgetValue(def('reportedAt'), undefined)).toBeUndefined();
  });
});
