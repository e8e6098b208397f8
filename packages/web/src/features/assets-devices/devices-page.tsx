import { getResource } from '@lampyr/contract';
import { Select } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { useLampStates, useStreets } from '../../data/lamp-states.ts';
import { useResourceList, useTableParams } from '../../data/resource-list.ts';
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
  // The page the list shows (the same query as the list's own, so read from its cache): the lamp
  // states of those rows only, one request per page however large the fleet.
  const page = useResourceList(getResource('devices'), params);
  const states = useLampStates((page.data?.content ?? []).map((row) => row.id));
  const columns: ColumnsType<Row> = [
    {
      key: 'lampState',
      title: t('lampState.title'),
      render: (_v, row) => (states.isPending ? null : <LampStateTag state={states.data?.get(row.id)?.state} />),
    },
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
