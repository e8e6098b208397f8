import { OPEN_STATUSES } from '@lampyr/contract';
import { Button, Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePagedList } from '../../data/resource-list.ts';
import { StatusTag } from './work-order-table.tsx';

/** Device details' maintenance: its open work orders, and links to its fault and maintenance histories. */
export function DeviceMaintenanceCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const open = usePagedList('report-a-fault', {
    filter: { deviceId, status: [...OPEN_STATUSES] },
    detailFilter: [],
    selectedColumns: { status: true, faultType: true },
    pageable: { page: 1, size: 5, sort: ['reportedAt,desc'] },
  });
  const count = open.data?.totalElements;
  return (
    <Card title={t('workOrders.deviceCard')} size="small" data-testid="device-maintenance">
      <p>
        {count === undefined ? '…' : count === 0 ? t('workOrders.deviceNoOpen') : t('workOrders.deviceOpen', { count })}{' '}
        {(open.data?.content ?? []).map((r) => (
          <span key={r.id} style={{ marginInlineEnd: 4 }}>
            #{r.id} <StatusTag status={r.status} />
          </span>
        ))}
      </p>
      <Space wrap>
        <Link to={`/maintenance-fault/fault-history?deviceId=${deviceId}`}>
          <Button>{t('menu.maintenance-fault.fault-history')}</Button>
        </Link>
        <Link to={`/maintenance-fault/maintenance-history?deviceId=${deviceId}`}>
          <Button>{t('resources:maintenance-history.menu')}</Button>
        </Link>
        <Link to={`/maintenance-fault/report-a-fault?deviceId=${deviceId}`}>
          <Button>{t('workOrders.reportTitle')}</Button>
        </Link>
      </Space>
    </Card>
  );
}
