import type { ChangePasswordBody } from '@lampyr/contract/auth';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message.ts';
import { saveAuthToken } from '../../lib/session-storage.ts';
import { authApi } from './auth-api.ts';
import { confirmRules, passwordRules } from './auth-rules.ts';

type ChangeValues = ChangePasswordBody & { confirm: string };

export function ChangePasswordForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChangeValues>();
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; text: string }>();
  const [pending, setPending] = useState(false);

  const submit = async (values: ChangeValues) => {
    setPending(true);
    setOutcome(undefined);
    try {
      const { token } = await authApi.changePassword({
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
      });
      // Every other session of the user ended; this one continues with the new token.
      saveAuthToken(token);
      form.resetFields();
      setOutcome({ type: 'success', text: t('auth.changePassword.done') });
    } catch (e) {
      setOutcome({ type: 'error', text: errorMessage(e, t) });
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      {outcome && (
        <Alert
          type={outcome.type}
          showIcon
          title={outcome.text}
          role={outcome.type === 'error' ? 'alert' : 'status'}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} name="change-password">
        <Form.Item
          name="currentPassword"
          label={t('auth.fields.currentPassword')}
          rules={passwordRules(t, (s) => s.changePasswordSchema.shape.currentPassword, 'auth.messages.currentPassword')}
        >
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('auth.fields.newPassword')}
          rules={passwordRules(t, (s) => s.changePasswordSchema.shape.newPassword)}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('auth.fields.confirmPassword')}
          dependencies={['newPassword']}
          rules={confirmRules(t, 'newPassword')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={pending}>
          {t('auth.changePassword.submit')}
        </Button>
      </Form>
    </>
  );
}
