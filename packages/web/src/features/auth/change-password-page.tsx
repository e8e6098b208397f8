import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from './change-password-form.tsx';

/** ChangePasword inside the layout, reached from the account menu. */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('auth.changePassword.title')} style={{ maxWidth: 520 }}>
      <ChangePasswordForm />
    </Card>
  );
}
