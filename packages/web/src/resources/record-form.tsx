import { checkRules, type ResourceDef } from '@lampyr/contract';
import { Alert, Button, Form, Modal, Space, Spin } from 'antd';
import { cloneElement, type ReactElement, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRecord } from '../data/device-data.ts';
import { useResourceMutations } from '../data/resource-mutations.ts';
import { HttpError, isConflict } from '../lib/api-errors.ts';
import { useConsoleStore } from '../lib/console-store.ts';
import { errorMessage } from '../lib/error-message.ts';
import type { Row } from '../lib/resource-api.ts';
import { dependentsOf, narrowingOf } from './cascade.ts';
import { fieldInput } from './field-input.tsx';
import { fieldRules } from './field-rules.ts';
import {
  editableFields,
  type FormValues,
  newRecordValue,
  readOnlyFields,
  toCommandBody,
  toDraft,
  toFormValues,
  toWidgetValue,
} from './form-values.ts';
import type { ResourceLabels } from './labels.ts';

export type FormTarget = { mode: 'create' } | { mode: 'update'; id: number };

function draftKey(resource: ResourceDef): string {
  return `${resource.name}:create`;
}

/**
 * Create or edit one record. Rules come from the catalogue; the server's field messages land on
 * their fields; a 409 explains that someone else changed the record and offers both ways out.
 */
export function RecordForm({
  resource,
  target,
  labels,
  onClose,
  onSaved,
}: {
  resource: ResourceDef;
  target: FormTarget;
  labels: ResourceLabels;
  onClose: () => void;
  onSaved: (row: Row, mode: 'create' | 'update') => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const { create, update } = useResourceMutations(resource);
  const mode = target.mode;
  const id = target.mode === 'update' ? target.id : undefined;
  const [error, setError] = useState<string>();
  const [conflict, setConflict] = useState(false);
  const updatedAt = useRef<unknown>(undefined);
  const draft = useConsoleStore((s) => s.formValues[draftKey(resource)]);
  const setFormValues = useConsoleStore((s) => s.setFormValues);
  const clearFormValues = useConsoleStore((s) => s.clearFormValues);

  const record = useRecord(resource.name, id, { staleTime: 0 });
  // The form's current choices: reference selects narrow each other by them (cascade.ts).
  const watched = Form.useWatch([], form) as FormValues | undefined;

  const fields = useMemo(() => editableFields(resource), [resource]);
  const shownOnly = useMemo(() => readOnlyFields(resource), [resource]);
  const [initialDraft] = useState(draft);
  const initialValues = useMemo(() => {
    if (mode === 'create') {
      const values: FormValues = {};
      for (const [name, def] of fields) {
        const saved = initialDraft?.[name];
        values[name] = saved === undefined ? newRecordValue(def) : toWidgetValue(def, saved);
      }
      return values;
    }
    return undefined;
  }, [mode, fields, initialDraft]);

  useEffect(() => {
    if (record.data) {
      updatedAt.current = record.data.updatedAt;
      form.setFieldsValue(toFormValues(resource, record.data));
      // Shown, never sent: toCommandBody reads the editable fields only.
      const data = record.data;
      form.setFieldsValue(Object.fromEntries(shownOnly.map(([name, def]) => [name, toWidgetValue(def, data[name])])));
    }
  }, [record.data, form, resource, shownOnly]);

  const saving = create.isPending || update.isPending;

  const submit = async (values: FormValues) => {
    setError(undefined);
    setConflict(false);
    // The catalogue's rules across fields (a channel formula with its variables, ranges), as the
    // server runs them, with the same messages.
    const broken = checkRules(resource, toCommandBody(resource, values, mode));
    if (broken) {
      form.setFields(
        Object.entries(broken).map(([name, e]) => ({
          name,
          errors: [
            t(`common:${e.key}`, {
              ...e.vars,
              field: labels.field(name),
              ...(e.vars?.other ? { other: labels.field(String(e.vars.other)) } : {}),
            }),
          ],
        })),
      );
      return;
    }
    try {
      if (mode === 'create') {
        const row = await create.mutateAsync(toCommandBody(resource, values, 'create'));
        clearFormValues(draftKey(resource));
        onSaved(row, 'create');
      } else if (id !== undefined) {
        const body = { ...toCommandBody(resource, values, 'update'), id, updatedAt: updatedAt.current };
        const row = await update.mutateAsync(body);
        onSaved(row, 'update');
      }
    } catch (e) {
      if (isConflict(e)) {
        setConflict(true);
        return;
      }
      const fieldErrors = e instanceof HttpError ? e.fields : undefined;
      if (fieldErrors) {
        form.setFields(
          Object.entries(fieldErrors)
            .filter(([name]) => name in resource.fields)
            .map(([name, message]) => ({ name, errors: [message] })),
        );
      }
      setError(errorMessage(e, t));
    }
  };

  /** Their version replaces the form. */
  const loadLatest = async () => {
    const fresh = await record.refetch();
    if (fresh.data) {
      updatedAt.current = fresh.data.updatedAt;
      form.setFieldsValue(toFormValues(resource, fresh.data));
    }
    setConflict(false);
  };

  /** The form stays as typed and will overwrite their version on the next save. */
  const keepMine = async () => {
    const fresh = await record.refetch();
    if (fresh.data) updatedAt.current = fresh.data.updatedAt;
    setConflict(false);
  };

  /** Closing a New form without saving abandons it: it opens empty next time. */
  const abandon = () => {
    if (mode === 'create') clearFormValues(draftKey(resource));
    onClose();
  };

  const title =
    mode === 'create' ? t('resource.createTitle', { item: labels.one }) : t('resource.editTitle', { item: labels.one });
  const loadingRecord = mode === 'update' && record.isPending;

  return (
    <Modal
      open
      title={title}
      onCancel={abandon}
      destroyOnHidden
      width={640}
      footer={
        <Space>
          {mode === 'create' && (
            <Button
              onClick={() => {
                clearFormValues(draftKey(resource));
                form.resetFields();
              }}
            >
              {t('resource.clearForm')}
            </Button>
          )}
          <Button onClick={abandon}>{t('action.cancel')}</Button>
          <Button
            type="primary"
            htmlType="submit"
            form={`record-${resource.name}`}
            loading={saving}
            disabled={loadingRecord}
          >
            {t('action.save')}
          </Button>
        </Space>
      }
    >
      {conflict && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('conflict.title')}
          description={t('conflict.text', { item: labels.one })}
          style={{ marginBottom: 16 }}
          action={
            <Space orientation="vertical">
              <Button size="small" onClick={loadLatest}>
                {t('conflict.loadLatest')}
              </Button>
              <Button size="small" type="primary" onClick={keepMine}>
                {t('conflict.keepMine')}
              </Button>
            </Space>
          }
        />
      )}
      {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />}
      {record.isError && <Alert type="error" showIcon role="alert" title={errorMessage(record.error, t)} />}
      <Spin spinning={loadingRecord}>
        <Form
          form={form}
          id={`record-${resource.name}`}
          name={`record-${resource.name}`}
          layout="vertical"
          initialValues={initialValues}
          onFinish={submit}
          onValuesChange={(changed, all) => {
            // A new country, state or city clears the choices below it that it no longer contains.
            const cleared: FormValues = {};
            for (const name of Object.keys(changed))
              for (const dependent of dependentsOf(resource, name))
                if (all[dependent] !== undefined && all[dependent] !== null) cleared[dependent] = undefined;
            if (Object.keys(cleared).length) form.setFieldsValue(cleared);
            if (mode === 'create') setFormValues(draftKey(resource), toDraft(resource, { ...all, ...cleared }));
          }}
          scrollToFirstError
        >
          {fields.map(([name, def], index) => {
            const label = labels.field(name);
            return (
              <Form.Item
                key={name}
                name={name}
                label={label}
                rules={fieldRules(def, label, t, mode)}
                valuePropName={def.kind === 'boolean' ? 'checked' : 'value'}
                getValueFromEvent={
                  def.kind === 'color'
                    ? (color: { toHexString?: () => string } | null) => color?.toHexString?.() ?? undefined
                    : undefined
                }
                extra={def.kind === 'secret' && mode === 'update' ? t('resource.secretKeep') : undefined}
              >
                {fieldInput(name, def, labels, index === 0, narrowingOf(resource, name, watched))}
              </Form.Item>
            );
          })}
          {mode === 'update' &&
            shownOnly.map(([name, def]) => (
              <Form.Item
                key={name}
                name={name}
                label={labels.field(name)}
                valuePropName={def.kind === 'boolean' ? 'checked' : 'value'}
                extra={t('resource.readOnlyHint')}
              >
                {cloneElement(fieldInput(name, def, labels, false) as ReactElement<{ disabled?: boolean }>, {
                  disabled: true,
                })}
              </Form.Item>
            ))}
        </Form>
      </Spin>
    </Modal>
  );
}
