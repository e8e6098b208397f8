/**
 * Why a send failed, as stored in the notification list's `lastError`: `permanent` ones (a rejected
 * recipient, a malformed address, a gone subscription) are not retried. The message is written by
 * Lampyr, never a raw library error that could quote a URL with credentials in it.
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const MAX_ERROR = 300;

/**
 * A message with every secret (and its URL-encoded form) blanked out, bounded in length: what a
 * remote server answers may quote what it was sent.
 */
export function redact(message: string, secrets: readonly (string | null | undefined)[]): string {
  let out = message;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')])) {
      out = out.split(form).join('***');
    }
  }
  out = [...out].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c)).join('');
  return out.length > MAX_ERROR ? `${out.slice(0, MAX_ERROR - 1)}…` : out;
}

/** A nodemailer failure: an SMTP 5xx answer is permanent, anything else (4xx, network, timeout) transient. */
export function smtpFailure(error: unknown): DeliveryError {
  const e = error as { responseCode?: number; code?: string; command?: string; response?: string };
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  if (code !== undefined) {
    const answer = (e.response ?? '').split('\n')[0]?.slice(0, 200) ?? '';
    const what = e.command ? `${e.command.split(' ')[0]}: ` : '';
    return new DeliveryError(`SMTP ${what}${answer || code}`, code >= 500);
  }
  if (e.code === 'EENVELOPE') return new DeliveryError('SMTP: the recipient address was refused', true);
  return new DeliveryError(`SMTP connection failed (${e.code ?? 'error'})`, false);
}
