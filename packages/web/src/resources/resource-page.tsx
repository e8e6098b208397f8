import { CONSTANTS, type Condition, getResource } from '@lampyr/contract';
import { Alert, App, Button, Card, Empty, Result, Space, Typography, theme } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePermissions } from '../data/permissions.ts';
import { useReferenceNames } from '../data/reference-data.ts';
import {
  defaultTimeWindow,
  needsAccount,
  useResourceList,
  useTableParams,
  withTimeWindow,
} from '../data/resource-list.ts';
import { useResourceMutations } from '../data/resource-mutations.ts';
import { HttpError, isConflict } from '../lib/api-errors.ts';
import { errorMessage } from '../lib/error-message.ts';
import type { FilterObject, FilterValue, Row } from '../lib/resource-api.ts';
import { selectedAccountId } from '../lib/session-storage.ts';
import { BULK_ACTIONS } from './bulk-actions.ts';
import { defaultColumns } from './column-chooser.tsx';
import type { FilterApi } from './column-filters.tsx';
import { useResourceLabels } from './labels.ts';
import { RecordDetails } from './record-details.tsx';
import { type FormTarget, RecordForm } from './record-form.tsx';
import { useResourceExtras } from './resource-extras.tsx';
import { ResourceToolbar } from './resource-toolbar.tsx';
import { ScrollTable } from './scroll-table.tsx';
import { useResourceColumns } from './use-resource-columns.tsx';

const PAGE_SIZES = [10, 20, 50, 100];

/**
 * The generic screen of a catalogue resource: its toolbar (resource-toolbar.tsx), a server-paged,
 * sortable, filterable table (columns in use-resource-columns.tsx), a create/edit form and a
 * confirmed delete.
 */
export default function ResourcePage({
  resource: name,
  tableKey = name,
  fixedFilter,
  extraColumns,
  toolbarExtra,
}: {
  resource: string;
  /** Whose table parameters: the resource's own, or a route's that shows it differently. */
  tableKey?: string;
  /** Always applied on top of the person's filters (a route showing a subset). */
  fixedFilter?: FilterObject;
  /** A screen's own columns (the device list's lamp state), after the first column. */
  extraColumns?: ColumnsType<Row>;
  /** A screen's own filters in the toolbar. */
  toolbarExtra?: ReactNode;
}) {
  const resource = getResource(name);
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const labels = useResourceLabels(resource);
  const navigate = useNavigate();
  const { params, update, reset } = useTableParams(tableKey);
  // Readings and data logs are listed over a time range: the last 24 hours until one is picked.
  const [fallbackWindow, setFallbackWindow] = useState(() =>
    resource.timeWindow ? defaultTimeWindow(resource.timeWindow) : undefined,
  );
  const windowed = withTimeWindow(resource, params, fallbackWindow);
  const list = useResourceList(resource, windowed.params, fixedFilter);
  const { remove } = useResourceMutations(resource);
  const permissions = usePermissions();
  const canCreate = !resource.readOnly && permissions.can(resource.name, 'create');
  const [formTarget, setFormTarget] = useState<FormTarget>();
  const [viewing, setViewing] = useState<number>();
  const [search, setSearch] = useState(() => String(params.filters?.q ?? ''));

  const visible = useMemo(() => {
    const chosen = params.selectedColumns
      ? Object.keys(params.selectedColumns).filter((c) => params.selectedColumns?.[c])
      : [];
    return chosen.length ? chosen : defaultColumns(resource);
  }, [params.selectedColumns, resource]);
  const rows = list.data?.content ?? [];
  const names = useReferenceNames(resource, rows, visible);
  const extras = useResourceExtras(resource, rows);
  const anyFilter =
    Boolean(params.filters && Object.keys(params.filters).length) || Boolean(params.detailFilter?.length);
  const accountMissing = needsAccount(resource) && selectedAccountId() === undefined;

  const filterApi: FilterApi = {
    params,
    setFilter: (field, value: FilterValue | undefined) => {
      const filters = { ...(params.filters ?? {}) };
      if (value === undefined) delete filters[field];
      else filters[field] = value;
      update({ filters: Object.keys(filters).length ? filters : null, page: 1 });
    },
    setCondition: (field, condition: Condition | undefined) => {
      const rest = (params.detailFilter ?? []).filter((c) => c.field !== field);
      const next = condition ? [...rest, condition] : rest;
      update({ detailFilter: next.length ? next : null, page: 1 });
    },
  };

  const confirmDelete = async (row: Row) => {
    try {
      await remove.mutateAsync(row.id);
      message.success(t('resource.deleted', { item: labels.one }));
    } catch (e) {
      modal.error({
        title: isConflict(e) ? t('resource.deleteBlocked', { item: labels.one }) : t('resource.deleteFailed'),
        content: errorMessage(e, t),
      });
    }
  };

  const generic = useResourceColumns({
    resource,
    labels,
    visible,
    filterApi,
    names,
    onView: (row) => setViewing(row.id),
    onEdit: (row) => setFormTarget({ mode: 'update', id: row.id }),
    onDelete: confirmDelete,
    deleting: remove.isPending,
    can: { update: permissions.can(resource.name, 'update'), delete: permissions.can(resource.name, 'delete') },
    extras,
  });
  // A screen's own columns follow the first (the record's name), where they are seen without scrolling.
  const columns = extraColumns?.length ? [...generic.slice(0, 1), ...extraColumns, ...generic.slice(1)] : generic;

  const total = list.data?.totalElements ?? 0;
  const failed = list.isError && !list.data;
  // Rows chosen for a bulk action (kept across pages), on resources that have any.
  const bulk = BULK_ACTIONS[resource.name];
  const [chosen, setChosen] = useState<number[]>([]);

  return (
    <Card>
      <ResourceToolbar
        resource={resource}
        labels={labels}
        total={list.data ? total : undefined}
        filterApi={filterApi}
        windowFilter={windowed.params.detailFilter}
        fixedFilter={fixedFilter}
        visible={visible}
        search={search}
        onSearchChange={setSearch}
        anyFilter={anyFilter}
        onClearFilters={() => {
          setSearch('');
          update({ filters: null, detailFilter: null, page: 1 });
        }}
        onColumnsChange={(selectedColumns) => update({ selectedColumns })}
        onRefresh={() => {
          // The default range moves on to the present; a range the person picked stays.
          if (windowed.usesDefault && resource.timeWindow) setFallbackWindow(defaultTimeWindow(resource.timeWindow));
          else list.refetch();
        }}
        refreshing={list.isFetching}
        onCreate={() => setFormTarget({ mode: 'create' })}
        canCreate={canCreate}
        extra={toolbarExtra}
      />

      {accountMissing && (
        <Alert
          type="warning"
          showIcon
          role="status"
          title={t('resource.noAccount')}
          style={{ marginBottom: token.margin }}
        />
      )}
      {windowed.usesDefault && resource.timeWindow && (
        <Typography.Paragraph type="secondary" role="note" style={{ marginTop: 0 }}>
          {t('resource.timeWindowDefault', {
            hours: CONSTANTS.timeWindowDefaultHours,
            days: CONSTANTS.timeWindowMaxDays,
          })}
        </Typography.Paragraph>
      )}
      {list.isError && list.data && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={errorMessage(list.error, t)}
          style={{ marginBottom: token.margin }}
        />
      )}

      {bulk && chosen.length > 0 && (
        <Space wrap role="toolbar" aria-label={t('bulk.toolbar')} style={{ marginBottom: token.margin }}>
          <Typography.Text strong data-testid="bulk-count">
            {t('bulk.selected', { count: chosen.length })}
          </Typography.Text>
          {bulk.map((action) => (
            <Button key={action.label} onClick={() => navigate(action.to(chosen))}>
              {t(action.label)}
            </Button>
          ))}
          <Button type="link" onClick={() => setChosen([])}>
            {t('bulk.clear')}
          </Button>
        </Space>
      )}
      {failed ? (
        <Result
          status="error"
          title={t('state.loadFailed', { title: labels.title })}
          subTitle={errorMessage(list.error, t)}
          extra={
            <Space>
              <Button type="primary" onClick={() => list.refetch()}>
                {t('action.retry')}
              </Button>
              {list.error instanceof HttpError && list.error.httpStatus === 400 && (
                <Button onClick={reset}>{t('resource.resetView')}</Button>
              )}
            </Space>
          }
        />
      ) : (
        <ScrollTable<Row>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isFetching}
          rowSelection={
            bulk
              ? {
                  selectedRowKeys: chosen,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setChosen(keys.map(Number)),
                }
              : undefined
          }
          locale={{
            emptyText: list.isPending ? (
              <span />
            ) : (
              <Empty
                description={
                  anyFilter ? t('resource.noMatch') : t('resource.empty', { title: labels.title.toLocaleLowerCase() })
                }
              >
                {!anyFilter && canCreate && (
                  <Button type="primary" onClick={() => setFormTarget({ mode: 'create' })}>
                    {t('resource.create', { item: labels.one })}
                  </Button>
                )}
              </Empty>
            ),
          }}
          pagination={{
            current: params.page,
            pageSize: params.size,
            total,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (count, [from, to]) => t('resource.range', { from, to, total: count }),
          }}
          onChange={(pagination, _filters, sorter, extra) => {
            if (extra.action === 'paginate') {
              const size = pagination.pageSize ?? params.size;
              update({ page: size !== params.size ? 1 : (pagination.current ?? 1), size });
            } else if (extra.action === 'sort') {
              const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
              const field = s?.columnKey ?? s?.field;
              update({
                sort: s?.order && field ? [`${String(field)},${s.order === 'ascend' ? 'asc' : 'desc'}`] : [],
                page: 1,
              });
            }
          }}
        />
      )}

      {formTarget && (
        <RecordForm
          resource={resource}
          target={formTarget}
          labels={labels}
          onClose={() => setFormTarget(undefined)}
          onSaved={(_row, mode) => {
            message.success(t(mode === 'create' ? 'resource.created' : 'resource.updated', { item: labels.one }));
            setFormTarget(undefined);
          }}
        />
      )}
      {viewing !== undefined && (
        <RecordDetails resource={resource} id={viewing} labels={labels} onClose={() => setViewing(undefined)} />
      )}
    </Card>
  );
}
