/**
 * `npm start`'s console build, skipped when nothing it is built from changed: the build runs unless
 * every file of packages/web/dist is newer than every source, locale and config file of the web and
 * contract packages (and the lockfile).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const inputs = [
  'packages/web/src',
  'packages/web/public',
  'packages/web/scripts',
  'packages/web/index.html',
  'packages/web/vite.config.ts',
  'packages/web/package.json',
  'packages/contract/src',
  'packages/contract/locales',
  'packages/contract/package.json',
  'package-lock.json',
];

/** Modification times of a file, or of every file under a folder. */
function times(path) {
  if (!existsSync(path)) return [];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path).flatMap((name) => times(join(path, name)));
}

const built = times(join(root, 'packages/web/dist'));
const newestInput = Math.max(...inputs.flatMap((p) => times(join(root, p))));
if (built.length > 0 && Math.min(...built) > newestInput) {
  console.log('Console unchanged since its last build: packages/web/dist is kept.');
} else {
  const result = spawnSync('npm', ['run', 'build', '-w', '@lampyr/web'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
