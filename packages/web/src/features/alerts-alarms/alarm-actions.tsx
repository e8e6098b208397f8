import { DatePicker, Form, Input, Modal, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmCommand, AlarmCommandResult } from '../../lib/alarm-api.ts';
import { errorMessage } from '../../lib/error-message.ts';

export type AlarmAction = AlarmCommand['action'];

const COMMENT_MAX = 1000;
/** The server shelves for at most this long. */
const SHELVE_MAX_DAYS = 30;

interface Values {
  comment?: string;
  until?: Dayjs;
}

/**
 * The confirmation of an operator's transition on one or more alarms: acknowledge (a comment if
 * wished), clear (a comment is required) or shelve until a time (an hour from now unless changed).
 * `send` does the call; the dialog stays open on failure and says why.
 */
export function AlarmActionDialog({
  action,
  ids,
  send,
  onDone,
  onCancel,
  now = () => dayjs(),
}: {
  action: AlarmAction;
  ids: number[];
  send: (command: AlarmCommand) => Promise<AlarmCommandResult>;
  onDone: (result: AlarmCommandResult) => void;
  onCancel: () => void;
  now?: () => Dayjs;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [initial] = useState<Values>(() => ({ until: now().add(1, 'hour').startOf('minute') }));

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is missing
    }
    const comment = values.comment?.trim() || undefined;
    const command: AlarmCommand =
      action === 'clear'
        ? { action, ids, comment: comment ?? '' }
        : action === 'shelve'
          ? { action, ids, until: (values.until as Dayjs).toISOString(), ...(comment ? { comment } : {}) }
          : { action, ids, ...(comment ? { comment } : {}) };
    setSending(true);
    setFailure(undefined);
    try {
      onDone(await send(command));
    } catch (error) {
      setFailure(errorMessage(error, t));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={t(`alarms.actions.${action}Title`, { count: ids.length })}
      okText={t(`alarms.actions.${action}`)}
      cancelText={t('action.cancel')}
      okButtonProps={{ danger: action === 'clear', loading: sending }}
      onOk={() => void submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Typography.Paragraph>{t(`alarms.actions.${action}Confirm`, { count: ids.length })}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={initial} requiredMark>
        {action === 'shelve' && (
          <Form.Item
            name="until"
            label={t('alarms.actions.until')}
            rules={[
              { required: true, message: t('alarms.actions.untilRequired') },
              {
                validator: (_r, value: Dayjs | undefined) => {
                  if (!value) return Promise.resolve();
                  if (!value.isAfter(now())) return Promise.reject(new Error(t('alarms.actions.untilFuture')));
                  if (value.isAfter(now().add(SHELVE_MAX_DAYS, 'day')))
                    return Promise.reject(new Error(t('alarms.actions.untilTooFar', { days: SHELVE_MAX_DAYS })));
                  return Promise.resolve();
                },
              },
            ]}
          >
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="L HH:mm"
              style={{ width: '100%' }}
              disabledDate={(day) =>
                day.isBefore(now(), 'day') || day.isAfter(now().add(SHELVE_MAX_DAYS, 'day'), 'day')
              }
            />
          </Form.Item>
        )}
        <Form.Item
          name="comment"
          label={t('alarms.actions.comment')}
          rules={[
            ...(action === 'clear'
              ? [{ required: true, whitespace: true, message: t('alarms.actions.commentRequired') }]
              : []),
            { max: COMMENT_MAX, message: t('alarms.actions.commentTooLong', { max: COMMENT_MAX }) },
          ]}
        >
          <Input.TextArea rows={3} maxLength={COMMENT_MAX} showCount />
        </Form.Item>
      </Form>
      {failure && (
        <Typography.Text type="danger" role="alert">
          {failure}
        </Typography.Text>
      )}
    </Modal>
  );
}
