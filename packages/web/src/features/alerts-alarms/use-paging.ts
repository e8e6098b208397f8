import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';

const PAGE_SIZES = [20, 50, 100];

/**
 * A hand-made list's page and page size, and the table's pagination for a total: a new page size
 * goes back to the first page.
 */
export function usePaging() {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(PAGE_SIZES[0] as number);
  const pagination = (total: number, showTotal?: (total: number) => string): TablePaginationConfig => ({
    current: page,
    pageSize: size,
    total,
    pageSizeOptions: PAGE_SIZES,
    showSizeChanger: true,
    ...(showTotal ? { showTotal } : {}),
    onChange: (next, nextSize) => {
      setPage(nextSize === size ? next : 1);
      setSize(nextSize);
    },
  });
  return { page, size, setPage, pagination };
}
