import { CONSTANTS, type Language, MESSAGE_PLACEHOLDERS } from '@lampyr/contract';
import { translator } from '../../i18n/translate.ts';
import type { NotificationRequest } from './notifier.ts';

export type Channel = 'email' | 'sms' | 'appPush' | 'audioBroadcast';

/** A service's own templates (notification settings), when it has them. */
export interface ServiceTemplates {
  messageSubject: string | null;
  messageBody: string | null;
}

export interface Message {
  subject: string;
  body: string;
}

const MAX_SUBJECT = 200;

/** `{{name}}` → the value of a known placeholder; anything else stays as written. */
export function fillTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    (MESSAGE_PLACEHOLDERS as readonly string[]).includes(name) ? (vars[name] ?? '') : whole,
  );
}

/** A header line: no CR/LF (no header injection), no other control characters, bounded. */
export function headerSafe(text: string): string {
  const line = [...text.replace(/[\r\n]+/g, ' ')]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim();
  return line.length > MAX_SUBJECT ? `${line.slice(0, MAX_SUBJECT - 1)}…` : line;
}

export const asLanguage = (value: unknown): Language =>
  (CONSTANTS.languages as readonly string[]).includes(String(value)) ? (value as Language) : CONSTANTS.defaultLanguage;

/**
 * The subject and body of one notification: the service's templates when set, else the built-in ones
 * of the recipient's language (common.json `notifications.*`). The level is shown in that language.
 */
export function renderMessage(
  channel: Channel,
  vars: NotificationRequest['vars'],
  language: Language,
  service: ServiceTemplates | undefined,
): Message {
  const t = translator(language);
  const filled = {
    ...vars,
    level: t(`resources:values.${vars.level}`, { defaultValue: vars.level }),
  } as Record<string, string>;
  const kind = channel === 'sms' ? 'sms' : 'mail';
  // The built-in templates are read raw and filled like a service's own: one placeholder syntax.
  const raw = (key: string) => t(key, { skipInterpolation: true }) as string;
  const subject = fillTemplate(
    service?.messageSubject?.trim() ? service.messageSubject : raw('notifications.subject'),
    filled,
  );
  const body = fillTemplate(
    service?.messageBody?.trim() ? service.messageBody : raw(`notifications.${kind}Body`),
    filled,
  );
  return { subject: headerSafe(subject), body };
}
