import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CONSTANTS, type Language } from '@lampyr/contract';
import i18next, { type TFunction } from 'i18next';

const require = createRequire(import.meta.url);
/** The catalogue's translation files, shared with the console. */
export const localesDir = join(dirname(require.resolve('@lampyr/contract/package.json')), 'locales');

const namespaces = ['common', 'resources'] as const;

const resources = Object.fromEntries(
  CONSTANTS.languages.map((lng) => [
    lng,
    Object.fromEntries(
      namespaces.map((ns) => [ns, JSON.parse(readFileSync(join(localesDir, lng, `${ns}.json`), 'utf8'))]),
    ),
  ]),
);

const instance = i18next.createInstance();
await instance.init({
  resources,
  fallbackLng: CONSTANTS.defaultLanguage,
  ns: [...namespaces],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** Picks en or tr from an Accept-Language header; English when neither is asked for. */
export function pickLanguage(header: string | undefined): Language {
  if (!header) return CONSTANTS.defaultLanguage;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase().slice(0, 2);
    if (tag && (CONSTANTS.languages as readonly string[]).includes(tag)) return tag as Language;
  }
  return CONSTANTS.defaultLanguage;
}

/** One fixed translator per language, made once: every request asks for one. */
const fixed = new Map<Language, TFunction>();

export function translator(lng: Language): TFunction {
  let t = fixed.get(lng);
  if (!t) {
    t = instance.getFixedT(lng);
    fixed.set(lng, t);
  }
  return t;
}

/** A field's label: the resource's own wording first, then the shared one. */
export function fieldLabel(t: TFunction, resource: string, field: string): string {
  return t([`resources:${resource}.fields.${field}`, `resources:fields.${field}`], { defaultValue: field });
}

/**
 * An enum option as the screen shows it (the console's labels.ts): the resource's wording for the
 * field, the field's anywhere, then the value's; an option with none (a code) reads as it is.
 */
export function optionLabel(t: TFunction, resource: string, field: string, value: string): string {
  return t(
    [
      `resources:${resource}.options.${field}.${value}`,
      `resources:options.${field}.${value}`,
      `resources:values.${value}`,
    ],
    { defaultValue: value },
  );
}
