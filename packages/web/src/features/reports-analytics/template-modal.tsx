import {
  REPORT_FORMATS,
  REPORT_SCHEDULES,
  type ReportFormat,
  type ReportKind,
  type ReportSchedule,
  type ReportTemplate,
} from '@lampyr/contract';
import { App, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveReportTemplate } from '../../data/reports.ts';
import { errorMessage } from '../../lib/error-message.ts';

interface TemplateForm {
  name: string;
  format: ReportFormat;
  schedule: ReportSchedule;
  recipients: string;
}

/**
 * A report template's name, format, schedule and recipients: a new one saved from a report screen
 * (its kind and filters), or a saved one (`template`) changed; the labels are the user's language.
 */
export function TemplateModal({
  kind,
  filters,
  template,
  onClose,
}: {
  kind: ReportKind;
  /** The report's request without its period, page and size. */
  filters: Record<string, unknown>;
  template?: ReportTemplate;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const save = useSaveReportTemplate();
  const [form] = Form.useForm<TemplateForm>();

  const submit = async (values: TemplateForm) => {
    try {
      await save.mutateAsync({
        id: template?.id,
        input: {
          name: values.name,
          kind,
          filters,
          ...(template?.columns ? { columns: template.columns } : {}),
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
      title={template ? t('reports.editTitle', { name: template.name }) : t('reports.saveTemplate')}
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
        initialValues={
          template
            ? {
                name: template.name,
                format: template.format,
                schedule: template.schedule,
                recipients: template.recipients,
              }
            : { format: 'pdf', schedule: 'none', recipients: '' }
        }
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
          <Select options={REPORT_SCHEDULES.map((s) => ({ value: s, label: t(`reports.schedules.${s}`) }))} />
        </Form.Item>
        <Form.Item
          name="recipients"
          label={t('reports.recipients')}
          extra={t('reports.recipientsHint')}
          // Read when validating (a watched value lags the first render), again when the schedule changes.
          dependencies={['schedule']}
          rules={[
            ({ getFieldValue }) => ({
              required: getFieldValue('schedule') !== 'none',
              message: t('reports.recipientsRequired'),
            }),
          ]}
        >
          <Input.TextArea rows={2} placeholder="ops@example.com, chief@example.com" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
