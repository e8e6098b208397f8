import { SendOutlined } from '@ant-design/icons';
import { getResource } from '@lampyr/contract';
import { App, Button, Card, Flex, Input, Popconfirm, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useList, useRecord } from '../../data/device-data.ts';
import { request } from '../../lib/api-client.ts';
import { errorMessage } from '../../lib/error-message.ts';
import type { Row } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { type Batch, DeployProgress } from './deploy-progress.tsx';
import { DeviceSelectionTable } from './device-selection-table.tsx';
import { LiveBadge } from './live-badge.tsx';

const devicesResource = getResource('devices');
const PAGE_SIZE = 10;

/** The menu's action slugs and the API's actions. */
export const DEVICE_ACTION_OF: Record<
  string,
  'config-request' | 'clear-device-data' | 'reset-device-config' | 'config-deploy'
> = {
  'manual-config-request': 'config-request',
  'clear-device-data': 'clear-device-data',
  'reset-device-config': 'reset-device-config',
  'config-deploy': 'config-deploy',
};

/**
 * SPEC's device actions (Manuel Config Request, Clear Device Data, Reset Device Config, Config
 * Deploy): pick devices, confirm, and follow each device's deploy response log live until the
 * controller's report confirms it, or it runs out of attempts (then: resend to the failed ones).
 */
export function DeviceActions({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const labels = useResourceLabels(devicesResource);
  const logLabels = useResourceLabels(getResource('deploy-response-logs'));
  const action = DEVICE_ACTION_OF[slug] ?? 'config-request';
  const [text, setText] = useState('');
  const [q, setQ] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<number, Row>>(new Map());
  const [profileId, setProfileId] = useState<number | undefined>();
  const [sending, setSending] = useState(false);
  const [batch, setBatch] = useState<Batch | undefined>();
  // Opened from a device's details (`deviceId`) or with rows chosen on the device list (`deviceIds`):
  // those devices are selected.
  const [search] = useSearchParams();
  const pre = useRecord('devices', Number(search.get('deviceId')) || undefined).data;
  const chosen = search.get('deviceIds');
  useEffect(() => {
    if (pre) setSelected((current) => (current.size ? current : new Map([[pre.id, pre]])));
  }, [pre]);
  useEffect(() => {
    const ids = (chosen ?? '')
      .split(',')
      .map(Number)
      .filter((id) => Number.isSafeInteger(id) && id > 0);
    if (ids.length) setSelected(new Map(ids.map((id) => [id, { id } as Row])));
  }, [chosen]);

  const list = useList('devices', {
    filter: q ? { q } : {},
    detailFilter: [],
    selectedColumns: null,
    pageable: { page, size: PAGE_SIZE, sort: ['name,asc'] },
  });
  const rows = list.data?.content ?? [];
  const send = async (deviceIds: number[]) => {
    setSending(true);
    try {
      const answer = await request<Batch>('command', 'devices/config-actions', {
        method: 'POST',
        body: { action, deviceIds, ...(action === 'config-deploy' ? { profileId } : {}) },
      });
      setBatch(answer);
      message.success(t('deviceActions.queued', { count: answer.results.length }));
    } catch (error) {
      modal.error({ title: t('deviceActions.refused'), content: errorMessage(error, t) });
    } finally {
      setSending(false);
    }
  };

  const needsProfile = action === 'config-deploy' && profileId === undefined;
  return (
    <Flex vertical gap={token.margin}>
      <Card>
        <ScreenTitle title={t(`menu.assets-devices.actions.${slug}`)} spaced>
          <LiveBadge />
        </ScreenTitle>
        <Typography.Paragraph type="secondary">{t(`deviceActions.explain.${action}`)}</Typography.Paragraph>
        <Flex wrap gap={token.marginSM} style={{ marginBottom: token.margin }}>
          {action === 'config-deploy' && (
            <div style={{ width: 280 }}>
              <ReferenceSelect
                prefix="profiles"
                aria-label={logLabels.field('taskProfileId')}
                placeholder={logLabels.field('taskProfileId')}
                value={profileId ?? null}
                onChange={(v) => setProfileId(typeof v === 'number' ? v : undefined)}
              />
            </div>
          )}
          <Input.Search
            allowClear
            style={{ width: 240 }}
            aria-label={t('resource.search', { title: labels.title })}
            placeholder={t('resource.searchPlaceholder')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onSearch={(v) => {
              setQ(v.trim() || undefined);
              setPage(1);
            }}
          />
          {selected.size > 0 && (
            <Button onClick={() => setSelected(new Map())}>{t('liveControl.clearSelection')}</Button>
          )}
        </Flex>
        <DeviceSelectionTable
          rows={rows}
          total={list.data?.totalElements ?? 0}
          loading={list.isFetching}
          page={page}
          pageSize={PAGE_SIZE}
          onPage={setPage}
          selected={selected}
          onSelect={setSelected}
          beside={[{ key: 'devEui', dataIndex: 'devEui', title: labels.field('devEui'), render: (v) => v ?? '–' }]}
        />
        <Flex align="center" gap={token.marginSM} wrap style={{ marginTop: token.margin }}>
          <Typography.Text strong data-testid="selection-count">
            {t('liveControl.selected', { count: selected.size })}
          </Typography.Text>
          <Popconfirm
            title={t(`menu.assets-devices.actions.${slug}`)}
            description={
              action === 'config-deploy'
                ? t('confirm.sendProfile')
                : t('deviceActions.confirm', { count: selected.size })
            }
            okText={t('liveControl.send')}
            cancelText={t('action.cancel')}
            onConfirm={() => send([...selected.keys()])}
            disabled={selected.size === 0 || needsProfile}
          >
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={sending}
              disabled={selected.size === 0 || needsProfile}
            >
              {t('liveControl.send')}
            </Button>
          </Popconfirm>
          {needsProfile && selected.size > 0 && (
            <Typography.Text type="secondary">{t('deviceActions.pickProfile')}</Typography.Text>
          )}
        </Flex>
      </Card>
      {batch && (
        <DeployProgress
          batch={batch}
          sending={sending}
          confirmText={(count) =>
            action === 'config-deploy' ? t('confirm.sendProfile') : t('deviceActions.confirm', { count })
          }
          onResend={send}
        />
      )}
    </Flex>
  );
}
