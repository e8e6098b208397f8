import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where the dev server finds the Lampyr server for the API, translations and runtime config. */
const target = process.env.LAMPYR_SERVER_URL ?? 'http://localhost:8080';
const contractDir = fileURLToPath(new URL('../contract/', import.meta.url));

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/query': target,
      '/command': target,
      '/locales': target,
      '/config.json': target,
    },
  },
  build: {
    manifest: true,
    sourcemap: false,
    rolldownOptions: {
      // The contract's modules only define things; a screen that uses none of a module's exports
      // must not pull it (the zod wire schemas stay out of the sign-in bundle).
      treeshake: {
        moduleSideEffects: (id: string) => !id.startsWith(contractDir),
      },
    },
  },
});
