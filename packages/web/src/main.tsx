import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod';
import { App } from './app/app.tsx';
import { restorePersistedState } from './lib/console-store.ts';
import { initI18n } from './lib/i18n.ts';
import { loadRuntimeConfig } from './lib/runtime-config.ts';

// The console runs under a Content-Security-Policy without 'unsafe-eval': zod must not probe
// `Function('')` for its compiled parsers (the probe alone is reported as a violation).
zodConfig({ jitless: true });

async function start() {
  // The API base URLs and the translations are needed before the first screen; the persisted
  // store restores alongside and gates rendering of the routes itself.
  void restorePersistedState();
  await Promise.all([loadRuntimeConfig(), initI18n()]);
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App />);
}

void start();
