import { Select } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { useLampStates, useStreets } from '../../data/lamp-states.ts';
import { useTableParams } from '../../data/resource-list.ts';
import type { Row } from '../../lib/resource-api.ts';
import ResourcePage from '../../resources/resource-page.tsx';
import { LampStateTag } from './lamp-state-tag.tsx';

/**
 * The device list: the catalogue's list of devices with each one's lamp state (on, dimmed, off,
 * fault, offline) and a street filter beside the search (the list's own `street` filter, so the
 * column shows it filtered and "clear filters" clears it).
 */
export default function DevicesPage() {
  const { t } = useTranslation();
  const { params, update } = useTableParams('devices');
  const streets = useStreets();
  const street = params.filters?.street;
  const columns: ColumnsType<Row> = [
    { key: 'lampState', title: t('lampState.title'), render: (_v, row) => <DeviceLamp id={row.id} /> },
  ];
  return (
    <ResourcePage
      resource="devices"
      extraColumns={columns}
      toolbarExtra={
        <Select
          allowClear
          showSearch
          style={{ width: 220 }}
          aria-label={t('street.filter')}
          placeholder={t('street.all')}
          value={typeof street === 'string' ? street : undefined}
          onChange={(v: string | undefined) => {
            const filters = { ...(params.filters ?? {}) };
            if (v === undefined) delete filters.street;
            else filters.street = v;
            update({ filters: Object.keys(filters).length ? filters : null, page: 1 });
          }}
          options={(streets.data ?? []).map((s) => ({ value: s.street, label: `${s.street} (${s.devices})` }))}
        />
      }
    />
  );
}

/** One device's lamp state, from the account's lamp states (one request however many rows show). */
function DeviceLamp({ id }: { id: number }) {
  const states = useLampStates('all');
  if (states.isPending) return null;
  return <LampStateTag state={states.data?.get(id)?.state} />;
}
