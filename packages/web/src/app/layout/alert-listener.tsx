import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { playChime, speak } from '../../lib/alert-sounds.ts';
import { useConsoleStore } from '../../lib/console-store.ts';
import { onLiveEvent, useLiveStream } from '../../lib/live-stream.ts';

function KeepLive() {
  useLiveStream();
  return null;
}

/**
 * What this browser does on its own when an alarm or a console notification arrives, as the
 * operator chose (console store `alertPrefs`): a raised HIGH alarm sounds and shows a desktop
 * notification; an `audio` notification is spoken in the console's language. While any is on, the
 * tab keeps its live connection open whatever screen is shown.
 */
export function AlertListener() {
  const { t, i18n } = useTranslation();
  const { desktop, audio } = useConsoleStore((s) => s.alertPrefs);

  useEffect(() => {
    if (!desktop && !audio) return;
    return onLiveEvent((event) => {
      if (event.type === 'alarm' && desktop && event.transition === 'raised' && event.alertLevel === 'high') {
        playChime(true);
        if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
          const level = t(`alarms.level.${event.alertLevel}`);
          const value = event.value === null ? '' : `${String(event.value)}${event.unit ? ` ${event.unit}` : ''}`;
          new Notification(t('alarms.desktop.title', { level }), {
            body: t('alarms.desktop.body', { name: event.eventName ?? `#${String(event.id)}`, value }),
            tag: `lampyr-alarm-${String(event.id)}`,
            icon: '/favicon.svg',
          });
        }
      } else if (event.type === 'notification') {
        if (audio && event.audio) speak(`${event.title}. ${event.body}`, i18n.language);
        else if (desktop && event.sound) playChime(event.level === 'high');
      }
    });
  }, [desktop, audio, t, i18n]);

  return desktop || audio ? <KeepLive /> : null;
}
