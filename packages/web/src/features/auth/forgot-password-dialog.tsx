import type { ResetPasswordBody } from '@lampyr/contract/auth';
import { Button, Form, Input, Modal, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message.ts';
import { authApi } from './auth-api.ts';
import { confirmRules, emailRules, otpRules, passwordRules } from './auth-rules.ts';

type ResetValues = Pick<ResetPasswordBody, 'code' | 'password'> & { confirm: string };

/** Forgot password: ask for a code by e-mail, then set a new password with it. */
export default function ForgotPasswordDialog({
  initialEmail,
  onClose,
}: {
  initialEmail?: string;
  onClose: (email?: string, reset?: boolean) => void;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<0 | 1>(0);
  const [email, setEmail] = useState(initialEmail ?? '');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  const requestCode = async ({ email: value }: { email: string }) => {
    setPending(true);
    setError(undefined);
    try {
      await authApi.forgotPassword({ email: value.trim() });
      setEmail(value.trim());
      setStep(1);
    } catch (e) {
      setError(errorMessage(e, t));
    } finally {
      setPending(false);
    }
  };

  const reset = async (values: ResetValues) => {
    setPending(true);
    setError(undefined);
    try {
      await authApi.resetPassword({ email, code: values.code, password: values.password });
      onClose(email, true);
    } catch (e) {
      setError(errorMessage(e, t));
      setPending(false);
    }
  };

  return (
    <Modal open title={t('auth.forgot.title')} onCancel={() => onClose()} footer={null} destroyOnHidden>
      <Steps
        size="small"
        current={step}
        items={[{ title: t('auth.forgot.stepEmail') }, { title: t('auth.forgot.stepReset') }]}
        style={{ marginBlock: 16 }}
      />
      {error && (
        <Typography.Paragraph type="danger" role="alert">
          {error}
        </Typography.Paragraph>
      )}
      {step === 0 ? (
        <Form layout="vertical" onFinish={requestCode} initialValues={{ email }} requiredMark={false} name="forgot">
          <Typography.Paragraph type="secondary">{t('auth.forgot.intro')}</Typography.Paragraph>
          <Form.Item
            name="email"
            label={t('auth.fields.email')}
            rules={emailRules(t, (s) => s.emailOnlySchema.shape.email)}
          >
            <Input type="email" autoComplete="email" autoFocus />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={pending}>
            {t('auth.forgot.sendCode')}
          </Button>
        </Form>
      ) : (
        <Form layout="vertical" onFinish={reset} requiredMark={false} name="reset">
          <Typography.Paragraph type="secondary">{t('auth.forgot.codeSent', { email })}</Typography.Paragraph>
          <Form.Item
            name="code"
            label={t('auth.fields.code')}
            rules={otpRules(t, (s) => s.resetPasswordSchema.shape.code)}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('auth.fields.newPassword')}
            rules={passwordRules(t, (s) => s.resetPasswordSchema.shape.password)}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('auth.fields.confirmPassword')}
            dependencies={['password']}
            rules={confirmRules(t, 'password')}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={pending}>
            {t('auth.forgot.submit')}
          </Button>
        </Form>
      )}
    </Modal>
  );
}
