import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's layers hold: `api/` is HTTP only and nothing below it reaches back up; no two
 * files import each other, directly or around a loop. Read from the source, so a new import that
 * breaks a rule fails here.
 */
const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const importPattern = /(?:import|export)\s[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** file (relative to src) → the files it imports (relative to src); type-only imports count too. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2];
      if (spec?.startsWith('.')) targets.push(relative(src, resolve(dirname(file), spec)));
    }
    graph.set(relative(src, file), targets);
  }
  return graph;
}

const layer = (file: string) => file.split('/')[0] ?? '';

/** Which layers may not import which. */
const forbidden: Record<string, string[]> = {
  api: ['ingest', 'seed', 'engines'],
  ingest: ['api'],
  seed: ['api'],
  engines: ['api'],
  data: ['api', 'ingest', 'seed', 'engines'],
  access: ['api', 'ingest', 'seed', 'engines'],
  events: ['api', 'ingest', 'seed', 'engines'],
  db: ['api', 'ingest', 'seed', 'engines', 'data', 'access', 'events'],
  auth: ['api', 'ingest', 'seed', 'engines'],
};

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('import rules', () => {
  const graph = importGraph();

  it('reads the real source (the rules are not vacuous)', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect([...graph.keys()].some((f) => f.startsWith('api/'))).toBe(true);
    expect([...graph.values()].flat().length).toBeGreaterThan(100);
  });

  it('no layer imports one it must not', () => {
    const broken: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        if (forbidden[layer(file)]?.includes(layer(target))) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no import cycle between files', () => {
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('the cycle finder finds a cycle when there is one', () => {
    const loop = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(loop)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});
