import { REPORT_FORMATS, type ReportFormat, type ReportKind, type ReportSchedule } from '@lampyr/contract';
import { App, Button, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveReportTemplate } from '../../data/reports.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { downloadReport } from '../../lib/report-api.ts';

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
      {saving && <SaveTemplateModal kind={kind} filters={whole} onClose={() => setSaving(false)} />}
    </Space>
  );
}

interface TemplateForm {
  name: string;
  format: ReportFormat;
  schedule: ReportSchedule;
  recipients: string;
}

function SaveTemplateModal({
  kind,
  filters,
  onClose,
}: {
  kind: ReportKind;
  filters: Record<string, unknown>;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const save = useSaveReportTemplate();
  const [form] = Form.useForm<TemplateForm>();
  const schedule = Form.useWatch('schedule', form);
  const { from: _from, to: _to, ...kept } = filters;

  const submit = async (values: TemplateForm) => {
    try {
      await save.mutateAsync({
        input: {
          name: values.name,
          kind,
          filters: kept,
          format: values.format,
          schedule: values.schedule,
          recipients: values.recipients ?? '',
          language: i18n.language === 'tr' ? 'tr' : 'en',
        },
      });
      message.success(t('reports.templateSaved', { name: values.name }));
      onClose();
    } catch (error) {
      message.error(errorMessage(error, t));
    }
  };

  return (
    <Modal
      open
      title={t('reports.saveTemplate')}
      okText={t('reports.save')}
      cancelText={t('reports.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<TemplateForm>
        form={form}
        layout="vertical"
        initialValues={{ format: 'pdf', schedule: 'none', recipients: '' }}
        onFinish={submit}
      >
        <Form.Item
          name="name"
          label={t('reports.templateName')}
          rules={[{ required: true, whitespace: true, max: 120 }]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="format" label={t('reports.format')}>
          <Select options={REPORT_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))} />
        </Form.Item>
        <Form.Item name="schedule" label={t('reports.schedule')}>
          <Select
            options={(['none', 'weekly', 'monthly'] as const).map((s) => ({
              value: s,
              label: t(`reports.schedules.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="recipients"
          label={t('reports.recipients')}
          extra={t('reports.recipientsHint')}
          rules={[
            { required: schedule !== undefined && schedule !== 'none', message: t('reports.recipientsRequired') },
          ]}
        >
          <Input.TextArea rows={2} placeholder="ops@example.com, chief@example.com" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
