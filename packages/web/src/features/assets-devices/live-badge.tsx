import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { type LiveState, useLiveStream } from '../../lib/live-stream.ts';

const STATUS: Record<LiveState, 'success' | 'processing' | 'warning' | 'default'> = {
  open: 'success',
  connecting: 'processing',
  retrying: 'warning',
  idle: 'default',
};

/** Keeps the tab's live connection open while shown, and says whether it is. */
export function LiveBadge() {
  const { t } = useTranslation();
  const state = useLiveStream();
  return <Badge status={STATUS[state]} text={t(`live.state.${state}`)} data-testid="live-state" />;
}
