import { REPORT_FORMATS, type ReportFormat, type ReportSchedule, type ReportTemplate } from '@lampyr/contract';
import { Alert, App, Button, DatePicker, Flex, Modal, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useDeleteReportTemplate, useReportTemplates } from '../../data/reports.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { downloadTemplate } from '../../lib/report-api.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { TemplateModal } from './template-modal.tsx';

/**
 * Reports → Report Templates: the reports saved from the report screens (kind, filters, columns),
 * to run again over any period as a file, or to be e-mailed weekly or monthly.
 */
export default function ReportTemplatesPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const templates = useReportTemplates();
  const remove = useDeleteReportTemplate();
  const [running, setRunning] = useState<ReportTemplate | null>(null);
  const [editing, setEditing] = useState<ReportTemplate | null>(null);
  const dateTime = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const columns = [
    { title: t('reports.templateName'), dataIndex: 'name' },
    {
      title: t('reports.kind'),
      dataIndex: 'kind',
      render: (kind: string) => t(`common:reports.title.${kind}`),
    },
    {
      title: t('reports.filters'),
      key: 'filters',
      render: (_: unknown, r: ReportTemplate) => {
        const groupBy = r.filters.groupBy as string | undefined;
        return groupBy ? t(`common:reports.groupBy.${r.kind}.${groupBy}`, { defaultValue: groupBy }) : '—';
      },
    },
    { title: t('reports.format'), dataIndex: 'format', render: (f: string) => f.toUpperCase() },
    {
      title: t('reports.schedule'),
      dataIndex: 'schedule',
      render: (s: ReportSchedule) => <Tag color={s === 'none' ? undefined : 'blue'}>{t(`reports.schedules.${s}`)}</Tag>,
    },
    { title: t('reports.recipients'), dataIndex: 'recipients', render: (v: string) => v || '—' },
    {
      title: t('reports.lastSent'),
      key: 'last',
      render: (_: unknown, r: ReportTemplate) =>
        r.lastRunAt ? `${r.lastPeriod} · ${dateTime.format(new Date(r.lastRunAt))}` : '—',
    },
    {
      title: t('reports.actions'),
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: ReportTemplate) => (
        <Space>
          <Button size="small" type="primary" onClick={() => setRunning(r)}>
            {t('reports.run')}
          </Button>
          <Button size="small" onClick={() => setEditing(r)}>
            {t('reports.edit')}
          </Button>
          <Popconfirm
            title={t('reports.deleteConfirm', { name: r.name })}
            okText={t('reports.delete')}
            cancelText={t('reports.cancel')}
            onConfirm={async () => {
              try {
                await remove.mutateAsync(r.id);
              } catch (error) {
                message.error(errorMessage(error, t));
              }
            }}
          >
            <Button size="small" danger>
              {t('reports.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <ScreenTitle title={t('reports.templatesTitle')} />
      <Alert type="info" showIcon message={t('reports.templatesHint')} />
      {templates.isError && <Alert type="error" showIcon message={errorMessage(templates.error, t)} />}
      <ScrollTable<ReportTemplate>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={templates.isFetching}
        columns={columns}
        dataSource={templates.data ?? []}
        locale={{ emptyText: <Typography.Text type="secondary">{t('reports.noTemplates')}</Typography.Text> }}
        pagination={false}
      />
      {running && <RunModal template={running} onClose={() => setRunning(null)} />}
      {editing && (
        <TemplateModal
          kind={editing.kind}
          filters={editing.filters}
          template={editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Flex>
  );
}

function RunModal({ template, onClose }: { template: ReportTemplate; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(6, 'day'), dayjs()]);
  const [format, setFormat] = useState<ReportFormat>(template.format);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await downloadTemplate(
        template.id,
        {
          from: range[0].format('YYYY-MM-DD'),
          to: range[1].format('YYYY-MM-DD'),
          format,
          language: i18n.language === 'tr' ? 'tr' : 'en',
        },
        template.format,
      );
      onClose();
    } catch (error) {
      message.error(errorMessage(error, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('reports.runTitle', { name: template.name })}
      okText={t('reports.download')}
      cancelText={t('reports.cancel')}
      confirmLoading={busy}
      onOk={run}
      onCancel={onClose}
    >
      <Flex vertical gap={12}>
        <DatePicker.RangePicker
          aria-label={t('savings.period')}
          value={range}
          allowClear={false}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(next) => next?.[0] && next[1] && setRange([next[0], next[1]])}
        />
        <Select<ReportFormat>
          aria-label={t('reports.format')}
          value={format}
          onChange={setFormat}
          options={REPORT_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))}
        />
      </Flex>
    </Modal>
  );
}
