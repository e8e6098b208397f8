import { Alert, Button, Card, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import ResourcePage from '../../resources/resource-page.tsx';

/**
 * Maintenance → Maintenance History: what the work orders' steps recorded (reported, assigned,
 * planned, started, resolved with the parts used, closed, reopened), by whom and when — of the
 * account, or of one device (`?deviceId=`, as device details link it).
 */
export default function MaintenanceHistoryPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const deviceId = Number(search.get('deviceId')) || undefined;
  return (
    <Flex vertical gap={16}>
      <Card size="small">
        <ScreenTitle title={t('workOrders.maintenanceTitle')}>
          <div style={{ width: 260 }}>
            <ReferenceSelect
              prefix="devices"
              aria-label={t('workOrders.device')}
              placeholder={t('workOrders.allDevices')}
              value={deviceId ?? null}
              onChange={(next) => setSearch(typeof next === 'number' ? { deviceId: String(next) } : {})}
            />
          </div>
        </ScreenTitle>
        {deviceId && (
          <Alert
            style={{ marginTop: 12 }}
            type="info"
            showIcon
            title={t('workOrders.oneDevice')}
            action={
              <Button size="small" onClick={() => setSearch({})}>
                {t('workOrders.allDevices')}
              </Button>
            }
          />
        )}
      </Card>
      <ResourcePage
        key={deviceId ?? 'all'}
        resource="maintenance-history"
        tableKey={deviceId ? 'maintenance-history-device' : 'maintenance-history'}
        fixedFilter={deviceId ? { deviceId } : undefined}
      />
    </Flex>
  );
}
