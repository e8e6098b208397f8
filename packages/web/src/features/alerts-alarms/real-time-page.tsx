import { CheckOutlined, ClockCircleOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Space, Switch, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlertToggles } from '../../app/layout/alert-settings.tsx';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { usePagedList } from '../../data/resource-list.ts';
import { ALARMS, OPEN_STATES } from '../../lib/alarm-cache.ts';
import type { ListParams, Row } from '../../lib/resource-api.ts';
import { LiveBadge } from '../assets-devices/live-badge.tsx';
import { useAlarmColumns } from './alarm-columns.tsx';
import { AlarmListTable } from './alarm-list-table.tsx';
import { useAlarmAction } from './use-alarm-action.tsx';
import { usePaging } from './use-paging.ts';

/** The real-time list's query: alarms not cleared, newest first (what alarm-cache.ts keeps live). */
export function realTimeParams(page: number, size: number): ListParams {
  return {
    filter: { state: [...OPEN_STATES] },
    detailFilter: [],
    selectedColumns: null,
    pageable: { page, size, sort: ['dateTime,desc'] },
  };
}

/**
 * Real-time Alarms: the alarms not yet cleared, kept live from the stream (lib/alarm-cache.ts);
 * acknowledge, clear or shelve one or a selection, confirmed, with how many changed.
 */
export default function RealTimeAlarmsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { page, size, pagination } = usePaging();
  const [selected, setSelected] = useState<number[]>([]);
  const params = realTimeParams(page, size);
  const list = usePagedList(ALARMS, params);
  const rows = list.data?.content ?? [];
  const { prefs, setDesktop } = useAlertToggles();
  const action = useAlarmAction(() => setSelected([]));
  // A row that left the list (cleared elsewhere) leaves the selection too.
  const chosen = selected.filter((id) => rows.some((r) => r.id === id));

  const actionsColumn: ColumnsType<Row>[number] = {
    key: 'actions',
    title: t('resource.actions'),
    width: 120,
    render: (_v, r) => (
      <Flex wrap gap={0}>
        <Tooltip title={t('alarms.actions.acknowledge')}>
          <Button
            type="text"
            size="small"
            icon={<CheckOutlined />}
            aria-label={t('alarms.actions.acknowledgeOne', { id: r.id })}
            disabled={r.state !== 'active'}
            onClick={() => action.start('acknowledge', [r.id])}
          />
        </Tooltip>
        <Tooltip title={t('alarms.actions.shelve')}>
          <Button
            type="text"
            size="small"
            icon={<ClockCircleOutlined />}
            aria-label={t('alarms.actions.shelveOne', { id: r.id })}
            onClick={() => action.start('shelve', [r.id])}
          />
        </Tooltip>
        <Tooltip title={t('alarms.actions.clear')}>
          <Button
            type="text"
            size="small"
            danger
            icon={<StopOutlined />}
            aria-label={t('alarms.actions.clearOne', { id: r.id })}
            onClick={() => action.start('clear', [r.id])}
          />
        </Tooltip>
      </Flex>
    ),
  };
  const columns = useAlarmColumns(rows, [actionsColumn], [{ ...actionsColumn, title: '', width: 40 }]);

  return (
    <Card>
      <ScreenTitle title={t('menu.alerts-alarms.real-time')} spaced>
        <LiveBadge />
      </ScreenTitle>
      <Flex wrap justify="space-between" align="center" gap={token.marginSM} style={{ marginBottom: token.margin }}>
        <Space wrap>
          <Typography.Text strong data-testid="selection-count">
            {t('alarms.selected', { count: chosen.length })}
          </Typography.Text>
          <Button
            icon={<CheckOutlined />}
            disabled={!chosen.length}
            onClick={() => action.start('acknowledge', chosen)}
          >
            {t('alarms.actions.acknowledge')}
          </Button>
          <Button
            icon={<ClockCircleOutlined />}
            disabled={!chosen.length}
            onClick={() => action.start('shelve', chosen)}
          >
            {t('alarms.actions.shelve')}
          </Button>
          <Button
            danger
            icon={<StopOutlined />}
            disabled={!chosen.length}
            onClick={() => action.start('clear', chosen)}
          >
            {t('alarms.actions.clear')}
          </Button>
        </Space>
        <Space>
          <Switch id="desktop-alerts" size="small" checked={prefs.desktop} onChange={(on) => void setDesktop(on)} />
          <label htmlFor="desktop-alerts">{t('alarms.prefs.desktop')}</label>
        </Space>
      </Flex>
      <AlarmListTable
        list={list}
        rows={rows}
        columns={columns}
        empty={t('alarms.noneActive')}
        selected={chosen}
        onSelect={setSelected}
        pagination={pagination(list.data?.totalElements ?? 0, (total) => t('alarms.total', { count: total }))}
      />
      {action.dialog}
    </Card>
  );
}
