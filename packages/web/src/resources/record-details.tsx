import type { ResourceDef } from '@lampyr/contract';
import { Alert, Descriptions, Drawer, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRecord } from '../data/device-data.ts';
import { useReferenceNames } from '../data/reference-data.ts';
import { errorMessage } from '../lib/error-message.ts';
import { CellValue } from './cell-value.tsx';
import { choosableColumns } from './column-chooser.tsx';
import type { ResourceLabels } from './labels.ts';

/** One record read-only: the view of resources only the server writes. */
export function RecordDetails({
  resource,
  id,
  labels,
  onClose,
}: {
  resource: ResourceDef;
  id: number;
  labels: ResourceLabels;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const record = useRecord(resource.name, id);
  const fields = choosableColumns(resource);
  const names = useReferenceNames(resource, record.data ? [record.data] : [], fields);
  return (
    <Drawer open onClose={onClose} title={t('resource.viewTitle', { item: labels.one, id })} size="large">
      {record.isPending && <Spin />}
      {record.isError && <Alert type="error" showIcon title={errorMessage(record.error, t)} />}
      {record.data && (
        <Descriptions
          column={1}
          bordered
          size="small"
          items={fields.map((name) => {
            const def = resource.fields[name];
            const value = record.data?.[name];
            return {
              key: name,
              label: labels.field(name),
              children:
                def?.kind === 'json' ? (
                  <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(value, null, 2)}</pre>
                ) : (
                  <CellValue
                    name={name}
                    def={def}
                    value={value}
                    labels={labels}
                    referenceName={def?.ref && typeof value === 'number' ? names.get(def.ref)?.get(value) : undefined}
                  />
                ),
            };
          })}
        />
      )}
    </Drawer>
  );
}
