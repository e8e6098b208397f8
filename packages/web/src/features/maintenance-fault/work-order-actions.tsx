import { transitionsFrom, type WorkOrderTransition } from '@lampyr/contract';
import { Alert, App, Button, DatePicker, Form, Input, Modal, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAssignees, useWorkOrderTransition } from '../../data/work-orders.ts';
import { errorMessage } from '../../lib/error-message.ts';
import type { Row } from '../../lib/resource-api.ts';

interface Values {
  assigneeId?: number;
  crew?: string;
  note?: string;
  plannedDate?: Dayjs;
  work?: string;
  resolution?: string;
  partsUsed?: string;
  reason?: string;
}

/** The steps a work order offers now, as buttons; each asks for what it needs and a confirmation. */
export function WorkOrderActions({ order }: { order: Row }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<WorkOrderTransition>();
  const steps = transitionsFrom(String(order.status));
  if (!steps.length) return null;
  return (
    <>
      <Space size={4} wrap>
        {steps.map((s) => (
          <Button
            key={s}
            size="small"
            type={s === 'reopen' ? 'default' : 'primary'}
            ghost={s !== 'reopen'}
            onClick={() => setStep(s)}
            data-testid={`work-order-${order.id}-${s}`}
          >
            {t(`resources:values.${s}`)}
          </Button>
        ))}
      </Space>
      {step && <TransitionDialog order={order} step={step} onClose={() => setStep(undefined)} />}
    </>
  );
}

function TransitionDialog({ order, step, onClose }: { order: Row; step: WorkOrderTransition; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const transition = useWorkOrderTransition();
  const assignees = useAssignees();
  const [error, setError] = useState<string>();

  const submit = async (values: Values) => {
    const id = order.id;
    const text = (v?: string) => (v?.trim() ? v.trim() : undefined);
    const body =
      step === 'assign'
        ? { id, assigneeId: values.assigneeId as number, crew: text(values.crew), note: text(values.note) }
        : step === 'plan'
          ? { id, plannedDate: (values.plannedDate as Dayjs).format('YYYY-MM-DD'), work: text(values.work) }
          : step === 'resolve'
            ? { id, resolution: (values.resolution ?? '').trim(), partsUsed: text(values.partsUsed) }
            : step === 'reopen'
              ? { id, reason: (values.reason ?? '').trim() }
              : { id, note: text(values.note) };
    try {
      setError(undefined);
      await transition.mutateAsync({ step, body } as never);
      message.success(t(`workOrders.done.${step}`, { id }));
      onClose();
    } catch (e) {
      setError(errorMessage(e, t));
    }
  };

  const required = (key: string) => [{ required: true, whitespace: true, message: t(key) }];
  return (
    <Modal
      open
      title={t(`workOrders.confirm.${step}`, { id: order.id })}
      okText={t(`resources:values.${step}`)}
      cancelText={t('action.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={transition.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'work-order-confirm' } as never}
    >
      <p>{t(`workOrders.explain.${step}`)}</p>
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          assigneeId: typeof order.assigneeId === 'number' ? order.assigneeId : undefined,
          crew: order.crew ?? undefined,
          plannedDate: order.plannedDate ? dayjs(String(order.plannedDate)) : dayjs().add(1, 'day'),
        }}
      >
        {step === 'assign' && (
          <>
            <Form.Item
              name="assigneeId"
              label={t('resources:fields.assigneeId')}
              rules={[{ required: true, message: t('workOrders.assigneeRequired') }]}
            >
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={assignees.isPending}
                aria-label={t('resources:fields.assigneeId')}
                options={(assignees.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.email})` }))}
              />
            </Form.Item>
            <Form.Item name="crew" label={t('resources:fields.crew')}>
              <Input maxLength={255} placeholder={t('workOrders.crewPlaceholder')} />
            </Form.Item>
          </>
        )}
        {step === 'plan' && (
          <>
            <Form.Item
              name="plannedDate"
              label={t('resources:fields.plannedDate')}
              rules={[{ required: true, message: t('workOrders.plannedDateRequired') }]}
            >
              <DatePicker
                format="YYYY-MM-DD"
                disabledDate={(d) => d.isBefore(dayjs(), 'day')}
                aria-label={t('resources:fields.plannedDate')}
              />
            </Form.Item>
            <Form.Item name="work" label={t('resources:fields.work')}>
              <Input.TextArea maxLength={4000} rows={2} placeholder={t('workOrders.workPlaceholder')} />
            </Form.Item>
          </>
        )}
        {step === 'resolve' && (
          <>
            <Form.Item
              name="resolution"
              label={t('resources:fields.resolution')}
              rules={required('workOrders.resolutionRequired')}
            >
              <Input.TextArea maxLength={4000} rows={3} placeholder={t('workOrders.resolutionPlaceholder')} />
            </Form.Item>
            <Form.Item name="partsUsed" label={t('resources:fields.partsUsed')}>
              <Input.TextArea maxLength={4000} rows={2} placeholder={t('workOrders.partsPlaceholder')} />
            </Form.Item>
          </>
        )}
        {step === 'reopen' && (
          <Form.Item name="reason" label={t('workOrders.reason')} rules={required('workOrders.reasonRequired')}>
            <Input.TextArea maxLength={4000} rows={2} />
          </Form.Item>
        )}
        {(step === 'assign' || step === 'start' || step === 'close') && (
          <Form.Item name="note" label={t('workOrders.note')}>
            <Input.TextArea maxLength={4000} rows={2} />
          </Form.Item>
        )}
      </Form>
      {error && <Alert type="error" showIcon role="alert" title={error} data-testid="work-order-error" />}
    </Modal>
  );
}
