import type { VerifyOtpBody } from '@lampyr/contract/auth';
import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/error-message.ts';
import { authApi } from './auth-api.ts';
import { AuthFrame } from './auth-frame.tsx';
import { emailRules, otpRules } from './auth-rules.ts';

type VerifyValues = VerifyOtpBody;

/** Confirms the e-mail with the six-digit code sent at registration; a new code can be asked for. */
export default function VerifyOtpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<VerifyValues>();
  const [error, setError] = useState<string>();
  const [resent, setResent] = useState(false);
  const [pending, setPending] = useState(false);
  const [resending, setResending] = useState(false);

  const submit = async (values: VerifyValues) => {
    setPending(true);
    setError(undefined);
    try {
      await authApi.verifyOtp({ email: values.email.trim(), code: values.code.trim() });
      navigate('/login', { replace: true, state: { notice: 'auth.verify.done' } });
    } catch (e) {
      setError(errorMessage(e, t));
      setPending(false);
    }
  };

  const resend = async () => {
    try {
      const { email } = await form.validateFields(['email']);
      setResending(true);
      setError(undefined);
      setResent(false);
      await authApi.resendOtp({ email: email.trim() });
      setResent(true);
    } catch (e) {
      if (e instanceof Error) setError(errorMessage(e, t));
    } finally {
      setResending(false);
    }
  };

  return (
    <AuthFrame title={t('auth.verify.title')} subtitle={t('auth.verify.intro')}>
      {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
      {resent && (
        <Alert type="success" showIcon title={t('auth.verify.resent')} role="status" style={{ marginBottom: 16 }} />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        requiredMark={false}
        initialValues={{ email: params.get('email') ?? '' }}
        name="verify"
      >
        <Form.Item
          name="email"
          label={t('auth.fields.email')}
          rules={emailRules(t, (s) => s.verifyOtpSchema.shape.email)}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="code" label={t('auth.fields.code')} rules={otpRules(t, (s) => s.verifyOtpSchema.shape.code)}>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={pending}>
            {t('auth.verify.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Flex justify="space-between" align="center" wrap>
        <Button type="link" onClick={resend} loading={resending} style={{ paddingInline: 0 }}>
          {t('auth.verify.resend')}
        </Button>
        <Typography.Text>
          <Link to="/login">{t('auth.register.signIn')}</Link>
        </Typography.Text>
      </Flex>
    </AuthFrame>
  );
}
