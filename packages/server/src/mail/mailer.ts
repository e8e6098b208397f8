import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Files sent with it (a scheduled report). */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

const FROM = 'Lampyr <no-reply@lampyr.local>';

/**
 * SMTP when configured. Otherwise each message is rendered by nodemailer and written as an .eml
 * file under `<dataDir>/outbox/`, and its subject logged, so a person running the demo (and the
 * tests) can read the codes.
 */
export function createMailer(options: { smtpUrl?: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: FROM, ...mail });
      },
    };
  }
  const outbox = join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: FROM, ...mail });
      mkdirSync(outbox, { recursive: true });
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = join(outbox, `${Date.now()}-${String(sequence++).padStart(4, '0')}-${safeTo}.eml`);
      writeFileSync(file, info.message as Buffer);
      options.log.info({ to: mail.to, file }, `mail written to the outbox: ${mail.subject}`);
    },
  };
}
