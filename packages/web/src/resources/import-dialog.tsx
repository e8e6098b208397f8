import { InboxOutlined } from '@ant-design/icons';
import type { ImportProgress, RefusedRow, ResourceDef, TransferFormat } from '@lampyr/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Modal, Progress, Statistic, Typography, theme, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/error-message.ts';
import { keys } from '../lib/query-keys.ts';
import { exportList, type ImportOutcome, importFile, saveFile } from '../lib/transfer-api.ts';
import type { ResourceLabels } from './labels.ts';
import { ScrollTable } from './scroll-table.tsx';

/** The columns a file may carry: every field a person writes (not the server's, not secrets). */
export function templateColumns(resource: ResourceDef): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(resource.fields)
      .filter(([, def]) => !def.readOnly && def.kind !== 'secret')
      .map(([name]) => [name, true]),
  );
}

type Stage =
  | { step: 'choose' }
  | { step: 'running'; progress?: ImportProgress }
  | { step: 'done'; outcome: ImportOutcome };

/**
 * Import from CSV or XLSX: the file goes up as base64, the server streams its progress as NDJSON
 * and ends with a report; refused rows are listed with the reason per field.
 */
export function ImportDialog({
  resource,
  labels,
  onClose,
}: {
  resource: ResourceDef;
  labels: ResourceLabels;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [file, setFile] = useState<File>();
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [failure, setFailure] = useState<string>();
  const abort = useRef<AbortController>(undefined);

  const downloadTemplate = async (format: TransferFormat) => {
    try {
      const { blob } = await exportList(
        resource.name,
        // No record has no id: the file is the header row alone.
        { selectedColumns: templateColumns(resource), detailFilter: [{ field: 'id', operator: 'isNull' }] },
        format,
      );
      saveFile(blob, `${resource.name}-template.${format}`);
    } catch (error) {
      message.error(t('transfer.exportFailed', { reason: errorMessage(error, t) }));
    }
  };

  const start = async () => {
    if (!file) return;
    setFailure(undefined);
    setStage({ step: 'running' });
    abort.current = new AbortController();
    try {
      const outcome = await importFile(
        resource.name,
        file,
        (progress) => setStage({ step: 'running', progress }),
        abort.current.signal,
      );
      setStage({ step: 'done', outcome });
    } catch (error) {
      setFailure(errorMessage(error, t));
      setStage({ step: 'choose' });
    } finally {
      await client.invalidateQueries({ queryKey: keys.resource(resource.name) });
    }
  };

  const close = () => {
    abort.current?.abort();
    onClose();
  };

  const running = stage.step === 'running';
  return (
    <Modal
      open
      width={720}
      title={t('transfer.importTitle', { title: labels.title })}
      onCancel={close}
      maskClosable={!running}
      footer={
        stage.step === 'done' ? (
          <Button type="primary" onClick={close}>
            {t('transfer.close')}
          </Button>
        ) : (
          <Flex justify="end" gap={token.marginXS}>
            <Button onClick={close}>{t('action.cancel')}</Button>
            <Button type="primary" disabled={!file} loading={running} onClick={() => void start()}>
              {t('transfer.start')}
            </Button>
          </Flex>
        )
      }
    >
      {stage.step === 'choose' && (
        <Flex vertical gap={token.margin}>
          <Typography.Paragraph style={{ margin: 0 }}>{t('transfer.importHint')}</Typography.Paragraph>
          <Flex gap={token.marginXS} align="center" wrap>
            <Typography.Text>{t('transfer.template')}</Typography.Text>
            <Button size="small" onClick={() => void downloadTemplate('csv')}>
              CSV
            </Button>
            <Button size="small" onClick={() => void downloadTemplate('xlsx')}>
              XLSX
            </Button>
          </Flex>
          <Upload.Dragger
            accept=".csv,.xlsx"
            maxCount={1}
            beforeUpload={(chosen) => {
              setFile(chosen);
              setFailure(undefined);
              return false;
            }}
            onRemove={() => setFile(undefined)}
            fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('transfer.chooseFile')}</p>
          </Upload.Dragger>
          {failure && <Alert type="error" showIcon role="alert" title={failure} />}
        </Flex>
      )}
      {stage.step === 'running' && (
        <Flex vertical gap={token.marginXS} role="status" aria-live="polite">
          <Typography.Text>
            {stage.progress
              ? t('transfer.progress', { done: stage.progress.done, total: stage.progress.total })
              : t('transfer.reading')}
          </Typography.Text>
          <Progress
            percent={stage.progress ? Math.floor((100 * stage.progress.done) / Math.max(1, stage.progress.total)) : 0}
            status="active"
          />
        </Flex>
      )}
      {stage.step === 'done' && <ImportReportView outcome={stage.outcome} labels={labels} />}
    </Modal>
  );
}

function ImportReportView({ outcome, labels }: { outcome: ImportOutcome; labels: ResourceLabels }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const report = outcome.report ?? { total: 0, imported: 0, refused: [] };
  return (
    <Flex vertical gap={token.margin} data-testid="import-report">
      {outcome.error && (
        <Alert type="error" showIcon role="alert" title={t('transfer.stopped')} description={outcome.error.message} />
      )}
      <Flex gap={token.marginXL}>
        <Statistic title={t('transfer.total')} value={report.total} />
        <Statistic title={t('transfer.imported')} value={report.imported} />
        <Statistic title={t('transfer.refused')} value={report.refused.length} />
      </Flex>
      {report.refused.length > 0 && (
        <ScrollTable<RefusedRow>
          size="small"
          rowKey="row"
          dataSource={report.refused}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { key: 'row', dataIndex: 'row', title: t('transfer.row'), width: 80 },
            {
              key: 'errors',
              title: t('transfer.reasons'),
              render: (_value, row) => (
                <Flex vertical>
                  {Object.entries(row.errors).map(([field, reason]) => (
                    <Typography.Text key={field}>
                      {field === 'row' || reason.includes(labels.field(field))
                        ? reason
                        : `${labels.field(field)}: ${reason}`}
                    </Typography.Text>
                  ))}
                </Flex>
              ),
            },
          ]}
        />
      )}
    </Flex>
  );
}
