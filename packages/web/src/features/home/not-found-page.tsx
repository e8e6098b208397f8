import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('shell.notFoundTitle')}
      subTitle={t('shell.notFoundText')}
      extra={
        <Link to="/">
          <Button type="primary">{t('shell.backHome')}</Button>
        </Link>
      }
    />
  );
}
