import { UploadOutlined } from '@ant-design/icons';
import {
  FAULT_PHOTO_MAX_BYTES,
  FAULT_PHOTO_TYPES,
  getResource,
  OPEN_STATUSES,
  type ReportFaultBody,
} from '@lampyr/contract';
import { Alert, App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Segmented, Select, Upload } from 'antd';
import type { UploadFile } from 'antd/es/upload/interface';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useRecord } from '../../data/device-data.ts';
import { useReportFault } from '../../data/work-orders.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useResourceLabels } from '../../resources/labels.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { WorkOrderTable } from './work-order-table.tsx';

const faults = getResource('report-a-fault');
const FAULT_TYPES = faults.fields.faultType?.options ?? [];

interface Values {
  deviceId?: number | null;
  faultType?: string;
  description?: string;
  latitude?: number | null;
  longitude?: number | null;
}

type Shown = 'active' | 'resolved' | 'all';
const SHOWN: Record<Shown, string[] | undefined> = {
  active: [...OPEN_STATUSES],
  resolved: ['resolved'],
  all: undefined,
};

const base64Of = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/**
 * Maintenance → Report a Fault: a person reports a fault on a device (type, what they saw, where —
 * the device's position unless moved — and a photo); below, the work orders with the steps each
 * one's status allows (assign, plan, start, resolve, close, reopen).
 */
export default function ReportAFaultPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const labels = useResourceLabels(faults);
  const [search] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const deviceId = Form.useWatch('deviceId', form) ?? undefined;
  const device = useRecord('devices', typeof deviceId === 'number' ? deviceId : undefined);
  const [photo, setPhoto] = useState<UploadFile[]>([]);
  const [photoError, setPhotoError] = useState<string>();
  const [error, setError] = useState<string>();
  const report = useReportFault();
  const [shown, setShown] = useState<Shown>('active');
  const [paging, setPaging] = useState({ page: 1, size: 10 });

  // The device's position is where the fault is, until the reporter moves it.
  useEffect(() => {
    const row = device.data;
    if (!row) return;
    form.setFieldsValue({
      latitude: typeof row.latitude === 'number' ? row.latitude : null,
      longitude: typeof row.longitude === 'number' ? row.longitude : null,
    });
  }, [device.data, form]);

  const submit = async (values: Values) => {
    setError(undefined);
    const file = photo[0]?.originFileObj;
    const hasPlace = typeof values.latitude === 'number' && typeof values.longitude === 'number';
    const body: ReportFaultBody = {
      deviceId: values.deviceId as number,
      faultType: values.faultType as string,
      description: values.description?.trim() || undefined,
      ...(hasPlace ? { latitude: values.latitude as number, longitude: values.longitude as number } : {}),
      ...(file ? { photo: { contentType: file.type, data: await base64Of(file) } } : {}),
    };
    try {
      const result = await report.mutateAsync(body);
      if (result.reopened)
        modal.info({ title: t('workOrders.reopenedTitle'), content: t('workOrders.reopened', { id: result.id }) });
      else message.success(t('workOrders.reported', { id: result.id }));
      form.resetFields(['description', 'faultType']);
      setPhoto([]);
    } catch (e) {
      setError(errorMessage(e, t));
    }
  };

  const initialDevice = Number(search.get('deviceId')) || undefined;
  return (
    <Flex vertical gap={16}>
      <Card>
        <ScreenTitle title={t('workOrders.reportTitle')} spaced />
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ deviceId: initialDevice ?? null }}
          style={{ maxWidth: 880 }}
        >
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="deviceId"
                label={labels.field('deviceId')}
                rules={[{ required: true, message: t('workOrders.deviceRequired') }]}
              >
                <ReferenceSelect prefix="devices" aria-label={labels.field('deviceId')} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="faultType"
                label={labels.field('faultType')}
                rules={[{ required: true, message: t('workOrders.faultTypeRequired') }]}
              >
                <Select
                  aria-label={labels.field('faultType')}
                  options={FAULT_TYPES.map((v) => ({ value: v, label: labels.option('faultType', v) }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="description" label={labels.field('description')}>
            <Input.TextArea rows={2} maxLength={4000} placeholder={t('workOrders.descriptionPlaceholder')} />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={12} md={6}>
              <Form.Item name="latitude" label={labels.field('latitude')}>
                <InputNumber min={-90} max={90} step={0.0001} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="longitude" label={labels.field('longitude')}>
                <InputNumber min={-180} max={180} step={0.0001} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                label={t('workOrders.photo')}
                extra={t('workOrders.photoHint', { mb: FAULT_PHOTO_MAX_BYTES / 1024 / 1024 })}
                validateStatus={photoError ? 'error' : undefined}
                help={photoError}
              >
                <Upload
                  accept={FAULT_PHOTO_TYPES.join(',')}
                  listType="picture"
                  maxCount={1}
                  fileList={photo}
                  // A data URL: the console's CSP allows data: images, not blob: ones.
                  previewFile={async (file) => `data:${file.type};base64,${await base64Of(file as File)}`}
                  beforeUpload={(file) => {
                    if (!(FAULT_PHOTO_TYPES as readonly string[]).includes(file.type)) {
                      setPhotoError(t('workOrders.photoType'));
                      return Upload.LIST_IGNORE;
                    }
                    if (file.size > FAULT_PHOTO_MAX_BYTES) {
                      setPhotoError(t('workOrders.photoTooLarge', { mb: FAULT_PHOTO_MAX_BYTES / 1024 / 1024 }));
                      return Upload.LIST_IGNORE;
                    }
                    setPhotoError(undefined);
                    return false;
                  }}
                  onChange={({ fileList }) => setPhoto(fileList.slice(-1))}
                >
                  <Button icon={<UploadOutlined />}>{t('workOrders.choosePhoto')}</Button>
                </Upload>
              </Form.Item>
            </Col>
          </Row>
          {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />}
          <Button type="primary" htmlType="submit" loading={report.isPending} data-testid="report-fault">
            {t('workOrders.report')}
          </Button>
        </Form>
      </Card>
      <Card>
        <ScreenTitle title={t('workOrders.listTitle')} spaced>
          <Segmented<Shown>
            value={shown}
            onChange={(v) => {
              setShown(v);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
            options={(['active', 'resolved', 'all'] as const).map((v) => ({
              value: v,
              label: t(`workOrders.shown.${v}`),
            }))}
          />
        </ScreenTitle>
        <WorkOrderTable
          actions
          filter={
            SHOWN[shown]
              ? { status: SHOWN[shown] }
              : { status: ['open', 'assigned', 'planned', 'in_progress', 'resolved', 'closed'] }
          }
          page={paging.page}
          size={paging.size}
          onPage={(page, size) => setPaging({ page: size !== paging.size ? 1 : page, size })}
        />
      </Card>
    </Flex>
  );
}
