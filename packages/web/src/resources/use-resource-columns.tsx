import { CalendarOutlined, DeleteOutlined, EditOutlined, EyeOutlined, TeamOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@lampyr/contract';
import { Button, Popconfirm, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Row } from '../lib/resource-api.ts';
import { CellValue } from './cell-value.tsx';
import { type FilterApi, filterDropdown, isFiltered } from './column-filters.tsx';
import type { ResourceLabels } from './labels.ts';
import { RECORD_LINKS } from './record-links.ts';
import type { ResourceExtras } from './resource-extras.tsx';

function sortOrderOf(sort: string[], field: string): 'ascend' | 'descend' | null {
  const entry = sort.find((s) => s.split(',')[0] === field);
  if (!entry) return null;
  return entry.split(',')[1]?.toLowerCase() === 'desc' ? 'descend' : 'ascend';
}

/**
 * The columns of a resource table: one per visible field (sortable, filterable, its value shown by
 * kind, a reference by its record's name), then the row actions — view for a read-only resource,
 * else edit and a confirmed delete.
 */
export function useResourceColumns({
  resource,
  labels,
  visible,
  filterApi,
  names,
  onView,
  onEdit,
  onDelete,
  deleting,
  can,
  extras,
}: {
  resource: ResourceDef;
  labels: ResourceLabels;
  visible: readonly string[];
  filterApi: FilterApi;
  /** Names of referenced records, per referenced prefix and id. */
  names: Map<string, Map<number, string>>;
  onView: (row: Row) => void;
  onEdit: (row: Row) => void;
  onDelete: (row: Row) => void;
  deleting: boolean;
  /** What the person may do to a record here (usePermissions): edit and delete show only when allowed. */
  can: { update: boolean; delete: boolean };
  /** A log's own reading of some cells, added columns and rows that stay as they are. */
  extras?: ResourceExtras;
}): ColumnsType<Row> {
  const { t } = useTranslation();
  const { params } = filterApi;
  const columns: ColumnsType<Row> = visible.map((field) => {
    const def = resource.fields[field];
    const label = labels.field(field);
    return {
      key: field,
      dataIndex: field,
      title: label,
      // A virtual field is worked out by the server per request: shown, never sorted or filtered on.
      sorter: def?.kind !== 'json' && !def?.virtual,
      sortOrder: sortOrderOf(params.sort, field),
      filterDropdown: def && !def.virtual ? filterDropdown(field, def, label, labels, filterApi) : undefined,
      filtered: isFiltered(params, field),
      render: (value: unknown, row: Row) =>
        extras?.cells[field] ? (
          extras.cells[field](row)
        ) : (
          <CellValue
            name={field}
            def={def}
            value={value}
            labels={labels}
            referenceName={def?.ref && typeof value === 'number' ? names.get(def.ref)?.get(value) : undefined}
          />
        ),
    };
  });
  for (const extra of extras?.columns ?? [])
    columns.push({ key: extra.key, title: extra.title, render: (_value: unknown, row: Row) => extra.render(row) });

  const links = RECORD_LINKS[resource.name] ?? [];
  const linked = (row: Row) =>
    links.map((link) => (
      <Link key={link.label} to={link.to(Number(row.id))}>
        <Button
          type="text"
          icon={link.icon === 'members' ? <TeamOutlined /> : <CalendarOutlined />}
          aria-label={`${t(link.label)} ${row.id}`}
          title={t(link.label)}
        />
      </Link>
    ));
  const editable = !resource.readOnly && can.update;
  const removable = !resource.readOnly && can.delete;
  const viewButton = (row: Row) => (
    <Button
      type="text"
      icon={<EyeOutlined />}
      aria-label={t('resource.viewItem', { item: labels.one, id: row.id })}
      onClick={() => onView(row)}
    />
  );
  columns.push({
    key: 'actions',
    title: t('resource.actions'),
    fixed: 'right',
    width: 80 + (removable ? 40 : 0) + links.length * 40,
    render: (_value, row) =>
      resource.readOnly ? (
        viewButton(row)
      ) : (
        <Space size={0}>
          {linked(row)}
          {editable && !extras?.locked(row) ? (
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('resource.editItem', { item: labels.one, id: row.id })}
              onClick={() => onEdit(row)}
            />
          ) : (
            viewButton(row)
          )}
          {removable && !extras?.locked(row) && (
            <Popconfirm
              title={t('confirm.deleteTitle', { item: labels.one })}
              description={t('confirm.delete', { item: labels.one.toLocaleLowerCase() })}
              okText={t('action.delete')}
              cancelText={t('action.cancel')}
              okButtonProps={{ danger: true, loading: deleting }}
              onConfirm={() => onDelete(row)}
            >
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('resource.deleteItem', { item: labels.one, id: row.id })}
              />
            </Popconfirm>
          )}
        </Space>
      ),
  });
  return columns;
}
