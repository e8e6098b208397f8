import type { SecretBox } from '../../auth/secret-box.ts';
import { DeliveryError, redact } from './delivery-error.ts';

/** The columns of an SMS gateway service (alert-notification-settings). */
export interface SmsService {
  serviceUri: string;
  smsUserCode: string | null;
  smsPasswordEncrypted: string | null;
  smsMsgHeader: string | null;
}

/** A 2xx answer whose body says this did not send. */
const ERROR_BODY = /\b(err(or)?|fail(ed|ure)?|invalid|denied|rejected)\b|^\s*-\d+/i;

/**
 * Sends a text through a generic HTTP SMS gateway (Kannel, Jasmin, most national providers): the
 * service's URL template with `{{to}} {{text}} {{user}} {{password}} {{from}}` filled in, each
 * value URL-encoded, fetched with GET. Success is a 2xx answer whose body reports no error; a
 * timeout, a connection failure, 429 and 5xx are transient, other answers permanent.
 */
export async function sendSms(
  service: SmsService,
  secretBox: SecretBox,
  to: string,
  text: string,
  timeoutMs: number,
): Promise<void> {
  let password = '';
  if (service.smsPasswordEncrypted) {
    try {
      password = secretBox.open(service.smsPasswordEncrypted);
    } catch {
      throw new DeliveryError('The SMS password does not open with the configured secrets key', true);
    }
  }
  const values: Record<string, string> = {
    to,
    text,
    user: service.smsUserCode ?? '',
    password,
    from: service.smsMsgHeader ?? '',
  };
  const url = service.serviceUri.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? encodeURIComponent(values[name] ?? '') : whole,
  );
  // Never quote the URL in an error: it carries the password.
  const fail = (message: string, permanent: boolean) => new DeliveryError(redact(message, [password]), permanent);
  if (!/^https?:\/\//i.test(url)) throw fail('The SMS gateway address is not http(s)', true);
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw fail(`SMS gateway did not answer within ${Math.round(timeoutMs / 1000)} s`, false);
    const code = (error as { cause?: { code?: string } }).cause?.code;
    throw fail(`SMS gateway unreachable (${code ?? 'connection failed'})`, false);
  }
  let body = '';
  try {
    body = (await response.text()).slice(0, 2000);
  } catch {
    throw fail('SMS gateway answer could not be read', false);
  }
  const said = body.trim().split('\n')[0]?.slice(0, 120) ?? '';
  if (response.status >= 500 || response.status === 429)
    throw fail(`SMS gateway answered ${response.status}${said ? `: ${said}` : ''}`, false);
  if (response.status < 200 || response.status >= 300)
    throw fail(`SMS gateway refused with ${response.status}${said ? `: ${said}` : ''}`, true);
  // Retried: a gateway's own errors (credit, throttling) are often passing ones.
  if (ERROR_BODY.test(body)) throw fail(`SMS gateway reported an error: ${said}`, false);
}
