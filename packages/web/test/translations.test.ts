import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue } from '@lampyr/contract';
import { describe, expect, it } from 'vitest';

const localesDir = join(import.meta.dirname, '..', '..', 'contract', 'locales');

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

function load(lng: string, file: string): unknown {
  return JSON.parse(readFileSync(join(localesDir, lng, file), 'utf8'));
}

const namespaces = readdirSync(join(localesDir, 'en')).filter((f) => f.endsWith('.json'));

describe('translations', () => {
  it('has the same namespaces in every language', () => {
    for (const lng of ['tr']) expect(readdirSync(join(localesDir, lng)).sort()).toEqual([...namespaces].sort());
    expect(namespaces).toContain('console.json');
  });

  for (const ns of namespaces) {
    it(`${ns}: every key exists in both English and Turkish, none empty`, () => {
      const en = keysOf(load('en', ns)).sort();
      const tr = keysOf(load('tr', ns)).sort();
      expect(
        tr.filter((k) => !en.includes(k)),
        `keys in tr but not en (${ns})`,
      ).toEqual([]);
      expect(
        en.filter((k) => !tr.includes(k)),
        `keys in en but not tr (${ns})`,
      ).toEqual([]);
      for (const lng of ['en', 'tr']) {
        const blank = keysOf(load(lng, ns)).filter((k) => {
          const value = k
            .split('.')
            .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], load(lng, ns));
          return typeof value !== 'string' || value.trim() === '';
        });
        expect(blank, `empty values in ${lng}/${ns}`).toEqual([]);
      }
    });
  }

  it('labels every enum option that is not a code, in both languages', () => {
    const missing: string[] = [];
    for (const lng of ['en', 'tr']) {
      const labels = load(lng, 'resources.json') as Record<string, Record<string, Record<string, string>>>;
      for (const resource of Object.values(catalogue)) {
        for (const [name, def] of Object.entries(resource.fields)) {
          if (def.kind !== 'enum' || def.codes) continue;
          for (const value of def.options ?? []) {
            const label =
              labels[resource.name]?.options?.[name]?.[value as never] ??
              labels.options?.[name]?.[value] ??
              labels.values?.[value];
            if (!label) missing.push(`${lng}: ${resource.name}.${name} = ${value}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('carries SPEC §5 messages in English and Turkish', () => {
    const en = load('en', 'console.json') as { auth: { messages: Record<string, string> } };
    const tr = load('tr', 'console.json') as { auth: { messages: Record<string, string> } };
    expect(en.auth.messages).toMatchObject({
      email: 'Please enter your email!',
      validEmail: 'Please enter a valid email!',
      password: 'Please enter your password!',
      firstName: 'Please enter your first name!',
    });
    expect(tr.auth.messages.email).toBe('Lütfen e-posta adresinizi girin!');
    expect(tr.auth.messages.firstName).toBe('Lütfen adınızı girin!');
  });
});
