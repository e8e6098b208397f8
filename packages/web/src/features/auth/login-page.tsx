import { LockOutlined, MailOutlined } from '@ant-design/icons';
import type { LoginBody } from '@lampyr/contract/auth';
import { Alert, Button, Flex, Form } from 'antd';
// The input and the password input alone: the `Input` barrel also carries TextArea, Search and OTP.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { redirectTarget } from '../../app/require-auth.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { storeSignIn } from '../../lib/session-storage.ts';
import { authApi } from './auth-api.ts';
import { AuthFrame } from './auth-frame.tsx';
import { emailRules, passwordRules } from './auth-rules.ts';

// The dialog is fetched only when someone asks for it.
const ForgotPasswordDialog = lazy(() => import('./forgot-password-dialog.tsx'));

type LoginValues = LoginBody;

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const arrival = location.state as { notice?: string; noticeType?: 'success' | 'warning' } | null;
  const [notice, setNotice] = useState(
    arrival?.notice ? { key: arrival.notice, type: arrival.noticeType ?? 'success' } : undefined,
  );
  const [form] = Form.useForm<LoginValues>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);

  const submit = async (values: LoginValues) => {
    setPending(true);
    setError(undefined);
    try {
      const signIn = await authApi.login({ email: values.email.trim(), password: values.password });
      storeSignIn(signIn);
      navigate(redirectTarget(location.state), { replace: true });
    } catch (e) {
      setError(errorMessage(e, t));
      setPending(false);
    }
  };

  return (
    <AuthFrame title={t('auth.login.title')} subtitle={t('auth.login.welcome')}>
      {notice && <Alert type={notice.type} showIcon role="status" title={t(notice.key)} style={{ marginBottom: 16 }} />}
      {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} name="login">
        <Form.Item name="email" label={t('auth.fields.email')} rules={emailRules(t, (s) => s.loginSchema.shape.email)}>
          <Input prefix={<MailOutlined />} type="email" autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.fields.password')}
          rules={passwordRules(t, (s) => s.loginSchema.shape.password)}
        >
          <Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Flex justify="flex-end" style={{ marginBlock: -8 }}>
          <Button type="link" onClick={() => setForgotOpen(true)} style={{ paddingInline: 0 }}>
            {t('auth.login.forgot')}
          </Button>
        </Flex>
        <Form.Item style={{ marginTop: 16 }}>
          <Button type="primary" htmlType="submit" block loading={pending}>
            {t('auth.login.submit')}
          </Button>
        </Form.Item>
      </Form>
      <p style={{ margin: 0 }}>
        {t('auth.login.noAccount')}{' '}
        <Link to="/register" style={{ textDecoration: 'underline' }}>
          {t('auth.login.register')}
        </Link>
      </p>
      {forgotOpen && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog
            initialEmail={form.getFieldValue('email')}
            onClose={(email, reset) => {
              setForgotOpen(false);
              if (email) form.setFieldsValue({ email, password: '' });
              if (reset) setNotice({ key: 'auth.forgot.done', type: 'success' });
            }}
          />
        </Suspense>
      )}
    </AuthFrame>
  );
}
