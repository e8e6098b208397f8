import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { type FieldSchema, schemaRule } from '../../lib/schema-rules.ts';

/**
 * The auth forms' rules: each field's verdict comes from its schema in the contract (the one the
 * server parses the body with), the words from SPEC §5 ("Please enter your email!", ...).
 */

type AuthSchemas = typeof import('@lampyr/contract/auth');
/** Picks a field's schema out of the contract's auth module. */
export type PickField = (schemas: AuthSchemas) => FieldSchema;

// The schemas (and zod) load beside the screen, not in the sign-in bundle; the first form that
// asks starts the load, so they are there before anyone has finished typing.
let loading: Promise<AuthSchemas> | undefined;
const schema = (pick: PickField) => {
  loading ??= import('@lampyr/contract/auth');
  return loading.then(pick);
};

const tooLong = (t: TFunction) => (max: number) => t('auth.messages.tooLong', { max });

export function emailRules(t: TFunction, pick: PickField): FormRule[] {
  const messages = { required: t('auth.messages.email'), format: t('auth.messages.validEmail'), tooLong: tooLong(t) };
  return [schemaRule(schema(pick), messages, { trim: true })];
}

/** A password presented (sign-in, the current one) or chosen (its length rule comes with the schema). */
export function passwordRules(t: TFunction, pick: PickField, required = 'auth.messages.password'): FormRule[] {
  return [
    schemaRule(schema(pick), {
      required: t(required),
      tooShort: (min) => t('auth.messages.passwordLength', { min }),
      tooLong: tooLong(t),
    }),
  ];
}

/** A text field; `key` names its SPEC §5 "Please enter ..." message. */
export function textRules(t: TFunction, pick: PickField, key: string): FormRule[] {
  return [
    schemaRule(schema(pick), {
      required: t(`auth.messages.${key}`),
      tooLong: key === 'phoneNumber' ? () => t('auth.messages.phoneLength') : tooLong(t),
    }),
  ];
}

export function otpRules(t: TFunction, pick: PickField): FormRule[] {
  return [schemaRule(schema(pick), { required: t('auth.messages.code'), format: t('auth.messages.codeFormat') })];
}

/** A confirmation field that must repeat the field `of`. */
export function confirmRules(t: TFunction, of: string): FormRule[] {
  return [
    { required: true, whitespace: true, message: t('auth.messages.confirmPassword') },
    ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        !value || getFieldValue(of) === value
          ? Promise.resolve()
          : Promise.reject(new Error(t('auth.messages.passwordsDiffer'))),
    }),
  ];
}
