import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The e2e tests run the compiled server (`packages/server/dist/main.js`, as in production): built
 * afresh once before the run, so it is never older than the sources (esbuild takes a second or two).
 */
export default function setup(): void {
  const root = join(import.meta.dirname, '..', '..');
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`The server build failed:\n${built.stdout}${built.stderr}`);
}
