import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { TransferFormat } from '@lampyr/contract';
import { type ResourceDef, TRANSFER_FORMATS } from '@lampyr/contract';
import { App, Button, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/error-message.ts';
import { type ExportParams, exportList, saveFile } from '../lib/transfer-api.ts';
import { ImportDialog } from './import-dialog.tsx';
import type { ResourceLabels } from './labels.ts';

/** Export of the list as it is filtered, sorted and columned (CSV, XLSX), and import when writable. */
export function TransferActions({
  resource,
  labels,
  params,
  canImport,
}: {
  resource: ResourceDef;
  labels: ResourceLabels;
  params: ExportParams;
  /** Whether the person may add records here (an import creates them). */
  canImport: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<TransferFormat>();
  const [importing, setImporting] = useState(false);

  const download = async (format: TransferFormat) => {
    setBusy(format);
    try {
      const { blob, fileName } = await exportList(resource.name, params, format);
      saveFile(blob, fileName);
    } catch (error) {
      message.error(t('transfer.exportFailed', { reason: errorMessage(error, t) }));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <>
      <Space.Compact>
        {TRANSFER_FORMATS.map((format) => (
          <Tooltip key={format} title={t('transfer.exportAs', { format: format.toUpperCase() })}>
            <Button
              icon={<DownloadOutlined />}
              loading={busy === format}
              disabled={busy !== undefined && busy !== format}
              aria-label={t('transfer.exportAs', { format: format.toUpperCase() })}
              onClick={() => void download(format)}
            >
              {format.toUpperCase()}
            </Button>
          </Tooltip>
        ))}
      </Space.Compact>
      {!resource.readOnly && canImport && (
        <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
          {t('transfer.import')}
        </Button>
      )}
      {importing && <ImportDialog resource={resource} labels={labels} onClose={() => setImporting(false)} />}
    </>
  );
}
