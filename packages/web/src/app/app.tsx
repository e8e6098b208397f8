import { Alert, Flex } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { PERSIST_KEY, usePersistGate } from '../lib/console-store.ts';
import { PageLoading } from './page-loading.tsx';
import { Providers } from './providers.tsx';
import { AppRoutes } from './router.tsx';

/** SPEC §1: the loading state lifts once the persisted parts are restored. */
function PersistedStateGate() {
  const { status, timedOut } = usePersistGate();
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (status === 'rehydrated') document.getElementById('boot')?.remove();
  }, [status]);
  if (status !== 'rehydrated') return <PageLoading fullScreen />;
  return (
    <>
      {timedOut && !dismissed && (
        <Flex justify="center" style={{ position: 'fixed', top: 8, insetInline: 0, zIndex: 2000 }}>
          <Alert
            type="warning"
            showIcon
            closable={{ onClose: () => setDismissed(true) }}
            title={t('persist.timeout', { key: PERSIST_KEY, ms: 5000 })}
          />
        </Flex>
      )}
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </>
  );
}

export function App() {
  return (
    <Providers>
      <PersistedStateGate />
    </Providers>
  );
}
