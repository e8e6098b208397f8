import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { alertFor } from '../../lib/alert-decision.ts';
import { playChime, speak } from '../../lib/alert-sounds.ts';
import { useConsoleStore } from '../../lib/console-store.ts';
import { onLiveEvent, useLiveStream } from '../../lib/live-stream.ts';

function KeepLive() {
  useLiveStream();
  return null;
}

/**
 * What this browser does on its own when an alarm or a console notification arrives, as the
 * operator chose (console store `alertPrefs`, decided in alert-decision.ts). While any is on, the
 * tab keeps its live connection open whatever screen is shown.
 */
export function AlertListener() {
  const { t, i18n } = useTranslation();
  const { desktop, audio } = useConsoleStore((s) => s.alertPrefs);

  useEffect(() => {
    if (!desktop && !audio) return;
    return onLiveEvent((event) => {
      const effect = alertFor(event, { desktop, audio }, t, i18n.language);
      if (effect.chime) playChime(effect.chime.urgent);
      if (effect.speak) speak(effect.speak.text, effect.speak.language);
      if (effect.desktop && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
        const { title, body, tag } = effect.desktop;
        new Notification(title, { body, tag, icon: '/favicon.svg' });
      }
    });
  }, [desktop, audio, t, i18n]);

  return desktop || audio ? <KeepLive /> : null;
}
