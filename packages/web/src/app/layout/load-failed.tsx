import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message.ts';

/** A screen's data could not be loaded: what went wrong, and a way to try again. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={errorMessage(error, t)}
      action={<Button onClick={onRetry}>{t('action.retry')}</Button>}
    />
  );
}
