import { SendOutlined } from '@ant-design/icons';
import type { PreviewNight, PreviewSwitchPoint, SchedulePreviewRequest } from '@lampyr/contract';
import { PREVIEW_NIGHTS } from '@lampyr/contract';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  InputNumber,
  Popconfirm,
  Segmented,
  Spin,
  Statistic,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useSchedulePreview } from '../../data/schedules.ts';
import { request } from '../../lib/api-client.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useFormat } from '../../lib/format.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { type Batch, DeployProgress } from '../assets-devices/deploy-progress.tsx';

type TargetKind = 'taskGroupId' | 'deviceId';

/** A local clock time of an instant in the devices' zone. */
const clock = (iso: string | null, timeZone: string) =>
  iso
    ? new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
        new Date(iso),
      )
    : '—';

/** Burn hours as h:mm. */
const hours = (h: number) => `${Math.floor(h)}:${String(Math.round((h % 1) * 60)).padStart(2, '0')}`;

function PointTag({ point }: { point: PreviewSwitchPoint }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { token } = theme.useToken();
  const rule = point.rule;
  const what =
    point.level === 0 ? t('schedule.off') : point.level === 100 ? t('schedule.on') : format.percent(point.level, 0);
  const source = [
    t(`schedule.kinds.${rule.kind}`),
    rule.profileName && `${t('schedule.profile')}: ${rule.profileName}`,
    rule.groupName && `${t('schedule.group')}: ${rule.groupName}`,
    rule.slot && `${t('schedule.slot')}: ${rule.slot}`,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Tooltip title={source}>
      <Tag
        color={point.level === 0 ? undefined : (rule.color ?? token.colorPrimary)}
        style={{ marginInlineEnd: token.marginXXS }}
        data-testid="switch-point"
      >
        {point.time} → {what}
      </Tag>
    </Tooltip>
  );
}

/**
 * The plan of a task group or a device for the next nights: on, dim and off times with the rule
 * behind each, burn hours and an energy estimate (POST /query/api/schedules/preview).
 */
export default function SchedulePreviewPage() {
  const format = useFormat();
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [search, setSearch] = useSearchParams();
  const kind: TargetKind = search.has('deviceId') ? 'deviceId' : 'taskGroupId';
  const id = Number(search.get(kind)) || undefined;
  const nights = Math.min(PREVIEW_NIGHTS.max, Math.max(1, Number(search.get('nights')) || PREVIEW_NIGHTS.default));
  const from = search.get('from') ?? undefined;
  const set = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    setSearch(next, { replace: true });
  };

  const body = useMemo<SchedulePreviewRequest | undefined>(
    () =>
      id === undefined
        ? undefined
        : { target: kind === 'deviceId' ? { deviceId: id } : { taskGroupId: id }, nights, ...(from ? { from } : {}) },
    [id, kind, nights, from],
  );
  const preview = useSchedulePreview(body);
  const data = preview.data;
  // Deploying the group's program to its controllers, followed per device below the calendar.
  const { modal, message } = App.useApp();
  const [batch, setBatch] = useState<Batch>();
  const [sending, setSending] = useState(false);
  const groupId = kind === 'taskGroupId' ? id : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new group starts with no batch shown
  useEffect(() => setBatch(undefined), [groupId]);
  const deploy = async (deviceIds?: number[]) => {
    if (groupId === undefined) return;
    setSending(true);
    try {
      const answer = deviceIds
        ? await request<Batch>('command', 'devices/config-actions', {
            method: 'POST',
            body: { action: 'config-deploy', deviceIds, ...(batch?.profileId ? { profileId: batch.profileId } : {}) },
          })
        : await request<Batch>('command', `task-groups/${groupId}/deploy`, { method: 'POST', body: {} });
      setBatch((current) => ({ ...answer, profileId: answer.profileId ?? current?.profileId }));
      message.success(t('deviceActions.queued', { count: answer.results.length }));
    } catch (error) {
      modal.error({ title: t('deviceActions.refused'), content: errorMessage(error, t) });
    } finally {
      setSending(false);
    }
  };
  const zone = data?.device?.timeZone ?? 'UTC';

  const columns = [
    {
      key: 'night',
      title: t('schedule.night'),
      width: 150,
      render: (_: unknown, n: PreviewNight) => (
        <Flex vertical>
          <span>{dayjs(n.night).format('ddd D MMM YYYY')}</span>
          <Flex gap={token.marginXXS} wrap>
            {n.holiday && <Tag color="gold">{t('schedule.holiday')}</Tag>}
            {n.polarNight && <Tag>{t('schedule.polarNight')}</Tag>}
            {n.polarDay && <Tag>{t('schedule.polarDay')}</Tag>}
          </Flex>
        </Flex>
      ),
    },
    {
      key: 'sun',
      title: t('schedule.sun'),
      width: 130,
      render: (_: unknown, n: PreviewNight) => `${clock(n.sunset, zone)} / ${clock(n.sunrise, zone)}`,
    },
    {
      key: 'points',
      title: t('schedule.switchPoints'),
      render: (_: unknown, n: PreviewNight) =>
        n.switchPoints.length ? (
          n.switchPoints.map((p) => <PointTag key={p.at} point={p} />)
        ) : (
          <Typography.Text type="secondary">
            {n.levelAtStart > 0 ? t('schedule.staysAt', { level: n.levelAtStart }) : t('schedule.noSwitching')}
          </Typography.Text>
        ),
    },
    {
      key: 'burn',
      title: t('schedule.burnHours'),
      width: 110,
      render: (_: unknown, n: PreviewNight) => hours(n.burnHours),
    },
    {
      key: 'energy',
      title: t('schedule.energy'),
      width: 120,
      render: (_: unknown, n: PreviewNight) => (n.energyKwh === null ? '—' : format.unit(n.energyKwh, 'kWh', 1)),
    },
  ];

  return (
    <Flex vertical gap={token.margin}>
      <ScreenTitle title={t('menu.tasks-schedules.schedule-preview')}>
        <Segmented
          value={kind}
          options={[
            { value: 'taskGroupId', label: t('schedule.byGroup') },
            { value: 'deviceId', label: t('schedule.byDevice') },
          ]}
          onChange={(value) => set({ taskGroupId: undefined, deviceId: undefined, [value as string]: '' })}
        />
        <div style={{ minWidth: 260 }}>
          <ReferenceSelect
            key={kind}
            prefix={kind === 'deviceId' ? 'devices' : 'task-groups'}
            value={id ?? null}
            aria-label={kind === 'deviceId' ? t('schedule.byDevice') : t('schedule.byGroup')}
            placeholder={kind === 'deviceId' ? t('schedule.pickDevice') : t('schedule.pickGroup')}
            onChange={(value) => set({ [kind]: typeof value === 'number' ? String(value) : undefined })}
          />
        </div>
        <DatePicker
          aria-label={t('schedule.from')}
          value={from ? dayjs(from) : null}
          placeholder={t('schedule.today')}
          onChange={(value) => set({ from: value ? value.format('YYYY-MM-DD') : undefined })}
        />
        <InputNumber
          aria-label={t('schedule.nights')}
          min={1}
          max={PREVIEW_NIGHTS.max}
          value={nights}
          addonAfter={t('schedule.nightsUnit')}
          onChange={(value) => set({ nights: value ? String(value) : undefined })}
        />
      </ScreenTitle>
      {body === undefined ? (
        <Card>
          <Empty description={t('schedule.pickTarget')} />
        </Card>
      ) : preview.isError ? (
        <Alert type="error" showIcon message={errorMessage(preview.error, t)} />
      ) : !data ? (
        <Flex justify="center" style={{ padding: token.paddingLG }}>
          <Spin />
        </Flex>
      ) : (
        <>
          <Card>
            <Flex gap={token.marginXL} wrap>
              <Statistic title={t('schedule.devices')} value={data.devices} />
              {data.device && (
                <Statistic title={t('schedule.shownDevice')} value={`${data.device.name} (${data.device.timeZone})`} />
              )}
              <Statistic
                title={t('schedule.totalBurn', { nights: data.nights.length })}
                value={hours(data.totals.burnHours)}
              />
              <Statistic
                title={t('schedule.totalEnergy', { nights: data.nights.length })}
                value={data.totals.energyKwh === null ? '—' : format.unit(data.totals.energyKwh, 'kWh', 1)}
              />
              {groupId !== undefined && data.devices > 0 && (
                <Flex align="center">
                  <Popconfirm
                    title={t('schedule.deployGroup')}
                    description={t('confirm.sendProfile')}
                    okText={t('liveControl.send')}
                    cancelText={t('action.cancel')}
                    onConfirm={() => deploy()}
                  >
                    <Button type="primary" icon={<SendOutlined />} loading={sending}>
                      {t('schedule.deployGroup')}
                    </Button>
                  </Popconfirm>
                </Flex>
              )}
            </Flex>
            <Typography.Paragraph type="secondary" style={{ marginTop: token.margin, marginBottom: 0 }}>
              {t('schedule.assumption', { withPower: data.devicesWithPower, devices: data.devices })}
              {data.device && ` ${data.device.supportTask ? t('schedule.deployed') : t('schedule.serverTimed')}`}
            </Typography.Paragraph>
          </Card>
          {batch && (
            <DeployProgress
              batch={batch}
              sending={sending}
              confirmText={() => t('confirm.sendProfile')}
              onResend={(ids) => deploy(ids)}
            />
          )}
          {data.devices === 0 ? (
            <Card>
              <Empty description={t('schedule.noDevices')} />
            </Card>
          ) : (
            <ScrollTable<PreviewNight>
              rowKey="night"
              size="small"
              columns={columns}
              dataSource={data.nights}
              pagination={false}
              scroll={{ x: 800 }}
            />
          )}
        </>
      )}
    </Flex>
  );
}
