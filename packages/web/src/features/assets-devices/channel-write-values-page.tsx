import { BulbFilled, BulbOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { getResource } from '@lampyr/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Flex,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Slider,
  Space,
  Typography,
  theme,
} from 'antd';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import {
  channelLabel,
  useChannelTemplates,
  useConnectionStatus,
  useLatestValues,
  useList,
  useRecord,
} from '../../data/device-data.ts';
import { useLampStates, useStreets } from '../../data/lamp-states.ts';
import { usePermissions } from '../../data/permissions.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { type Formatter, useFormat } from '../../lib/format.ts';
import { keys } from '../../lib/query-keys.ts';
import { listRecords, type Row } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import ResourcePage from '../../resources/resource-page.tsx';
import { ConnectionTag } from './connection-tag.tsx';
import { DeviceSelectionTable } from './device-selection-table.tsx';
import { LampStateTag } from './lamp-state-tag.tsx';
import { LiveBadge } from './live-badge.tsx';
import { type Command, sendCommand } from './send-writes.ts';

const devicesResource = getResource('devices');
const PAGE_SIZE = 10;
/** The most devices one command goes to at once: one page of the API. */
const SELECT_ALL_LIMIT = 1000;

interface Filters {
  regionId?: number;
  deviceTypeModelId?: number;
  street?: string;
  q?: string;
}

/** What a command will do to how many lights, as its confirmation says it. */
export function commandConsequence(
  command: Command,
  count: number,
  t: TFunction,
  format: Formatter,
  channel = command.code,
): string {
  if (command.code === 'lamp')
    return t(command.value ? 'liveControl.willTurnOn' : 'liveControl.willTurnOff', { count });
  if (command.code === 'dim') return t('liveControl.willDim', { count, level: format.percent(command.value, 0) });
  return t('liveControl.willWrite', { count, channel, value: format.number(command.value) });
}

/** The Live Control entry: on, off or a dim level for one device or a selection, confirmed first. */
export default function LiveControlPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const labels = useResourceLabels(devicesResource);
  const [search] = useSearchParams();
  const preselected = Number(search.get('deviceId')) || undefined;
  const [filters, setFilters] = useState<Filters>({});
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<number, Row>>(new Map());
  const [level, setLevel] = useState(50);
  const [channelCode, setChannelCode] = useState<string | undefined>();
  const [channelValue, setChannelValue] = useState<number>(0);
  const [sending, setSending] = useState(false);
  const permissions = usePermissions();
  const format = useFormat();

  const listParams = {
    filter: { ...filters },
    detailFilter: [],
    selectedColumns: null,
    pageable: { page, size: PAGE_SIZE, sort: ['name,asc'] },
  };
  const list = useList('devices', listParams);
  const rows = list.data?.content ?? [];
  const pre = useRecord('devices', preselected);
  const preselectedRow = pre.data;
  useEffect(() => {
    if (preselectedRow)
      setSelected((current) => (current.size ? current : new Map([[preselectedRow.id, preselectedRow]])));
  }, [preselectedRow]);

  const ids = rows.map((r) => r.id);
  const modelIds = [...rows, ...selected.values()].map((r) => r.deviceTypeModelId as number);
  const templates = useChannelTemplates(modelIds);
  const values = useLatestValues(ids);
  const statuses = useConnectionStatus(ids);
  const lampStates = useLampStates(ids);
  const streets = useStreets();

  const latest = useMemo(() => {
    const codeOf = new Map((templates.data?.content ?? []).map((tpl) => [tpl.id, tpl.channelCode]));
    const map = new Map<string, unknown>();
    for (const v of values.data?.content ?? [])
      map.set(`${String(v.deviceId)}:${codeOf.get(v.deviceChannelTemplateId as number)}`, v.value);
    return map;
  }, [templates.data, values.data]);
  const statusOf = useMemo(
    () => new Map((statuses.data?.content ?? []).map((s) => [s.deviceId as number, s.status])),
    [statuses.data],
  );

  // Every write channel of the selected devices' models, not only lamp and dim: any model works.
  const selectedModels = new Set([...selected.values()].map((r) => r.deviceTypeModelId as number));
  const writeChannels = useMemo(() => {
    const byCode = new Map<string, { value: string; label: string }>();
    for (const tpl of templates.data?.content ?? []) {
      if (tpl.channelType === 'read' || !selectedModels.has(tpl.deviceTypeModelId as number)) continue;
      const code = String(tpl.channelCode);
      if (!byCode.has(code)) byCode.set(code, { value: code, label: channelLabel(tpl, code) });
    }
    return [...byCode.values()];
  }, [templates.data, selectedModels]);
  const chosenChannel = writeChannels.find((c) => c.value === channelCode);

  const selectAllMatching = async () => {
    try {
      const all = await listRecords('devices', {
        ...listParams,
        pageable: { page: 1, size: SELECT_ALL_LIMIT, sort: ['name,asc'] },
      });
      setSelected(new Map(all.content.map((r) => [r.id, r])));
    } catch (error) {
      message.error(errorMessage(error, t));
    }
  };

  const send = async (command: Command) => {
    setSending(true);
    try {
      const result = await sendCommand([...selected.values()], templates.data?.content ?? [], command);
      if (result.sent) message.success(t('liveControl.sent', { count: result.sent }));
      if (result.unsupported) message.warning(t('liveControl.unsupported', { count: result.unsupported }));
      const firstFailure = result.failed[0];
      if (firstFailure)
        modal.error({
          title: t('liveControl.failed', { count: result.failed.length }),
          content: errorMessage(firstFailure.error, t),
        });
    } finally {
      setSending(false);
      await client.invalidateQueries({ queryKey: keys.lists('channel-write-values') });
    }
  };

  const mayWrite = permissions.can('channel-write-values', 'create');
  const confirm = (command: Command, label: string, icon: ReactNode, primary = false) => (
    <Popconfirm
      title={t('liveControl.confirmTitle', { command: label, count: selected.size })}
      description={commandConsequence(command, selected.size, t, format, chosenChannel?.label)}
      okText={t('liveControl.send')}
      cancelText={t('action.cancel')}
      onConfirm={() => send(command)}
      disabled={selected.size === 0 || !mayWrite}
    >
      <Button
        icon={icon}
        type={primary ? 'primary' : 'default'}
        disabled={selected.size === 0 || !mayWrite}
        title={mayWrite ? undefined : t('liveControl.notAllowed')}
        loading={sending}
      >
        {label}
      </Button>
    </Popconfirm>
  );

  return (
    <Flex vertical gap={token.margin}>
      <Card>
        <ScreenTitle title={t('menu.assets-devices.channel-write-values')} spaced>
          <LiveBadge />
        </ScreenTitle>
        <Flex wrap gap={token.marginSM} style={{ marginBottom: token.margin }}>
          <div style={{ width: 220 }}>
            <ReferenceSelect
              prefix="regions"
              aria-label={labels.field('regionId')}
              placeholder={labels.field('regionId')}
              value={filters.regionId ?? null}
              onChange={(v) => {
                setFilters((f) => ({ ...f, regionId: typeof v === 'number' ? v : undefined }));
                setPage(1);
              }}
            />
          </div>
          <div style={{ width: 260 }}>
            <ReferenceSelect
              prefix="device-models"
              aria-label={labels.field('deviceTypeModelId')}
              placeholder={labels.field('deviceTypeModelId')}
              value={filters.deviceTypeModelId ?? null}
              onChange={(v) => {
                setFilters((f) => ({ ...f, deviceTypeModelId: typeof v === 'number' ? v : undefined }));
                setPage(1);
              }}
            />
          </div>
          <Select
            allowClear
            showSearch
            style={{ width: 240 }}
            aria-label={t('street.filter')}
            placeholder={t('street.all')}
            value={filters.street}
            onChange={(v: string | undefined) => {
              setFilters((f) => ({ ...f, street: v }));
              setPage(1);
            }}
            options={(streets.data ?? []).map((s) => ({ value: s.street, label: `${s.street} (${s.devices})` }))}
          />
          <Input.Search
            allowClear
            style={{ width: 240 }}
            aria-label={t('resource.search', { title: labels.title })}
            placeholder={t('resource.searchPlaceholder')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onSearch={(v) => {
              setFilters((f) => ({ ...f, q: v.trim() || undefined }));
              setPage(1);
            }}
          />
          <Button onClick={() => void selectAllMatching()}>
            {t('liveControl.selectAll', { total: Math.min(list.data?.totalElements ?? 0, SELECT_ALL_LIMIT) })}
          </Button>
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
          beside={[{ key: 'street', dataIndex: 'street', title: labels.field('street'), render: (v) => v || '–' }]}
          after={[
            {
              key: 'connection',
              title: t('device.status'),
              render: (_v, r) => <ConnectionTag status={statusOf.get(r.id)} />,
            },
            {
              key: 'lamp',
              title: t('liveControl.lampState'),
              render: (_v, r) => <LampStateTag state={lampStates.data?.get(r.id)?.state} />,
            },
            {
              key: 'dim',
              title: t('liveControl.dim'),
              render: (_v, r) => {
                const v = latest.get(`${r.id}:dim`);
                return v === undefined ? '–' : format.percent(Number(v), 0);
              },
            },
          ]}
        />
        <Flex
          wrap
          align="center"
          gap={token.marginSM}
          style={{
            marginTop: token.margin,
            paddingTop: token.margin,
            borderTop: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Typography.Text strong data-testid="selection-count">
            {t('liveControl.selected', { count: selected.size })}
          </Typography.Text>
          <Space wrap>
            {confirm({ code: 'lamp', value: 1 }, t('liveControl.turnOn'), <BulbFilled />, true)}
            {confirm({ code: 'lamp', value: 0 }, t('liveControl.turnOff'), <BulbOutlined />)}
          </Space>
          <Flex wrap align="center" gap={token.marginXS}>
            <Typography.Text id="dim-level">{t('liveControl.dimLevel')}</Typography.Text>
            <Slider
              min={0}
              max={100}
              value={level}
              onChange={setLevel}
              style={{ width: 160 }}
              ariaLabelledByForHandle="dim-level"
            />
            <InputNumber
              min={0}
              max={100}
              value={level}
              onChange={(v) => setLevel(typeof v === 'number' ? v : 0)}
              suffix="%"
              aria-label={t('liveControl.dimLevel')}
              style={{ width: 90 }}
            />
            {confirm({ code: 'dim', value: level }, t('liveControl.dimTo', { level }), <ThunderboltOutlined />)}
          </Flex>
          <Flex wrap align="center" gap={token.marginXS}>
            <Select
              style={{ width: 200 }}
              aria-label={t('liveControl.channel')}
              placeholder={t('liveControl.channel')}
              options={writeChannels}
              value={chosenChannel?.value}
              onChange={setChannelCode}
              disabled={writeChannels.length === 0}
            />
            <InputNumber
              value={channelValue}
              onChange={(v) => setChannelValue(typeof v === 'number' ? v : 0)}
              aria-label={t('liveControl.value')}
              style={{ width: 110 }}
            />
            {chosenChannel &&
              confirm(
                { code: chosenChannel.value, value: channelValue },
                t('liveControl.writeTo', { channel: chosenChannel.label, value: channelValue }),
                <ThunderboltOutlined />,
              )}
          </Flex>
        </Flex>
      </Card>
      <ResourcePage resource="channel-write-values" />
    </Flex>
  );
}
