import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthFrame } from './auth-frame.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';

/** /changepassword outside the layout: the same screen in the sign-in frame. */
export default function StandaloneChangePassword() {
  const { t } = useTranslation();
  return (
    <AuthFrame title={t('auth.changePassword.title')}>
      <ChangePasswordForm />
      <p style={{ marginTop: 16 }}>
        <Link to="/">{t('shell.backHome')}</Link>
      </p>
    </AuthFrame>
  );
}
