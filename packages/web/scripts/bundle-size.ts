/**
 * Prints the gzip size of the JavaScript a browser loads to show /login (the entry and the sign-in
 * screen with everything they import statically) and of the largest lazily loaded chunk.
 * Run after `npm run build -w @lampyr/web`:  node --import tsx packages/web/scripts/bundle-size.ts
 * With `--check`, exits with an error when /login needs more than the 225 KB gzip bar.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const dist = join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

function gzipKb(file: string): number {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
}

/** A chunk and every chunk it imports statically: what loads before its code can run. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}

function total(keys: Iterable<string>): number {
  let sum = 0;
  for (const key of keys) {
    const chunk = manifest[key];
    if (chunk?.file.endsWith('.js')) sum += gzipKb(chunk.file);
  }
  return sum;
}

const LOGIN_BAR_KB = 225;

const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entry) throw new Error('No entry chunk in the manifest; build with build.manifest on.');
const loginKey = 'src/features/auth/login-page.tsx';
const login = closure(loginKey, closure(entry));

const lazy = Object.entries(manifest)
  .filter(([, c]) => c.isDynamicEntry)
  .map(([key, c]) => ({ key, own: gzipKb(c.file), withDeps: total(closure(key)) }))
  .sort((a, b) => b.own - a.own);
const largest = lazy[0];

console.log(`JS to show /login (entry + sign-in screen): ${total(login).toFixed(1)} KB gzip in ${login.size} chunks`);
if (largest) {
  const extra = total([...closure(largest.key)].filter((k) => !login.has(k)));
  console.log(
    `Largest lazy chunk: ${largest.key} ${largest.own.toFixed(1)} KB gzip ` +
      `(${extra.toFixed(1)} KB gzip loaded on top of /login to open it)`,
  );
}
for (const { key, own } of lazy.slice(1, 6)) console.log(`  next: ${key} ${own.toFixed(1)} KB gzip`);

if (process.argv.includes('--check') && total(login) > LOGIN_BAR_KB) {
  console.error(`/login needs ${total(login).toFixed(1)} KB gzip, over the ${LOGIN_BAR_KB} KB bar`);
  process.exitCode = 1;
}
