import type { OverrideRequest } from '@lampyr/contract';
import { App, Button, Card, DatePicker, Flex, Form, Input, Segmented, Slider } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateOverride } from '../../data/overrides.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import ResourcePage from '../../resources/resource-page.tsx';

type Target = 'street' | 'region' | 'devices';

interface Values {
  street?: string;
  regionId?: number | null;
  deviceIds?: number[] | null;
  level: number;
  until: Dayjs;
  reason: string;
}

/**
 * Tasks → Overrides: hold a street, a region or chosen lights at a level until a time (a festival,
 * roadworks, an accident); it ends by itself and the schedule resumes. Below, every override made.
 */
export default function OverridesPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [target, setTarget] = useState<Target>('street');
  const create = useCreateOverride();

  const submit = (values: Values) => {
    const body: OverrideRequest = {
      target:
        target === 'devices'
          ? { deviceIds: values.deviceIds ?? [] }
          : target === 'region'
            ? { regionId: values.regionId as number }
            : { street: (values.street ?? '').trim(), ...(values.regionId ? { regionId: values.regionId } : {}) },
      level: values.level,
      until: values.until.toISOString(),
      reason: values.reason.trim(),
    };
    modal.confirm({
      title: t('overrides.confirmTitle'),
      content: t('overrides.confirm', { level: values.level, until: values.until.format('LLL') }),
      okText: t('overrides.submit'),
      onOk: async () => {
        try {
          const result = await create.mutateAsync(body);
          message.success(t('overrides.done', { count: result.deviceCount }));
          form.resetFields(['street', 'deviceIds', 'reason']);
        } catch (error) {
          message.error(errorMessage(error, t));
        }
      },
    });
  };

  return (
    <Flex vertical gap={16}>
      <Card title={t('overrides.title')} size="small">
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{ level: 100, until: dayjs().add(2, 'hour').startOf('minute') }}
          onFinish={submit}
          style={{ maxWidth: 720 }}
        >
          <Form.Item label={t('overrides.target')}>
            <Segmented<Target>
              value={target}
              onChange={setTarget}
              options={(['street', 'region', 'devices'] as const).map((v) => ({
                value: v,
                label: t(`overrides.${v}`),
              }))}
            />
          </Form.Item>
          {target === 'street' && (
            <Form.Item
              name="street"
              label={t('overrides.street')}
              rules={[{ required: true, whitespace: true, message: t('overrides.streetRequired') }]}
            >
              <Input maxLength={200} />
            </Form.Item>
          )}
          {target !== 'devices' && (
            <Form.Item
              name="regionId"
              label={t('overrides.region')}
              rules={target === 'region' ? [{ required: true, message: t('overrides.regionRequired') }] : []}
            >
              <ReferenceSelect prefix="regions" aria-label={t('overrides.region')} />
            </Form.Item>
          )}
          {target === 'devices' && (
            <Form.Item
              name="deviceIds"
              label={t('overrides.devices')}
              rules={[{ required: true, type: 'array', min: 1, message: t('overrides.devicesRequired') }]}
            >
              <ReferenceSelect prefix="devices" multiple aria-label={t('overrides.devices')} />
            </Form.Item>
          )}
          <Form.Item name="level" label={t('overrides.level')}>
            <Slider
              ariaLabelForHandle={t('overrides.level')}
              min={0}
              max={100}
              step={5}
              marks={{ 0: t('overrides.off'), 50: '50 %', 100: '100 %' }}
            />
          </Form.Item>
          <Form.Item
            name="until"
            label={t('overrides.until')}
            rules={[
              { required: true, message: t('overrides.untilRequired') },
              {
                validator: (_rule, value: Dayjs | undefined) =>
                  !value || (value.isAfter(dayjs()) && value.isBefore(dayjs().add(30, 'day')))
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('overrides.untilRange'))),
              },
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('overrides.reason')}
            rules={[{ required: true, whitespace: true, message: t('overrides.reasonRequired') }]}
          >
            <Input maxLength={500} placeholder={t('overrides.reasonPlaceholder')} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            {t('overrides.submit')}
          </Button>
        </Form>
      </Card>
      <ResourcePage resource="overrides" />
    </Flex>
  );
}
