import { REPORT_FORMATS, type ReportFormat, type ReportKind } from '@lampyr/contract';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message.ts';
import { downloadReport } from '../../lib/report-api.ts';
import { TemplateModal } from './template-modal.tsx';

/**
 * A report's export (CSV, XLSX, PDF of the whole report, labels in the user's language) and its
 * "save as template" (the filters without the period, to rerun or e-mail on a schedule).
 */
export function ReportToolbar({
  kind,
  request,
  disabled,
}: {
  kind: ReportKind;
  /** The report's request as on screen; page and size are dropped. */
  request: Record<string, unknown> & { from: string; to: string };
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<ReportFormat | null>(null);
  const [saving, setSaving] = useState(false);
  const { page: _page, size: _size, ...whole } = request;
  // A template keeps the filters; the period is given when it runs.
  const { from: _from, to: _to, ...filters } = whole;

  const download = async (format: ReportFormat) => {
    setBusy(format);
    try {
      await downloadReport(kind, { format, request: whole, language: i18n.language === 'tr' ? 'tr' : 'en' });
    } catch (error) {
      message.error(errorMessage(error, t));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Space wrap>
      {REPORT_FORMATS.map((format) => (
        <Button
          key={format}
          size="middle"
          loading={busy === format}
          disabled={disabled || (busy !== null && busy !== format)}
          onClick={() => download(format)}
        >
          {t('reports.export', { format: format.toUpperCase() })}
        </Button>
      ))}
      <Button onClick={() => setSaving(true)} disabled={disabled}>
        {t('reports.saveTemplate')}
      </Button>
      {saving && <TemplateModal kind={kind} filters={filters} onClose={() => setSaving(false)} />}
    </Space>
  );
}
