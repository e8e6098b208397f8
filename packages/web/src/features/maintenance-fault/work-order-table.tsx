import { getResource } from '@lampyr/contract';
import { Alert, Badge, Descriptions, Empty, Flex, Image, Spin, Timeline, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useReferenceNames } from '../../data/reference-data.ts';
import { usePagedList } from '../../data/resource-list.ts';
import { useAssignees, useFaultPhoto, useWorkOrderHistory } from '../../data/work-orders.ts';
import { errorMessage } from '../../lib/error-message.ts';
import type { FilterObject, Row } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { WorkOrderActions } from './work-order-actions.tsx';

const faults = getResource('report-a-fault');
const history = getResource('maintenance-history');

/** A status's dot: waiting for a crew (error), with one (warning, processing), repaired (success), done (default). */
const STATUS_DOT: Record<string, 'error' | 'warning' | 'processing' | 'success' | 'default'> = {
  open: 'error',
  assigned: 'warning',
  planned: 'warning',
  in_progress: 'processing',
  resolved: 'success',
  closed: 'default',
  duplicate: 'default',
};

export function StatusTag({ status }: { status: unknown }) {
  const labels = useResourceLabels(faults);
  const value = String(status ?? '');
  return (
    <Badge
      status={STATUS_DOT[value] ?? 'default'}
      text={labels.option('status', value)}
      data-testid="work-order-status"
    />
  );
}

const time = (value: unknown) => (typeof value === 'string' ? dayjs(value).format('L LT') : '–');

/** One work order's story: what was reported (photo, place), who has it, what was done, and its history. */
export function WorkOrderDetails({ order }: { order: Row }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const labels = useResourceLabels(faults);
  const historyLabels = useResourceLabels(history);
  const steps = useWorkOrderHistory(order.id);
  const photo = useFaultPhoto(order.id, order.hasPhoto === true);
  const lat = typeof order.latitude === 'number' ? order.latitude : undefined;
  const lon = typeof order.longitude === 'number' ? order.longitude : undefined;
  const text = (v: unknown) => (v === null || v === undefined || v === '' ? '–' : String(v));
  return (
    <Flex gap={token.marginLG} wrap data-testid={`work-order-details-${order.id}`}>
      <Flex vertical gap={token.margin} style={{ flex: '1 1 380px', minWidth: 0 }}>
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={labels.field('description')}>{text(order.description)}</Descriptions.Item>
          <Descriptions.Item label={labels.field('reporter')}>{text(order.reporter)}</Descriptions.Item>
          <Descriptions.Item label={t('workOrders.location')}>
            {lat !== undefined && lon !== undefined ? (
              <a
                href={`https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=18/${lat}/${lon}`}
                target="_blank"
                rel="noreferrer"
              >{`${lat.toFixed(5)}, ${lon.toFixed(5)}`}</a>
            ) : (
              '–'
            )}
          </Descriptions.Item>
          <Descriptions.Item label={labels.field('crew')}>{text(order.crew)}</Descriptions.Item>
          <Descriptions.Item label={labels.field('resolution')}>{text(order.resolution)}</Descriptions.Item>
          <Descriptions.Item label={labels.field('partsUsed')}>{text(order.partsUsed)}</Descriptions.Item>
          {Number(order.reopenCount) > 0 && (
            <Descriptions.Item label={labels.field('reopenCount')}>{String(order.reopenCount)}</Descriptions.Item>
          )}
          {typeof order.duplicateOfId === 'number' && (
            <Descriptions.Item label={labels.field('duplicateOfId')}>#{order.duplicateOfId}</Descriptions.Item>
          )}
        </Descriptions>
        {order.hasPhoto === true &&
          (photo.isPending ? (
            <Spin aria-label={t('state.loading')} />
          ) : photo.data ? (
            <Image src={photo.data} alt={t('workOrders.photoAlt', { id: order.id })} width={240} />
          ) : (
            <Alert type="warning" showIcon title={errorMessage(photo.error, t)} />
          ))}
      </Flex>
      <div style={{ flex: '1 1 360px', minWidth: 0 }}>
        <h4 style={{ marginTop: 0 }}>{t('workOrders.timeline')}</h4>
        {steps.isPending ? (
          <Spin aria-label={t('state.loading')} />
        ) : steps.isError ? (
          <Alert type="error" showIcon title={errorMessage(steps.error, t)} />
        ) : (steps.data?.content.length ?? 0) === 0 ? (
          <Empty description={t('workOrders.noHistory')} />
        ) : (
          <Timeline
            items={(steps.data?.content ?? []).map((h) => ({
              key: h.id,
              color:
                h.action === 'resolve' || h.action === 'close'
                  ? 'green'
                  : h.action === 'autoReopen' || h.action === 'reopen'
                    ? 'red'
                    : 'blue',
              content: (
                <div data-testid="work-order-step">
                  <strong>{historyLabels.option('action', String(h.action ?? ''))}</strong>
                  {' · '}
                  {time(h.performedAt)} · {String(h.performedBy ?? '')}
                  {h.work && h.work !== '—' ? <div>{String(h.work)}</div> : null}
                  {h.partsUsed ? (
                    <div style={{ color: token.colorTextSecondary }}>
                      {historyLabels.field('partsUsed')}: {String(h.partsUsed)}
                    </div>
                  ) : null}
                </div>
              ),
            }))}
          />
        )}
      </div>
    </Flex>
  );
}

/**
 * Work orders as a table: the fault, its device, status, who has it and when it is planned; a row
 * opens to its story. With `actions` each row offers the steps its status allows.
 */
export function WorkOrderTable({
  filter,
  detailFilter,
  page,
  size,
  onPage,
  actions,
}: {
  filter: FilterObject;
  detailFilter?: { field: string; operator: string; value: unknown }[];
  page: number;
  size: number;
  onPage: (page: number, size: number) => void;
  actions?: boolean;
}) {
  const { t } = useTranslation();
  const labels = useResourceLabels(faults);
  const list = usePagedList('report-a-fault', {
    filter,
    detailFilter: (detailFilter ?? []) as never,
    selectedColumns: null,
    pageable: { page, size, sort: ['reportedAt,desc', 'id,desc'] },
  });
  const rows = list.data?.content ?? [];
  const names = useReferenceNames(faults, rows, ['deviceId']);
  const people = new Map((useAssignees().data ?? []).map((a) => [a.id, a.name]));
  const columns: ColumnsType<Row> = [
    { key: 'id', title: '#', dataIndex: 'id', width: 70 },
    {
      key: 'deviceId',
      title: labels.field('deviceId'),
      render: (_: unknown, row) => (
        <Link to={`/assets-devices/device-details?id=${row.deviceId}`}>
          {names.get('devices')?.get(row.deviceId as number) ?? `#${row.deviceId}`}
        </Link>
      ),
    },
    {
      key: 'faultType',
      title: labels.field('faultType'),
      render: (_: unknown, row) => labels.option('faultType', String(row.faultType)),
    },
    { key: 'status', title: labels.field('status'), render: (_: unknown, row) => <StatusTag status={row.status} /> },
    {
      key: 'assigneeId',
      title: labels.field('assigneeId'),
      render: (_: unknown, row) =>
        typeof row.assigneeId === 'number'
          ? `${people.get(row.assigneeId) ?? `#${row.assigneeId}`}${row.crew ? ` · ${row.crew}` : ''}`
          : '–',
    },
    {
      key: 'plannedDate',
      title: labels.field('plannedDate'),
      render: (_: unknown, row) => String(row.plannedDate ?? '–'),
    },
    { key: 'reportedAt', title: labels.field('reportedAt'), render: (_: unknown, row) => time(row.reportedAt) },
    ...(actions
      ? [
          {
            key: 'actions',
            title: t('workOrders.steps'),
            fixed: 'right' as const,
            render: (_: unknown, row: Row) => <WorkOrderActions order={row} />,
          },
        ]
      : [
          {
            key: 'resolvedAt',
            title: labels.field('resolvedAt'),
            render: (_: unknown, row: Row) => time(row.resolvedAt),
          },
          {
            key: 'closedAt',
            title: labels.field('closedAt'),
            render: (_: unknown, row: Row) => time(row.closedAt),
          },
        ]),
  ];
  if (list.isError && !list.data)
    return <Alert type="error" showIcon role="alert" title={errorMessage(list.error, t)} />;
  return (
    <ScrollTable<Row>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={list.isFetching}
      scroll={{ x: 'max-content' }}
      expandable={{ expandedRowRender: (row) => <WorkOrderDetails order={row} />, rowExpandable: () => true }}
      locale={{ emptyText: list.isPending ? <span /> : <Empty description={t('workOrders.none')} /> }}
      pagination={{
        current: page,
        pageSize: size,
        total: list.data?.totalElements ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 50, 100],
        showTotal: (count, [from, to]) => t('resource.range', { from, to, total: count }),
        onChange: onPage,
      }}
    />
  );
}
