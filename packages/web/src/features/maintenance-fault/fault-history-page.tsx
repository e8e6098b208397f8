import { getResource, WORK_ORDER_STATUSES } from '@lampyr/contract';
import { Card, DatePicker, Flex, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import type { FilterObject } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { WorkOrderTable } from './work-order-table.tsx';

const faults = getResource('report-a-fault');
const FAULT_TYPES = faults.fields.faultType?.options ?? [];

/**
 * Maintenance → Fault History: every fault reported — open, repaired, closed and those that came
 * back — of the account or of one device (`?deviceId=`, as device details link it), over a period;
 * each opens to its story: photo, place, who did what and when.
 */
export default function FaultHistoryPage() {
  const { t } = useTranslation();
  const labels = useResourceLabels(faults);
  const [search, setSearch] = useSearchParams();
  const deviceId = Number(search.get('deviceId')) || undefined;
  const [status, setStatus] = useState<string>();
  const [faultType, setFaultType] = useState<string>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [paging, setPaging] = useState({ page: 1, size: 20 });
  const filter: FilterObject = {
    ...(deviceId ? { deviceId } : {}),
    ...(status ? { status } : {}),
    ...(faultType ? { faultType } : {}),
  };
  const detailFilter = range
    ? [
        {
          field: 'reportedAt',
          operator: 'between',
          value: [range[0].startOf('day').toISOString(), range[1].endOf('day').toISOString()],
        },
      ]
    : [];
  const reset = () => setPaging((p) => ({ ...p, page: 1 }));
  return (
    <Card>
      <ScreenTitle title={t('workOrders.historyTitle')} spaced>
        <Flex gap={8} wrap>
          <div style={{ width: 240 }}>
            <ReferenceSelect
              prefix="devices"
              aria-label={labels.field('deviceId')}
              placeholder={t('workOrders.allDevices')}
              value={deviceId ?? null}
              onChange={(next) => {
                setSearch(typeof next === 'number' ? { deviceId: String(next) } : {});
                reset();
              }}
            />
          </div>
          <Select
            allowClear
            style={{ width: 170 }}
            aria-label={labels.field('status')}
            placeholder={labels.field('status')}
            value={status}
            onChange={(v) => {
              setStatus(v);
              reset();
            }}
            options={WORK_ORDER_STATUSES.map((v) => ({ value: v, label: labels.option('status', v) }))}
          />
          <Select
            allowClear
            style={{ width: 190 }}
            aria-label={labels.field('faultType')}
            placeholder={labels.field('faultType')}
            value={faultType}
            onChange={(v) => {
              setFaultType(v);
              reset();
            }}
            options={FAULT_TYPES.map((v) => ({ value: v, label: labels.option('faultType', v) }))}
          />
          <DatePicker.RangePicker
            aria-label={labels.field('reportedAt')}
            value={range}
            onChange={(v) => {
              setRange(v?.[0] && v[1] ? [v[0], v[1]] : null);
              reset();
            }}
          />
        </Flex>
      </ScreenTitle>
      <WorkOrderTable
        filter={filter}
        detailFilter={detailFilter}
        page={paging.page}
        size={paging.size}
        onPage={(page, size) => setPaging({ page: size !== paging.size ? 1 : page, size })}
      />
    </Card>
  );
}
