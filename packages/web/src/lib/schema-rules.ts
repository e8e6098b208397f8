import type { FormRule } from 'antd';

/** A field's schema of the contract (zod or zod/mini): all a rule needs of it. */
export interface FieldSchema {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: readonly { code: string; minimum?: unknown; maximum?: unknown }[] } };
}

/** What to say for each thing the schema finds wrong. */
export interface RuleMessages {
  required: string;
  /** A value of the wrong form (an e-mail, a six-digit code). */
  format?: string;
  tooShort?: (minimum: number) => string;
  tooLong?: (maximum: number) => string;
}

/**
 * A form field's rule from its wire schema, so the form and the server give the same verdict: an
 * empty value is refused when the schema refuses an empty value, and any other refusal is told by
 * the kind of issue the schema reports. The schema may still be on its way (a lazily loaded
 * module): the check waits for it. `trim` checks the value as the form will send it.
 */
export function schemaRule(
  field: FieldSchema | Promise<FieldSchema>,
  messages: RuleMessages,
  options: { trim?: boolean } = {},
): FormRule {
  return {
    validator: async (_rule, raw: unknown) => {
      const schema = await field;
      const value = typeof raw === 'string' && (options.trim || raw.trim() === '') ? raw.trim() : raw;
      if (value === undefined || value === null || value === '') {
        if (!schema.safeParse('').success) throw new Error(messages.required);
        return;
      }
      const result = schema.safeParse(value);
      if (result.success) return;
      const issue = result.error.issues[0];
      if (issue?.code === 'too_small' && messages.tooShort) throw new Error(messages.tooShort(Number(issue.minimum)));
      if (issue?.code === 'too_big' && messages.tooLong) throw new Error(messages.tooLong(Number(issue.maximum)));
      throw new Error(messages.format ?? messages.required);
    },
  };
}
