import { smtpEndpoint } from '@lampyr/contract';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { SecretBox } from '../../auth/secret-box.ts';
import type { MailAttachment, Mailer } from '../../mail/mailer.ts';
import { DeliveryError, redact, smtpFailure } from './delivery-error.ts';
import type { Message } from './messages.ts';

/** The columns of an e-mail service (alert-notification-settings) the transport is made from. */
export interface MailService {
  id: number;
  updatedAt: Date;
  serviceUri: string;
  mailHost: string | null;
  portNumber: number | null;
  encryption: string | null;
  userName: string | null;
  mailPasswordEncrypted: string | null;
  notificationAddress: string | null;
}

const FALLBACK_FROM = 'Lampyr <no-reply@lampyr.local>';

/**
 * Sends alarm mail: through a service's own SMTP server, over one pooled transport per service
 * (rebuilt when the service row changes), or, when the account has no e-mail service, through the
 * application's mailer (SMTP_URL, else the development outbox, like the sign-up codes).
 */
export class EmailChannel {
  private readonly transports = new Map<number, { stamp: number; transport: Transporter; password?: string }>();

  constructor(
    private readonly secretBox: SecretBox,
    private readonly fallback: Mailer,
    private readonly timeoutMs: number,
  ) {}

  async send(
    service: MailService | undefined,
    to: string,
    message: Message,
    attachments: MailAttachment[] = [],
  ): Promise<void> {
    if (!service) {
      try {
        await this.fallback.send({ to, subject: message.subject, text: message.body, attachments });
      } catch (error) {
        throw smtpFailure(error);
      }
      return;
    }
    const { transport, password } = this.transport(service);
    try {
      await transport.sendMail({
        from: fromAddress(service),
        to,
        subject: message.subject,
        text: message.body,
        attachments,
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    } catch (error) {
      const failure = smtpFailure(error);
      throw new DeliveryError(redact(failure.message, [password]), failure.permanent);
    }
  }

  private open(sealed: string): string {
    try {
      return this.secretBox.open(sealed);
    } catch {
      throw new DeliveryError('The mail password does not open with the configured secrets key', true);
    }
  }

  /** The service's pooled transport; the password is opened only when one is (re)built, and never logged. */
  private transport(service: MailService): { transport: Transporter; password?: string } {
    const stamp = service.updatedAt.getTime();
    const known = this.transports.get(service.id);
    if (known?.stamp === stamp) return known;
    known?.transport.close();
    this.transports.delete(service.id);
    const password = service.mailPasswordEncrypted ? this.open(service.mailPasswordEncrypted) : undefined;
    const endpoint = smtpEndpoint(service as unknown as Record<string, unknown>);
    if (!endpoint) throw new DeliveryError('The mail service names no SMTP server (host and port)', true);
    const options: SMTPPool.Options & { maxRequeues: number } = {
      pool: true,
      maxConnections: 3,
      // A dropped connection fails the send; the delivery loop's backoff decides when to try again.
      maxRequeues: 0,
      host: endpoint.host,
      port: endpoint.port,
      secure: endpoint.secure,
      requireTLS: endpoint.requireTls,
      ignoreTLS: service.encryption === 'none',
      auth: service.userName ? { user: service.userName, pass: password ?? '' } : undefined,
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs * 2,
    };
    const transport = nodemailer.createTransport(options);
    const built = { stamp, transport, password };
    this.transports.set(service.id, built);
    return built;
  }

  close(): void {
    for (const { transport } of this.transports.values()) transport.close();
    this.transports.clear();
  }
}

/** The service's notification address as sender when it is a plain address, else Lampyr's. */
function fromAddress(service: MailService): string {
  const address = service.notificationAddress?.trim();
  return address && /^[^\s@<>,;:"]+@[^\s@<>,;:"]+$/.test(address) ? address : FALLBACK_FROM;
}
