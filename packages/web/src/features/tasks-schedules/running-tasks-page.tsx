import type { RunningSchedules } from '@lampyr/contract';
import { Alert, Button, Card, Empty, Flex, Spin, Tag, theme } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useRunningSchedules } from '../../data/schedules.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useFormat } from '../../lib/format.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';

type Group = RunningSchedules['groups'][number];
type Ran = RunningSchedules['recent'][number];

const time = (iso: string | null | undefined) => (iso ? dayjs(iso).format('D MMM HH:mm') : '—');

/**
 * Running tasks and task history: each task group's level now and its next switch point (by the
 * plan), and the switch points the scheduler executed last. Refreshed every half minute.
 */
export default function RunningTasksPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { token } = theme.useToken();
  const running = useRunningSchedules();
  const level = (value: number | undefined | null) =>
    value === undefined || value === null ? (
      '—'
    ) : value === 0 ? (
      <Tag>{t('schedule.off')}</Tag>
    ) : (
      <Tag>{value === 100 ? t('schedule.on') : format.percent(value, 0)}</Tag>
    );
  const groups = [
    {
      key: 'name',
      title: t('schedule.group'),
      render: (_: unknown, g: Group) => (
        <Link to={`/tasks-schedules/schedule-preview?taskGroupId=${g.groupId}`}>{g.name}</Link>
      ),
    },
    { key: 'devices', title: t('schedule.devices'), dataIndex: 'devices', width: 100 },
    {
      key: 'now',
      title: t('schedule.now'),
      render: (_: unknown, g: Group) => (
        <Flex gap={token.marginXS} align="center">
          {level(g.current?.level)}
          {g.current?.since && <span>{t('schedule.since', { time: time(g.current.since) })}</span>}
        </Flex>
      ),
    },
    {
      key: 'next',
      title: t('schedule.next'),
      render: (_: unknown, g: Group) =>
        g.next ? (
          <Flex gap={token.marginXS} align="center">
            {level(g.next.level)}
            <span>{time(g.next.at)}</span>
          </Flex>
        ) : (
          '—'
        ),
    },
    {
      key: 'how',
      title: t('schedule.execution'),
      render: (_: unknown, g: Group) =>
        g.device ? (g.device.supportTask ? t('schedule.deployedShort') : t('schedule.serverTimedShort')) : '—',
    },
  ];
  const recent = [
    { key: 'at', title: t('schedule.plannedAt'), render: (_: unknown, r: Ran) => time(r.plannedAt) },
    { key: 'device', title: t('schedule.byDevice'), render: (_: unknown, r: Ran) => r.deviceName ?? r.deviceId ?? '—' },
    { key: 'level', title: t('schedule.level'), render: (_: unknown, r: Ran) => level(r.level) },
    {
      key: 'kind',
      title: t('schedule.rule'),
      render: (_: unknown, r: Ran) => (r.controlType ? t(`schedule.kinds.${r.controlType}`) : '—'),
    },
    { key: 'write', title: t('schedule.delivery'), render: (_: unknown, r: Ran) => r.writeStatus ?? r.status ?? '—' },
  ];
  return (
    <Flex vertical gap={token.margin}>
      <ScreenTitle title={t('menu.tasks-schedules.running-tasks')}>
        <Button onClick={() => running.refetch()} loading={running.isFetching}>
          {t('schedule.refresh')}
        </Button>
      </ScreenTitle>
      {running.isError ? (
        <Alert type="error" showIcon message={errorMessage(running.error, t)} />
      ) : !running.data ? (
        <Flex justify="center" style={{ padding: token.paddingLG }}>
          <Spin />
        </Flex>
      ) : (
        <>
          <Card title={t('schedule.groupsNow')}>
            <ScrollTable<Group>
              rowKey="groupId"
              size="small"
              columns={groups}
              dataSource={running.data.groups}
              pagination={false}
              locale={{ emptyText: <Empty description={t('schedule.noGroups')} /> }}
            />
          </Card>
          <Card title={t('schedule.lastRun')}>
            <ScrollTable<Ran>
              rowKey="id"
              size="small"
              columns={recent}
              dataSource={running.data.recent}
              pagination={{ pageSize: 10 }}
              locale={{ emptyText: <Empty description={t('schedule.nothingRan')} /> }}
            />
          </Card>
        </>
      )}
    </Flex>
  );
}
