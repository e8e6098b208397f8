import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

export const MIN_PASSWORD = 8;

export function requiredRule(message: string): FormRule {
  return { required: true, whitespace: true, message };
}

/** SPEC §5: "Please enter your email!" and "Please enter a valid email!". */
export function emailRules(t: TFunction): FormRule[] {
  return [requiredRule(t('auth.messages.email')), { type: 'email', message: t('auth.messages.validEmail') }];
}

export function newPasswordRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('auth.messages.password')),
    { min: MIN_PASSWORD, message: t('auth.messages.passwordLength', { min: MIN_PASSWORD }) },
  ];
}

/** A confirmation field that must repeat the field `of`. */
export function confirmRules(t: TFunction, of: string): FormRule[] {
  return [
    requiredRule(t('auth.messages.confirmPassword')),
    ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        !value || getFieldValue(of) === value
          ? Promise.resolve()
          : Promise.reject(new Error(t('auth.messages.passwordsDiffer'))),
    }),
  ];
}

export function otpRules(t: TFunction): FormRule[] {
  return [requiredRule(t('auth.messages.code')), { pattern: /^\d{6}$/, message: t('auth.messages.codeFormat') }];
}
