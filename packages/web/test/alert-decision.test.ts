import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LiveAlarm } from '@lampyr/contract';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertFor } from '../src/lib/alert-decision.ts';

const locales = join(import.meta.dirname, '..', '..', 'contract', 'locales');
const load = (lng: string) => JSON.parse(readFileSync(join(locales, lng, 'console.json'), 'utf8'));
let en: TFunction;
let tr: TFunction;

beforeAll(async () => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'en',
    resources: { en: { console: load('en') }, tr: { console: load('tr') } },
    defaultNS: 'console',
    interpolation: { escapeValue: false },
  });
  en = i18n.getFixedT('en');
  tr = i18n.getFixedT('tr');
});

const raised = (patch: Partial<LiveAlarm> = {}) => ({
  type: 'alarm' as const,
  id: 12,
  deviceId: 3,
  state: 'active' as const,
  kind: 'threshold' as const,
  alertLevel: 'high' as const,
  templateId: 1,
  eventName: 'Over-voltage',
  value: 262,
  unit: 'V',
  dateTime: '2026-11-23T23:00:00Z',
  transition: 'raised' as const,
  shelvedUntil: null,
  ...patch,
});
const notification = (patch: Record<string, unknown> = {}) => ({
  type: 'notification' as const,
  id: 4,
  level: 'high',
  title: 'Over-voltage',
  body: 'KDK-0003 262 V',
  sound: true,
  audio: false,
  ...patch,
});
const ON = { desktop: true, audio: true };
const OFF = { desktop: false, audio: false };

describe('what the browser does for a live event', () => {
  it('chimes and shows a desktop notification for a raised HIGH alarm, in the console language', () => {
    expect(alertFor(raised(), ON, en, 'en')).toEqual({
      chime: { urgent: true },
      desktop: { title: 'High alarm', body: 'Over-voltage 262 V', tag: 'lampyr-alarm-12' },
    });
    expect(alertFor(raised({ kind: 'nodeLoss', value: null, unit: null }), ON, tr, 'tr').desktop).toEqual({
      title: 'Yüksek seviye alarm',
      body: 'Over-voltage',
      tag: 'lampyr-alarm-12',
    });
  });

  it('stays quiet for lower levels, other transitions, or when the operator has not opted in', () => {
    expect(alertFor(raised({ alertLevel: 'medium' }), ON, en, 'en')).toEqual({});
    expect(alertFor(raised({ transition: 'acknowledged', state: 'acknowledged' }), ON, en, 'en')).toEqual({});
    expect(alertFor(raised(), OFF, en, 'en')).toEqual({});
    expect(alertFor(raised(), { desktop: false, audio: true }, en, 'en')).toEqual({});
    expect(alertFor(notification({ audio: true, sound: true }), OFF, en, 'en')).toEqual({});
  });

  it('speaks an audio notification in the console language when audio alerts are on', () => {
    expect(alertFor(notification({ audio: true }), ON, tr, 'tr')).toEqual({
      speak: { text: 'Over-voltage. KDK-0003 262 V', language: 'tr' },
    });
    // With audio alerts off, a notification with sound only chimes.
    expect(alertFor(notification({ audio: true }), { desktop: true, audio: false }, en, 'en')).toEqual({
      chime: { urgent: true },
    });
    expect(alertFor(notification({ level: 'low' }), ON, en, 'en')).toEqual({ chime: { urgent: false } });
    expect(alertFor(notification({ sound: false }), ON, en, 'en')).toEqual({});
  });
});
