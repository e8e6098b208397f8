import { getResource } from '@lampyr/contract';
import type { ColumnsType } from 'antd/es/table';
import { useReferenceNames } from '../../data/reference-data.ts';
import type { Row } from '../../lib/resource-api.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';

const devicesResource = getResource('devices');

/**
 * The devices a command goes to: a page of the device list with a checkbox each, the selection kept
 * across pages (the rows by id, for what the command needs of them: the model, the name). Columns:
 * the name, the screen's own (`beside`), the model and region, then the screen's others (`after`).
 */
export function DeviceSelectionTable({
  rows,
  total,
  loading,
  page,
  pageSize,
  onPage,
  selected,
  onSelect,
  beside = [],
  after = [],
}: {
  rows: Row[];
  total: number;
  loading: boolean;
  /** From 1. */
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  selected: Map<number, Row>;
  onSelect: (selected: Map<number, Row>) => void;
  beside?: ColumnsType<Row>;
  after?: ColumnsType<Row>;
}) {
  const labels = useResourceLabels(devicesResource);
  const names = useReferenceNames(devicesResource, rows, ['deviceTypeModelId', 'regionId']);
  return (
    <ScrollTable<Row>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={rows}
      rowSelection={{
        selectedRowKeys: [...selected.keys()],
        preserveSelectedRowKeys: true,
        onChange: (ids, chosen) => {
          // A row chosen on another page is not among these rows: it stays as it was selected.
          const next = new Map<number, Row>();
          for (const id of ids) {
            const row = chosen.find((r) => r?.id === id) ?? selected.get(Number(id));
            if (row) next.set(row.id, row);
          }
          onSelect(next);
        },
      }}
      pagination={{ current: page, pageSize, total, showSizeChanger: false, onChange: onPage }}
      columns={[
        { key: 'name', dataIndex: 'name', title: labels.field('name') },
        ...beside,
        {
          key: 'model',
          title: labels.field('deviceTypeModelId'),
          render: (_v, r) => names.get('device-models')?.get(r.deviceTypeModelId as number) ?? '–',
        },
        {
          key: 'region',
          title: labels.field('regionId'),
          render: (_v, r) => names.get('regions')?.get(r.regionId as number) ?? '–',
        },
        ...after,
      ]}
    />
  );
}
