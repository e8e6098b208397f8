import type { TFunction } from 'i18next';
import type { AlertPrefs } from './console-store.ts';
import type { ConsoleEvent } from './live-stream.ts';

/** What this browser does for one live event: a chime, a desktop notification, spoken text. */
export interface AlertEffect {
  chime?: { urgent: boolean };
  desktop?: { title: string; body: string; tag: string };
  speak?: { text: string; language: string };
}

/**
 * The operator's choice applied to one event: a raised HIGH alarm chimes and (when allowed) shows
 * a desktop notification; an `audio` notification is spoken in the console's language, a `sound`
 * one chimes. Nothing for anything else, or when the operator has not opted in.
 */
export function alertFor(
  event: ConsoleEvent,
  prefs: Pick<AlertPrefs, 'desktop' | 'audio'>,
  t: TFunction,
  language: string,
): AlertEffect {
  if (event.type === 'alarm') {
    if (!prefs.desktop || event.transition !== 'raised' || event.alertLevel !== 'high') return {};
    const level = t(`alarms.level.${event.alertLevel}`);
    const value = event.value === null ? '' : `${String(event.value)}${event.unit ? ` ${event.unit}` : ''}`;
    return {
      chime: { urgent: true },
      desktop: {
        title: t('alarms.desktop.title', { level }),
        body: t('alarms.desktop.body', { name: event.eventName ?? `#${String(event.id)}`, value }).trim(),
        tag: `lampyr-alarm-${String(event.id)}`,
      },
    };
  }
  if (event.type === 'notification') {
    if (prefs.audio && event.audio) return { speak: { text: `${event.title}. ${event.body}`, language } };
    if (prefs.desktop && event.sound) return { chime: { urgent: event.level === 'high' } };
  }
  return {};
}
