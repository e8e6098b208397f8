import { ExclamationCircleFilled, InfoCircleFilled, WarningFilled } from '@ant-design/icons';
import { getResource } from '@lampyr/contract';
import { Badge, Flex, Grid, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useReferenceNames } from '../../data/reference-data.ts';
import { type Formatter, formatter, useFormat } from '../../lib/format.ts';
import type { Row } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';

dayjs.extend(localizedFormat);

export const alarmsResource = getResource('alert-logs');

const STATE_STATUS: Record<string, 'error' | 'warning' | 'success' | 'default'> = {
  active: 'error',
  acknowledged: 'warning',
  cleared: 'success',
};

/**
 * An alarm's level: a tag whose icon carries the level's colour (theme tokens, light and dark) and
 * whose text keeps the text colour, so it reads at AA contrast where a tinted red or amber would not.
 */
export function LevelTag({ level }: { level: unknown }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (typeof level !== 'string') return <Typography.Text type="secondary">–</Typography.Text>;
  const [Icon, color] =
    level === 'high'
      ? [ExclamationCircleFilled, token.colorError]
      : level === 'medium'
        ? [WarningFilled, token.colorWarning]
        : [InfoCircleFilled, token.colorInfo];
  // Tag colours its own icon with the text colour: the level's colour is set on a wrapper instead.
  return (
    <Tag style={level === 'high' ? { borderColor: token.colorError, fontWeight: 600 } : undefined}>
      <span style={{ color, marginInlineEnd: token.marginXXS }} aria-hidden>
        <Icon />
      </span>
      {t(`alarms.level.${level}`, { defaultValue: level })}
    </Tag>
  );
}

export function StateBadge({ row }: { row: Row }) {
  const { t } = useTranslation();
  const state = typeof row.state === 'string' ? row.state : row.isActive ? 'active' : 'cleared';
  const shelved = typeof row.shelvedUntil === 'string' && dayjs(row.shelvedUntil).isAfter(dayjs());
  const badge = <Badge status={STATE_STATUS[state] ?? 'default'} text={t(`alarms.state.${state}`)} />;
  if (!shelved) return badge;
  return (
    <Tooltip title={t('alarms.shelvedUntil', { time: dayjs(String(row.shelvedUntil)).format('L LT') })}>
      <span>
        {badge} <Tag>{t('alarms.shelved')}</Tag>
      </span>
    </Tooltip>
  );
}

/** A time as the alarm screens show it (date and time to the second, the user's locale), or '–'. */
export const when = (value: unknown) => (value ? dayjs(String(value)).format('L LTS') : '–');

export function formatValue(row: Row, format: Formatter = formatter('en')): string {
  if (row.value === null || row.value === undefined) return '–';
  const unit = typeof row.unit === 'string' ? row.unit : undefined;
  return typeof row.value === 'number' ? format.unit(row.value, unit) : `${String(row.value)}${unit ? ` ${unit}` : ''}`;
}

/**
 * The columns both alarm screens share: level, time, device, template (or node loss), value with
 * its unit, state; `extra` adds a screen's own (history's region and who cleared, real-time's
 * actions). On a phone the row reads as one summary cell beside its level, plus `narrowExtra`.
 */
export function useAlarmColumns(
  rows: readonly Row[],
  extra: ColumnsType<Row> = [],
  narrowExtra: ColumnsType<Row> = [],
): ColumnsType<Row> {
  const { t } = useTranslation();
  const labels = useResourceLabels(alarmsResource);
  const format = useFormat();
  const screens = Grid.useBreakpoint();
  const names = useReferenceNames(alarmsResource, rows, ['deviceId', 'templateId', 'regionId', 'gatewayId']);
  const nameOf = (prefix: string, id: unknown): ReactNode =>
    typeof id === 'number' ? (names.get(prefix)?.get(id) ?? `#${String(id)}`) : '–';
  // The device opens its details (latest values, connection, charts): where an operator looks next.
  // A gateway-loss alarm names its gateway instead.
  const deviceOf = (r: Row): ReactNode =>
    typeof r.deviceId === 'number' ? (
      <Link to={`/assets-devices/device-details?id=${String(r.deviceId)}`}>{nameOf('devices', r.deviceId)}</Link>
    ) : typeof r.gatewayId === 'number' ? (
      nameOf('gateway', r.gatewayId)
    ) : (
      '–'
    );
  // Node loss, the lamp fault rules and gateway loss are named by their kind; a gateway's alarm also
  // says which luminaires were heard only through it.
  const templateOf = (r: Row): ReactNode => {
    if (typeof r.kind !== 'string' || r.kind === 'threshold')
      return nameOf('alert-device-parameter-templates', r.templateId);
    const name = t(`alarms.kind.${r.kind}`);
    if (r.kind !== 'gatewayLoss' || typeof r.eventName !== 'string') return name;
    return (
      <Tooltip title={r.eventName}>
        <Flex vertical>
          <span>{name}</span>
          <Typography.Text type="secondary" ellipsis style={{ maxWidth: 320 }}>
            {r.eventName}
          </Typography.Text>
        </Flex>
      </Tooltip>
    );
  };
  const time = (r: Row) => when(r.dateTime);
  const level: ColumnsType<Row>[number] = {
    key: 'alertLevel',
    title: labels.field('alertLevel'),
    width: 100,
    render: (_v, r) => <LevelTag level={r.alertLevel} />,
  };
  if (screens.md === false) {
    return [
      {
        key: 'summary',
        title: t('alarms.alarm'),
        render: (_v, r) => (
          <Flex vertical gap={2}>
            <Flex wrap align="center" gap={4}>
              <LevelTag level={r.alertLevel} />
              <Typography.Text strong>{deviceOf(r)}</Typography.Text>
            </Flex>
            <Typography.Text>
              {templateOf(r)} · {formatValue(r, format)}
            </Typography.Text>
            <Typography.Text type="secondary">{time(r)}</Typography.Text>
            <StateBadge row={r} />
          </Flex>
        ),
      },
      ...narrowExtra,
    ];
  }
  return [
    level,
    {
      key: 'dateTime',
      title: labels.field('dateTime'),
      render: (_v, r) => <span style={{ whiteSpace: 'nowrap' }}>{time(r)}</span>,
    },
    { key: 'device', title: labels.field('deviceId'), render: (_v, r) => deviceOf(r) },
    { key: 'template', title: labels.field('templateId'), render: (_v, r) => templateOf(r) },
    {
      key: 'value',
      title: labels.field('value'),
      align: 'right',
      render: (_v, r) => <span style={{ whiteSpace: 'nowrap' }}>{formatValue(r, format)}</span>,
    },
    { key: 'state', title: labels.field('state'), render: (_v, r) => <StateBadge row={r} /> },
    ...extra,
  ];
}

/** The region column (history), named through the same lookups. */
export function useRegionName(rows: readonly Row[]) {
  const names = useReferenceNames(alarmsResource, rows, ['regionId']);
  return (id: unknown) => (typeof id === 'number' ? (names.get('regions')?.get(id) ?? `#${String(id)}`) : '–');
}
