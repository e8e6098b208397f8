import type { FieldError } from './validation.ts';

/** At most this many recipients in one alert event's list. */
export const MAX_RECIPIENTS = 50;

/** The placeholders of a notification's subject and body (DEVICES.md, Notifications). */
export const MESSAGE_PLACEHOLDERS = ['device', 'level', 'template', 'value', 'unit', 'time', 'region'] as const;
/** The placeholders of an SMS gateway's URL template; `to` and `text` are required. */
export const SMS_PLACEHOLDERS = ['to', 'text', 'user', 'password', 'from'] as const;

const EMAIL =
  /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/**
 * A phone number as SMS gateways take it (separators dropped): international (`+` and 7 to 15 digits
 * not starting with 0) or national (a 0, then 6 to 14 digits not starting with 0: `0555…`).
 */
const PHONE = /^(?:\+?[1-9]\d{6,14}|0[1-9]\d{5,13})$/;

export type RecipientList = { ok: true; recipients: string[] } | { ok: false; error: FieldError };

/**
 * An alert event's `emailList` / `smsList`: recipients separated by commas, semicolons or new lines.
 * E-mail addresses are kept as written (lowercase domain); phone numbers lose their spaces, dashes,
 * dots and brackets. Duplicates are dropped. The first bad item is named in the error.
 */
/** An operator's list of recipients as its items: separated by commas, semicolons or new lines. */
export function splitRecipientList(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [
    ...new Set(
      text
        .split(/[,;\n\r]+/)
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

export function parseRecipientList(kind: 'email' | 'sms', text: string | null | undefined): RecipientList {
  const items = splitRecipientList(text);
  const recipients: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    let value: string;
    if (kind === 'email') {
      if (item.length > 254 || !EMAIL.test(item))
        return { ok: false, error: { key: 'validation.recipientEmail', vars: { item: shown(item) } } };
      const at = item.lastIndexOf('@');
      value = `${item.slice(0, at)}@${item.slice(at + 1).toLowerCase()}`;
    } else {
      value = item.replace(/[\s().-]/g, '');
      if (!PHONE.test(value))
        return { ok: false, error: { key: 'validation.recipientPhone', vars: { item: shown(item) } } };
    }
    const key = value.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    recipients.push(value);
  }
  if (recipients.length > MAX_RECIPIENTS)
    return { ok: false, error: { key: 'validation.recipientCount', vars: { max: MAX_RECIPIENTS } } };
  return { ok: true, recipients };
}

/** An item as quoted back in a message: short, and without control characters. */
const shown = (item: string) => {
  const clean = [...item].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f).join('');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
};

/** The alert event rule: its recipient lists parse. */
export function recipientListsRule(record: Record<string, unknown>): Record<string, FieldError> | undefined {
  const errors: Record<string, FieldError> = {};
  for (const [field, kind] of [
    ['emailList', 'email'],
    ['smsList', 'sms'],
  ] as const) {
    const text = record[field];
    if (typeof text !== 'string' || !text.trim()) continue;
    const parsed = parseRecipientList(kind, text);
    if (!parsed.ok) errors[field] = parsed.error;
  }
  return Object.keys(errors).length ? errors : undefined;
}

export interface SmtpEndpoint {
  host: string;
  port: number;
  /** TLS from the first byte (smtps, `ssl`); otherwise STARTTLS when `requireTls`. */
  secure: boolean;
  requireTls: boolean;
}

/**
 * Where a mail service's SMTP server is: `mailHost`/`portNumber` when set, else the host and port of an
 * `smtp://`/`smtps://` service address, the port defaulting to 465 (smtps, `ssl`) or 587. An http(s)
 * address names no SMTP server, so it needs both fields. `undefined` when no host (or port) is known.
 */
export function smtpEndpoint(record: Record<string, unknown>): SmtpEndpoint | undefined {
  const uri = typeof record.serviceUri === 'string' ? record.serviceUri.trim() : '';
  let uriHost = '';
  let uriPort: number | undefined;
  let smtps = false;
  if (/^smtps?:\/\//i.test(uri)) {
    try {
      const url = new URL(uri);
      uriHost = url.hostname;
      uriPort = url.port ? Number(url.port) : undefined;
      smtps = url.protocol === 'smtps:';
    } catch {
      return undefined;
    }
  }
  const mailHost = typeof record.mailHost === 'string' ? record.mailHost.trim() : '';
  const host = mailHost || uriHost;
  const secure = smtps || record.encryption === 'ssl';
  const portNumber = typeof record.portNumber === 'number' ? record.portNumber : undefined;
  const port = portNumber ?? uriPort ?? (uriHost ? (secure ? 465 : 587) : undefined);
  if (!host || !port || port < 1 || port > 65535) return undefined;
  return { host, port, secure, requireTls: record.encryption === 'tls' };
}

/**
 * What a notification service's address may be, checked on save: an SMS gateway is an http(s) URL
 * template holding `{{to}}` and `{{text}}` in its path or query (never in its host); a mail service an
 * `smtp://`/`smtps://` address (or an http(s) one with mail host and port) that names its SMTP server;
 * no address carries credentials (they have their own, sealed fields) and no other scheme
 * (`javascript:`, `file:`...) is ever stored.
 */
export function notificationServiceRule(record: Record<string, unknown>): Record<string, FieldError> | undefined {
  const uri = typeof record.serviceUri === 'string' ? record.serviceUri.trim() : '';
  if (!uri) return undefined;
  const email = record.notificationType === 'email';
  const schemes = email ? ['http', 'https', 'smtp', 'smtps'] : ['http', 'https'];
  const origin = /^([a-z][a-z0-9+.-]*):\/\/([^\s/?#]+)/i.exec(uri);
  const scheme = origin?.[1]?.toLowerCase();
  if (!origin || !scheme || !schemes.includes(scheme))
    return { serviceUri: { key: email ? 'validation.mailUri' : 'validation.url' } };
  if (origin[2]?.includes('@')) return { serviceUri: { key: 'validation.uriCredentials' } };
  if (record.notificationType === 'sms') {
    if (origin[2]?.includes('{')) return { serviceUri: { key: 'validation.smsTemplateHost' } };
    if (!uri.includes('{{to}}') || !uri.includes('{{text}}'))
      return { serviceUri: { key: 'validation.smsTemplatePlaceholders', vars: { to: '{{to}}', text: '{{text}}' } } };
    const unknown = [...uri.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)]
      .map((m) => m[1] ?? '')
      .find((name) => !(SMS_PLACEHOLDERS as readonly string[]).includes(name));
    if (unknown !== undefined)
      return {
        serviceUri: {
          key: 'validation.smsTemplateUnknown',
          vars: { name: `{{${shown(unknown)}}}`, allowed: SMS_PLACEHOLDERS.map((p) => `{{${p}}}`).join(' ') },
        },
      };
    try {
      new URL(uri.replace(/\{\{\s*\w+\s*\}\}/g, 'x'));
    } catch {
      return { serviceUri: { key: 'validation.url' } };
    }
  }
  if (email && !smtpEndpoint(record)) {
    if (/^smtps?:/i.test(scheme)) return { serviceUri: { key: 'validation.mailUri' } };
    const errors: Record<string, FieldError> = {};
    if (!(typeof record.mailHost === 'string' && record.mailHost.trim()))
      errors.mailHost = { key: 'validation.mailServer' };
    if (typeof record.portNumber !== 'number') errors.portNumber = { key: 'validation.mailServer' };
    return errors;
  }
  return undefined;
}
