import type { RegisterBody } from '@lampyr/contract/auth';
import { Alert, Button, Col, Form, Input, Row, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../lib/error-message.ts';
import { authApi } from './auth-api.ts';
import { AuthFrame } from './auth-frame.tsx';
import { emailRules, passwordRules, textRules } from './auth-rules.ts';

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const submit = async (values: RegisterBody) => {
    setPending(true);
    setError(undefined);
    const body = { ...values, email: values.email.trim() };
    try {
      await authApi.register(body);
      navigate(`/verifyotp?email=${encodeURIComponent(body.email)}`);
    } catch (e) {
      setError(errorMessage(e, t));
      setPending(false);
    }
  };

  return (
    <AuthFrame title={t('auth.register.title')} subtitle={t('auth.register.intro')}>
      {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form layout="vertical" onFinish={submit} requiredMark={false} name="register">
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="firstName"
              label={t('auth.fields.firstName')}
              rules={textRules(t, (s) => s.registerSchema.shape.firstName, 'firstName')}
            >
              <Input autoComplete="given-name" autoFocus />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="lastName"
              label={t('auth.fields.lastName')}
              rules={textRules(t, (s) => s.registerSchema.shape.lastName, 'lastName')}
            >
              <Input autoComplete="family-name" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="phoneNumber"
          label={t('auth.fields.phoneNumber')}
          rules={textRules(t, (s) => s.registerSchema.shape.phoneNumber, 'phoneNumber')}
        >
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item
          name="title"
          label={t('auth.fields.title')}
          rules={textRules(t, (s) => s.registerSchema.shape.title, 'title')}
        >
          <Input autoComplete="organization-title" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('auth.fields.email')}
          rules={emailRules(t, (s) => s.registerSchema.shape.email)}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.fields.password')}
          rules={passwordRules(t, (s) => s.registerSchema.shape.password)}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={pending}>
            {t('auth.register.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Text>
        {t('auth.register.haveAccount')}{' '}
        <Link to="/login" style={{ textDecoration: 'underline' }}>
          {t('auth.register.signIn')}
        </Link>
      </Typography.Text>
    </AuthFrame>
  );
}
