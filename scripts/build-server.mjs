/**
 * The server compiled to JavaScript for production: `packages/server/src/main.ts` bundled with
 * esbuild into `packages/server/dist/main.js` (the workspace packages — contract, simulator — are
 * bundled in; every other package stays an import from node_modules), with the migrations beside
 * it. Run with plain `node packages/server/dist/main.js`: no tsx at run time. The console is served
 * from `packages/web/dist` (built by `npm run build -w @lampyr/web`).
 */
import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(root, 'packages/server');
const out = join(server, 'dist');

/** Bare imports stay external, except Lampyr's own workspace packages (TypeScript sources). */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@lampyr/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: { main: join(server, 'src/main.ts') },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalPackages],
  logLevel: 'warning',
});
// connect.ts finds its migrations next to itself (`./migrations` of the module's URL).
cpSync(join(server, 'src/db/migrations'), join(out, 'migrations'), { recursive: true });
// The embedded database's thread is loaded from a file of its own (pglite-thread.ts), beside it too.
cpSync(join(server, 'src/db/pglite-thread-worker.js'), join(out, 'pglite-thread-worker.js'));
process.stdout.write(`built ${join(out, 'main.js')}\n`);
