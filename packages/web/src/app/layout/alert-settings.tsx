import { BellOutlined } from '@ant-design/icons';
import { App, Button, Flex, Popover, Switch, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationPermission, playChime } from '../../lib/alert-sounds.ts';
import { useConsoleStore } from '../../lib/console-store.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { PushError, pushSupported, subscribePush, unsubscribePush } from '../../lib/web-push.ts';

/** Turning the operator's alert options on and off, asking the browser where it must. */
export function useAlertToggles() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const prefs = useConsoleStore((s) => s.alertPrefs);
  const setPrefs = useConsoleStore((s) => s.setAlertPrefs);
  const [busy, setBusy] = useState(false);

  const setDesktop = async (on: boolean) => {
    if (!on) return setPrefs({ desktop: false });
    if (notificationPermission() === 'unsupported') {
      // Sound still works without desktop notifications.
      message.warning(t('alarms.prefs.noDesktop'));
    } else if (Notification.permission !== 'granted') {
      const answer = await Notification.requestPermission();
      if (answer !== 'granted') message.warning(t('alarms.prefs.denied'));
    }
    setPrefs({ desktop: true });
    playChime();
  };

  const setPush = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) await subscribePush();
      else await unsubscribePush();
      setPrefs({ push: on });
      if (on) message.success(t('alarms.prefs.pushOn'));
    } catch (error) {
      setPrefs({ push: false });
      if (error instanceof PushError) message.warning(t(`alarms.prefs.push.${error.reason}`));
      else message.error(errorMessage(error, t));
    } finally {
      setBusy(false);
    }
  };

  const setAudio = (on: boolean) => {
    setPrefs({ audio: on });
    if (on) playChime();
  };

  return { prefs, busy, setDesktop, setPush, setAudio, pushAvailable: pushSupported() };
}

function Row({ id, label, hint, control }: { id: string; label: string; hint: string; control: React.ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex justify="space-between" align="start" gap={token.margin}>
      <Flex vertical>
        <Typography.Text id={id}>{label}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {hint}
        </Typography.Text>
      </Flex>
      {control}
    </Flex>
  );
}

/** The header's bell: alarm sound and desktop notifications, browser (Web Push) notifications, audio alerts. */
export function AlertSettings() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { prefs, busy, setDesktop, setPush, setAudio, pushAvailable } = useAlertToggles();
  const content = (
    <Flex vertical gap={token.margin} style={{ width: 300 }}>
      <Row
        id="pref-desktop"
        label={t('alarms.prefs.desktop')}
        hint={t('alarms.prefs.desktopHint')}
        control={
          <Switch aria-labelledby="pref-desktop" checked={prefs.desktop} onChange={(on) => void setDesktop(on)} />
        }
      />
      <Row
        id="pref-push"
        label={t('alarms.prefs.pushLabel')}
        hint={pushAvailable ? t('alarms.prefs.pushHint') : t('alarms.prefs.push.unsupported')}
        control={
          <Switch
            aria-labelledby="pref-push"
            checked={prefs.push}
            loading={busy}
            disabled={!pushAvailable}
            onChange={(on) => void setPush(on)}
          />
        }
      />
      <Row
        id="pref-audio"
        label={t('alarms.prefs.audio')}
        hint={t('alarms.prefs.audioHint')}
        control={<Switch aria-labelledby="pref-audio" checked={prefs.audio} onChange={setAudio} />}
      />
    </Flex>
  );
  const anyOn = prefs.desktop || prefs.push || prefs.audio;
  return (
    <Popover content={content} title={t('alarms.prefs.title')} trigger="click" placement="bottomRight">
      <Button
        type="text"
        icon={<BellOutlined style={anyOn ? { color: token.colorPrimaryText } : undefined} />}
        aria-label={t('alarms.prefs.title')}
        data-testid="alert-settings"
      />
    </Popover>
  );
}
