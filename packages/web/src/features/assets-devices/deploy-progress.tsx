import { ReloadOutlined } from '@ant-design/icons';
import { getResource } from '@lampyr/contract';
import { Button, Card, Flex, Popconfirm, Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useList } from '../../data/device-data.ts';
import type { Row } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';

/** A queued configuration command of a batch, as `devices/config-actions` and a group deploy answer. */
export interface QueuedCommand {
  deviceId: number;
  name: string;
  logId: number;
}

export interface Batch {
  batchId: string;
  results: QueuedCommand[];
  /** The profile deployed (a resend sends the same). */
  profileId?: number;
}

const OPEN = new Set(['pending', 'sent']);
const FAILED = new Set(['timeout', 'failed', 'mismatch']);
const STATUS_COLOR: Record<string, string> = {
  confirmed: 'success',
  pending: 'default',
  sent: 'processing',
  mismatch: 'warning',
  timeout: 'error',
  failed: 'error',
};

/**
 * A batch's progress per device, live (its deploy response log rows, refreshed by the `deploy`
 * events): confirmed only when the controller's report shows it, pending, or failed — with
 * "resend to failed", confirmed first with `confirmText(count)`.
 */
export function DeployProgress({
  batch,
  sending,
  confirmText,
  onResend,
}: {
  batch: Batch;
  sending: boolean;
  confirmText: (count: number) => string;
  onResend: (deviceIds: number[]) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const logLabels = useResourceLabels(getResource('deploy-response-logs'));
  // Live from the `deploy` events; read again every 5 s while a row is open, in case an event was missed
  // (a reconnecting stream).
  const results = useList(
    'deploy-response-logs',
    {
      filter: { batchId: batch.batchId },
      detailFilter: [],
      selectedColumns: null,
      pageable: { page: 1, size: 500, sort: ['id,asc'] },
    },
    { pollWhile: { everyMs: 5000, when: (rows) => rows.some((r) => OPEN.has(String(r.status))) } },
  );
  const logs = results.data?.content ?? [];
  const nameOf = new Map(batch.results.map((r) => [r.deviceId, r.name]));
  const failedIds = logs.filter((l) => FAILED.has(String(l.status))).map((l) => l.deviceId as number);
  const counts = {
    confirmed: logs.filter((l) => l.status === 'confirmed').length,
    pending: logs.filter((l) => OPEN.has(String(l.status))).length,
    failed: failedIds.length,
  };
  return (
    <Card
      title={t('deviceActions.results')}
      extra={
        <Flex gap={token.marginSM} align="center" wrap>
          <Tag color="success" data-testid="confirmed-count">
            {t('deviceActions.confirmedCount', { count: counts.confirmed })}
          </Tag>
          <Tag color="processing">{t('deviceActions.pendingCount', { count: counts.pending })}</Tag>
          <Tag color="error">{t('deviceActions.failedCount', { count: counts.failed })}</Tag>
          <Popconfirm
            title={t('deviceActions.resendFailed')}
            description={confirmText(failedIds.length)}
            okText={t('liveControl.send')}
            cancelText={t('action.cancel')}
            onConfirm={() => onResend(failedIds)}
            disabled={failedIds.length === 0}
          >
            <Button icon={<ReloadOutlined />} disabled={failedIds.length === 0} loading={sending}>
              {t('deviceActions.resendFailed')}
            </Button>
          </Popconfirm>
        </Flex>
      }
    >
      <ScrollTable<Row>
        rowKey="id"
        size="small"
        loading={results.isLoading}
        dataSource={logs}
        pagination={logs.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        columns={[
          {
            key: 'device',
            title: logLabels.field('deviceId'),
            render: (_v, r) => nameOf.get(r.deviceId as number) ?? String(r.deviceId),
          },
          {
            key: 'status',
            title: logLabels.field('status'),
            render: (_v, r) => (
              <Tag color={STATUS_COLOR[String(r.status)]}>{logLabels.option('status', String(r.status))}</Tag>
            ),
          },
          { key: 'version', dataIndex: 'version', title: logLabels.field('version'), render: (v) => v ?? '–' },
          {
            key: 'reported',
            dataIndex: 'reportedVersion',
            title: logLabels.field('reportedVersion'),
            render: (v) => v ?? '–',
          },
          { key: 'resends', dataIndex: 'resendCount', title: logLabels.field('resendCount') },
          {
            key: 'answered',
            dataIndex: 'responseTime',
            title: logLabels.field('responseTime'),
            render: (v) => (v ? new Date(v as string).toLocaleString() : '–'),
          },
        ]}
      />
    </Card>
  );
}
