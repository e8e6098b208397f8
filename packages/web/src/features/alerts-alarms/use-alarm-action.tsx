import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AlarmCommandResult, sendAlarmCommand } from '../../lib/alarm-api.ts';
import { ALARMS } from '../../lib/alarm-cache.ts';
import { keys } from '../../lib/query-keys.ts';
import { type AlarmAction, AlarmActionDialog } from './alarm-actions.tsx';

/**
 * Opens the confirmation of an alarm action for some ids; on success says how many changed and
 * how many were skipped (already cleared, not yours…) and refreshes the alarm lists.
 */
export function useAlarmAction(onDone?: () => void) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [open, setOpen] = useState<{ action: AlarmAction; ids: number[] }>();

  const finish = (result: AlarmCommandResult) => {
    setOpen(undefined);
    const text = t('alarms.actions.result', { updated: result.updated.length, skipped: result.skipped.length });
    if (result.skipped.length && !result.updated.length) message.warning(text);
    else message.success(text);
    void client.invalidateQueries({ queryKey: keys.resource(ALARMS) });
    onDone?.();
  };

  const dialog = open && (
    <AlarmActionDialog
      action={open.action}
      ids={open.ids}
      send={sendAlarmCommand}
      onDone={finish}
      onCancel={() => setOpen(undefined)}
    />
  );
  return { start: (action: AlarmAction, ids: number[]) => setOpen({ action, ids }), dialog };
}
