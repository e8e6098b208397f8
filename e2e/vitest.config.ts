import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests: the built console in Debian's Chromium against a real Lampyr server that the
 * tests start themselves (embedded PGlite in a temporary data directory), compiled as in production
 * (`packages/server/dist/main.js`, built by the global setup).
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['support/build-server.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // A browser waits on the network and on a real server: poll for up to 15 s, not 1 s.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
