import { type FieldDef, validateField } from '@lampyr/contract';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { fromWidgetValue } from './form-values.ts';

/**
 * The catalogue's own validation as a form rule, so the console and the server give the same
 * verdict with the same SPEC §5 message ("{Field} is required", ...).
 */
export function fieldRules(def: FieldDef, label: string, t: TFunction, mode: 'create' | 'update'): FormRule[] {
  // A password left empty on edit keeps the stored one.
  const required = def.required && !(def.kind === 'secret' && mode === 'update');
  return [
    {
      required,
      validator: async (_rule, raw) => {
        const value = fromWidgetValue(def, raw);
        if (def.kind === 'json' && typeof value === 'string')
          throw new Error(t('resource.invalidJson', { field: label }));
        const error = validateField({ ...def, required }, value);
        if (error) throw new Error(t(`common:${error.key}`, { ...error.vars, field: label }));
      },
    },
  ];
}
