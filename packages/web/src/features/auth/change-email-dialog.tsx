import type { ChangeEmailBody, ConfirmEmailBody } from '@lampyr/contract/auth';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message.ts';
import { STORAGE_KEYS, writeLocal } from '../../lib/session-storage.ts';
import { authApi } from './auth-api.ts';
import { emailRules, otpRules, passwordRules } from './auth-rules.ts';

/**
 * A user's own change of e-mail: the new address and the password first, then the code sent to
 * that address. The address changes only once the code comes back.
 */
export function ChangeEmailDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ newEmail: string; password: string; code: string }>();
  const [pendingEmail, setPendingEmail] = useState<string>();
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (values: ChangeEmailBody & ConfirmEmailBody) => {
    setBusy(true);
    setOutcome(undefined);
    try {
      if (!pendingEmail) {
        const answer = await authApi.changeEmail({ newEmail: values.newEmail, password: values.password });
        setPendingEmail(answer.pendingEmail);
        setOutcome({ type: 'success', text: t('auth.changeEmail.sent', { email: answer.pendingEmail }) });
      } else {
        const answer = await authApi.confirmEmail({ code: values.code });
        writeLocal(STORAGE_KEYS.userData, JSON.stringify(answer.user));
        setDone(true);
        setOutcome({ type: 'success', text: t('auth.changeEmail.done', { email: answer.user.email }) });
      }
    } catch (e) {
      setOutcome({ type: 'error', text: errorMessage(e, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('auth.changeEmail.title')}
      onCancel={onClose}
      onOk={done ? onClose : () => form.submit()}
      okText={done ? t('action.close') : pendingEmail ? t('auth.changeEmail.confirm') : t('auth.changeEmail.send')}
      okButtonProps={{ loading: busy }}
      cancelButtonProps={{ style: done ? { display: 'none' } : undefined }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('auth.changeEmail.intro')}</Typography.Paragraph>
      {outcome && (
        <Alert
          type={outcome.type}
          showIcon
          title={outcome.text}
          role={outcome.type === 'error' ? 'alert' : 'status'}
          style={{ marginBottom: 16 }}
        />
      )}
      {!done && (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} name="change-email">
          <Form.Item
            name="newEmail"
            label={t('auth.changeEmail.newEmail')}
            rules={emailRules(t, (s) => s.changeEmailSchema.shape.newEmail)}
          >
            <Input type="email" autoComplete="email" autoFocus disabled={pendingEmail !== undefined} />
          </Form.Item>
          {pendingEmail === undefined ? (
            <Form.Item
              name="password"
              label={t('auth.changeEmail.password')}
              rules={passwordRules(t, (s) => s.changeEmailSchema.shape.password)}
            >
              <Input.Password autoComplete="current-password" />
            </Form.Item>
          ) : (
            <Form.Item
              name="code"
              label={t('auth.changeEmail.code')}
              rules={otpRules(t, (s) => s.confirmEmailSchema.shape.code)}
            >
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}
