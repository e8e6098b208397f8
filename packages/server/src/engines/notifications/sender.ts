import type { Agent } from 'node:https';
import { and, eq } from 'drizzle-orm';
import type { SecretBox } from '../../auth/secret-box.ts';
import type { Db } from '../../db/connect.ts';
import {
  type alertNotificationList,
  alertNotificationSettings,
  pushSubscriptions,
  reportFiles,
} from '../../db/schema/index.ts';
import type { LiveEvents } from '../../events/live-events.ts';
import type { MailAttachment, Mailer } from '../../mail/mailer.ts';
import { DeliveryError } from './delivery-error.ts';
import { EmailChannel } from './email-channel.ts';
import { CONSOLES, servicesByType, WEB_PUSH_PREFIX } from './notification-queue.ts';
import { sendSms } from './sms-channel.ts';
import { GoneSubscription, loadVapidKeys, sendWebPush, type VapidKeys } from './web-push-channel.ts';

export type NotificationRow = typeof alertNotificationList.$inferSelect;

export interface SenderOptions {
  db: Db;
  live: LiveEvents;
  secretBox: SecretBox;
  mailer: Mailer;
  dataDir: string;
  publicUrl?: string;
  timeoutMs: number;
  vapidKeys?: VapidKeys;
  webPushAgent?: Agent;
}

/**
 * Sends one notification-list row on its channel: the live stream for the consoles (and the audio
 * broadcast), Web Push to one subscribed browser, SMTP e-mail, the HTTP SMS gateway. Throws a
 * DeliveryError saying whether trying again may help.
 */
export class Sender {
  private readonly email: EmailChannel;
  private vapid?: VapidKeys;

  constructor(private readonly options: SenderOptions) {
    this.email = new EmailChannel(options.secretBox, options.mailer, options.timeoutMs * 2);
  }

  async send(row: NotificationRow): Promise<void> {
    const channel = row.channel ?? '';
    const recipient = row.recipient ?? '';
    const message = { subject: row.subject ?? '', body: row.message ?? '' };
    if ((channel === 'appPush' || channel === 'audioBroadcast') && recipient === CONSOLES) {
      this.options.live.publish(row.accountId, [
        {
          type: 'notification',
          id: row.id,
          level: row.level ?? '',
          title: message.subject,
          body: message.body,
          sound: row.level === 'high',
          audio: channel === 'audioBroadcast',
        },
      ]);
      return;
    }
    if (channel === 'appPush' && recipient.startsWith(WEB_PUSH_PREFIX)) return this.sendWebPush(row);
    const service = await this.service(row, channel);
    if (channel === 'email') return this.email.send(service, recipient, message, await this.attachments(row));
    if (channel === 'sms') {
      if (!service) throw new DeliveryError('No SMS gateway is configured for the account', true);
      return sendSms(service, this.options.secretBox, recipient, message.body, this.options.timeoutMs);
    }
    throw new DeliveryError(`Unknown channel ${channel}`, true);
  }

  /** The row's service as it is now (a changed password applies), else the account's first of the type. */
  private async service(row: NotificationRow, channel: string) {
    const s = alertNotificationSettings;
    if (row.serviceId) {
      const [service] = await this.options.db
        .select()
        .from(s)
        .where(and(eq(s.id, row.serviceId), eq(s.accountId, row.accountId)))
        .limit(1);
      if (service?.notificationType === channel) return service;
    }
    return (await servicesByType(this.options.db, row.accountId)).get(channel);
  }

  /** The file a row names (a scheduled report), from the row's own account only. */
  private async attachments(row: NotificationRow): Promise<MailAttachment[]> {
    if (!row.attachmentId) return [];
    const [file] = await this.options.db
      .select()
      .from(reportFiles)
      .where(and(eq(reportFiles.id, row.attachmentId), eq(reportFiles.accountId, row.accountId)))
      .limit(1);
    if (!file) throw new DeliveryError('The report file of this mail was removed', true);
    return [{ filename: file.filename, contentType: file.contentType, content: Buffer.from(file.content, 'base64') }];
  }

  private async sendWebPush(row: NotificationRow): Promise<void> {
    const { db } = this.options;
    const id = Number((row.recipient ?? '').slice(WEB_PUSH_PREFIX.length));
    const [target] = await db
      .select()
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.accountId, row.accountId)))
      .limit(1);
    if (!target) throw new DeliveryError('The browser subscription was removed', true);
    const payload = JSON.stringify({ id: row.id, level: row.level, title: row.subject, body: row.message });
    const publicUrl = this.options.publicUrl;
    try {
      await sendWebPush(target, payload, {
        keys: this.vapidKeys(),
        subject: publicUrl?.startsWith('https://') ? publicUrl : 'mailto:no-reply@lampyr.local',
        timeoutMs: this.options.timeoutMs,
        agent: this.options.webPushAgent,
      });
    } catch (error) {
      if (error instanceof GoneSubscription) await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
      throw error;
    }
  }

  vapidKeys(): VapidKeys {
    this.vapid ??= this.options.vapidKeys ?? loadVapidKeys(this.options.dataDir);
    return this.vapid;
  }

  close(): void {
    this.email.close();
  }
}
