import { Select } from 'antd';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChosenOptions, useReferenceOptions } from '../data/reference-data.ts';

interface ReferenceSelectProps {
  prefix: string;
  id?: string;
  value?: number | number[] | null;
  onChange?: (value: number | number[] | null) => void;
  multiple?: boolean;
  placeholder?: string;
  'aria-label'?: string;
  autoFocus?: boolean;
  /** Only records whose fields have these values (a form's chosen country narrows its states). */
  narrow?: Record<string, number>;
}

/** Chooses records of another resource by their name, searching as the user types. */
export function ReferenceSelect({ prefix, value, onChange, multiple, narrow, ...rest }: ReferenceSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const { options: loaded, loading, error, remoteSearch } = useReferenceOptions(prefix, deferred, narrow);
  const chosen = Array.isArray(value) ? value : typeof value === 'number' ? [value] : [];
  const options = useChosenOptions(prefix, chosen, loaded);
  return (
    <Select<number | number[]>
      {...rest}
      mode={multiple ? 'multiple' : undefined}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
      options={options}
      loading={loading}
      allowClear
      showSearch={{
        onSearch: setSearch,
        filterOption: remoteSearch
          ? false
          : (input, option) =>
              String(option?.label ?? '')
                .toLocaleLowerCase()
                .includes(input.toLocaleLowerCase()),
      }}
      notFoundContent={error ? t('resource.optionsFailed') : loading ? t('state.loading') : t('resource.noOptions')}
      style={{ width: '100%', minWidth: 200 }}
    />
  );
}
