import type { TablePaginationConfig } from 'antd';
import { Empty, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message.ts';
import type { Row } from '../../lib/resource-api.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';

/**
 * The list of an alarm screen (real-time, history, notifications): why it could not be read, then
 * its page of rows with the screen's columns, paged by the server; rows chosen by id where the
 * screen acts on a selection.
 */
export function AlarmListTable({
  list,
  rows,
  columns,
  empty,
  pagination,
  selected,
  onSelect,
}: {
  list: { isError: boolean; error: unknown; isLoading: boolean; isFetching: boolean };
  rows: Row[];
  columns: ColumnsType<Row>;
  /** What the empty list says. */
  empty: string;
  pagination: TablePaginationConfig;
  selected?: number[];
  onSelect?: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {list.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {errorMessage(list.error, t)}
        </Typography.Paragraph>
      )}
      <ScrollTable<Row>
        rowKey="id"
        size="small"
        loading={list.isLoading || list.isFetching}
        dataSource={rows}
        columns={columns}
        locale={{ emptyText: <Empty description={empty} /> }}
        rowSelection={
          selected && onSelect
            ? { selectedRowKeys: selected, onChange: (next) => onSelect(next as number[]) }
            : undefined
        }
        pagination={pagination}
      />
    </>
  );
}
