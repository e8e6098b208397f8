import { defineConfig } from 'vitest/config';

/**
 * Server tests run once on PGlite and, when TEST_DATABASE_URL is set (CI sets it), once more on
 * that real PostgreSQL. Web component tests run in happy-dom.
 */
const serverProject = (name: string, env: Record<string, string>) => ({
  test: {
    name,
    include: ['packages/server/test/**/*.test.ts', 'packages/contract/test/**/*.test.ts'],
    environment: 'node',
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});

const databaseUrl = process.env.TEST_DATABASE_URL;
// Ingest tests pair the embedded broker with PGlite, and the real broker (when given) with PostgreSQL.
const mqttUrl = process.env.TEST_MQTT_URL;

export default defineConfig({
  test: {
    projects: [
      serverProject('server:pglite', { LAMPYR_TEST_DB: 'pglite', LAMPYR_TEST_MQTT: 'aedes' }),
      ...(databaseUrl
        ? [serverProject('server:postgres', { LAMPYR_TEST_DB: databaseUrl, LAMPYR_TEST_MQTT: mqttUrl ?? 'aedes' })]
        : []),
      'packages/web/vitest.config.ts',
    ],
  },
});
