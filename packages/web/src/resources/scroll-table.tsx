import { Table, type TableProps } from 'antd';
import type { ColumnsType, TableRowSelection } from 'antd/es/table/interface';
import TableMeasureRowContext from 'antd/es/table/TableMeasureRowContext';
import { type ReactNode, useContext, useEffect, useRef } from 'react';

/**
 * The key column (the first one: a record's name, a device) stays in view while the others scroll:
 * fixed to the left unless a column already says where it is fixed.
 */
export function withFixedKey<T>(columns: ColumnsType<T> | undefined): ColumnsType<T> | undefined {
  if (!columns?.length || columns.some((c) => c.fixed === 'left' || c.fixed === true)) return columns;
  const [first, ...rest] = columns;
  if (!first || first.fixed === 'right') return columns;
  return [{ ...first, fixed: 'left' }, ...rest];
}

/**
 * A scrolling table measures its columns in a hidden row that repeats their titles; antd's "select
 * all" checkbox there would be a second, hidden yet focusable control (axe: aria-hidden-focus). The
 * measuring row gets an empty box of the checkbox's size instead.
 */
function SelectAllTitle({ children }: { children: ReactNode }) {
  const measuring = useContext(TableMeasureRowContext);
  return measuring ? <span style={{ display: 'inline-block', width: 16, height: 16 }} /> : children;
}

function selectionOf<T>(rowSelection: TableRowSelection<T> | undefined, fixKey: boolean) {
  if (!rowSelection) return rowSelection;
  const { columnTitle } = rowSelection;
  return {
    ...(fixKey ? { fixed: 'left' as const } : {}),
    ...rowSelection,
    columnTitle: (checkbox: ReactNode) => (
      <SelectAllTitle>
        {typeof columnTitle === 'function' ? columnTitle(checkbox) : (columnTitle ?? checkbox)}
      </SelectAllTitle>
    ),
  };
}

/**
 * Every list of the console: an antd Table that never widens the page. A table wider than its card
 * (a phone, many columns) scrolls sideways inside it with its key column fixed, its row selection
 * beside that, and the actions column (fixed right by its columns) always reachable.
 */
export function ScrollTable<T extends object>({ columns, scroll, rowSelection, ...props }: TableProps<T>) {
  const fixed = withFixedKey(columns);
  const box = useRef<HTMLDivElement>(null);
  // A region that scrolls must be reachable from the keyboard (axe: scrollable-region-focusable):
  // antd's scrolling box takes the focus, so the arrow keys scroll a table that has no links.
  useEffect(() => {
    for (const el of box.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body') ?? [])
      if (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight) el.tabIndex = 0;
      else el.removeAttribute('tabindex');
  });
  return (
    <div ref={box}>
      <Table<T>
        {...props}
        columns={fixed}
        rowSelection={selectionOf(rowSelection, fixed !== columns)}
        scroll={{ x: 'max-content', ...scroll }}
      />
    </div>
  );
}
