import { ReloadOutlined } from '@ant-design/icons';
import { getResource } from '@lampyr/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Flex, Popconfirm, Select, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { usePagedList } from '../../data/resource-list.ts';
import { resendNotifications } from '../../lib/alarm-api.ts';
import { HttpError } from '../../lib/api-errors.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { keys } from '../../lib/query-keys.ts';
import type { ListParams } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { LiveBadge } from '../assets-devices/live-badge.tsx';
import { when } from './alarm-columns.tsx';
import { AlarmListTable } from './alarm-list-table.tsx';
import { usePaging } from './use-paging.ts';

const NOTIFICATIONS = 'alert-notification-list';
const resource = getResource(NOTIFICATIONS);
const STATUSES = ['queued', 'sent', 'failed', 'dead'] as const;
const STATUS_BADGE: Record<string, 'processing' | 'success' | 'warning' | 'error'> = {
  queued: 'processing',
  sent: 'success',
  failed: 'warning',
  dead: 'error',
};
const REFRESH_MS = 10_000;

/** A delivery's status: a coloured dot beside text in the text colour (readable in light and dark). */
export function StatusTag({ status }: { status: unknown }) {
  const { t } = useTranslation();
  if (typeof status !== 'string') return <Typography.Text type="secondary">–</Typography.Text>;
  return (
    <Badge
      status={STATUS_BADGE[status] ?? 'default'}
      text={t(`alarms.notifications.status.${status}`, { defaultValue: status })}
    />
  );
}

/**
 * The notification list: every message sent or being sent for alarms, with its delivery (status,
 * attempts, last error, when sent, next attempt), kept fresh from the stream; one or a selection
 * can be sent again.
 */
export default function NotificationListPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const client = useQueryClient();
  const labels = useResourceLabels(resource);
  const { page, size, setPage, pagination } = usePaging();
  const [status, setStatus] = useState<string[]>([]);
  const [selected, setSelected] = useState<number[]>([]);
  const [sending, setSending] = useState(false);
  const params: ListParams = {
    filter: status.length ? { status } : null,
    detailFilter: [],
    selectedColumns: null,
    pageable: { page, size, sort: ['dateTime,desc'] },
  };
  // Deliveries move on (retries, sent, dead) without a live event of their own: read again now and then.
  const list = usePagedList(NOTIFICATIONS, params, { refetchInterval: REFRESH_MS });
  const rows = list.data?.content ?? [];

  const resend = async (ids: number[]) => {
    setSending(true);
    try {
      const result = await resendNotifications(ids);
      message.success(
        t('alarms.notifications.resent', { updated: result.updated.length, skipped: result.skipped.length }),
      );
      setSelected([]);
    } catch (error) {
      // A server without the notification service has no resend yet.
      if (error instanceof HttpError && error.httpStatus === 404) message.warning(t('alarms.notifications.noResend'));
      else message.error(errorMessage(error, t));
    } finally {
      setSending(false);
      void client.invalidateQueries({ queryKey: keys.lists(NOTIFICATIONS) });
    }
  };

  const confirmResend = (ids: number[], trigger: React.ReactNode) => (
    <Popconfirm
      title={t('alarms.notifications.resendConfirm', { count: ids.length })}
      okText={t('alarms.notifications.resend')}
      cancelText={t('action.cancel')}
      onConfirm={() => resend(ids)}
      disabled={!ids.length}
    >
      {trigger}
    </Popconfirm>
  );

  return (
    <Card>
      <ScreenTitle title={labels.title} spaced>
        <LiveBadge />
      </ScreenTitle>
      <Flex wrap gap={token.marginSM} align="center" style={{ marginBottom: token.margin }}>
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 200 }}
          placeholder={labels.field('status')}
          aria-label={labels.field('status')}
          value={status}
          options={STATUSES.map((value) => ({ value, label: t(`alarms.notifications.status.${value}`) }))}
          onChange={(v: string[]) => {
            setStatus(v);
            setPage(1);
          }}
        />
        <Typography.Text strong>{t('alarms.selected', { count: selected.length })}</Typography.Text>
        {confirmResend(
          selected,
          <Button icon={<ReloadOutlined />} disabled={!selected.length} loading={sending}>
            {t('alarms.notifications.resend')}
          </Button>,
        )}
      </Flex>
      <AlarmListTable
        list={list}
        rows={rows}
        empty={t('alarms.notifications.none')}
        selected={selected}
        onSelect={setSelected}
        pagination={pagination(list.data?.totalElements ?? 0)}
        columns={[
          { key: 'dateTime', title: labels.field('dateTime'), width: 170, render: (_v, r) => when(r.dateTime) },
          {
            key: 'channel',
            title: labels.field('channel'),
            render: (_v, r) => (r.channel ? labels.option('channel', String(r.channel)) : '–'),
          },
          { key: 'recipient', title: labels.field('recipient'), render: (_v, r) => String(r.recipient ?? '–') },
          {
            key: 'subject',
            title: labels.field('subject'),
            render: (_v, r) => (
              <Typography.Text ellipsis style={{ maxWidth: 220 }} title={String(r.subject ?? '')}>
                {String(r.subject ?? '–')}
              </Typography.Text>
            ),
          },
          { key: 'status', title: labels.field('status'), render: (_v, r) => <StatusTag status={r.status} /> },
          {
            key: 'attempts',
            title: t('alarms.notifications.attempts'),
            align: 'right',
            render: (_v, r) => (typeof r.attempts === 'number' ? r.attempts : '–'),
          },
          {
            key: 'lastError',
            title: t('alarms.notifications.lastError'),
            render: (_v, r) =>
              r.lastError ? (
                <Typography.Text type="danger" ellipsis style={{ maxWidth: 240 }} title={String(r.lastError)}>
                  {String(r.lastError)}
                </Typography.Text>
              ) : (
                '–'
              ),
          },
          {
            key: 'sentAt',
            title: t('alarms.notifications.sentAt'),
            width: 170,
            render: (_v, r) =>
              r.sentAt ? (
                when(r.sentAt)
              ) : r.nextAttemptAt ? (
                <Tooltip title={t('alarms.notifications.nextAttempt')}>
                  <Typography.Text type="secondary">→ {when(r.nextAttemptAt)}</Typography.Text>
                </Tooltip>
              ) : (
                '–'
              ),
          },
          {
            key: 'actions',
            title: t('resource.actions'),
            render: (_v, r) =>
              confirmResend(
                [r.id],
                <Button
                  type="text"
                  size="small"
                  icon={<ReloadOutlined />}
                  // A queued message is about to be sent anyway.
                  disabled={r.status === 'queued'}
                  aria-label={t('alarms.notifications.resendOne', { id: r.id })}
                />,
              ),
          },
        ]}
      />
    </Card>
  );
}
