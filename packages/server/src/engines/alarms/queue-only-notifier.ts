import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import type { NotificationRequest, Notifier } from '../notifications/notifier.ts';

/**
 * A stand-in for the notification service until it lands: each recipient of each channel becomes a
 * notification-list row with status `queued` (push: one row for the account's consoles); nothing is
 * delivered. A request whose dedupe key was queued before is not queued again (the key is kept in
 * the row's subject line prefix — the notification service keeps it in a column of its own).
 */
export function queueOnlyNotifier(db: Db): Notifier {
  return {
    async notify(request: NotificationRequest) {
      const { vars } = request;
      const subject = `[${request.dedupeKey}] ${vars.level.toUpperCase()} ${vars.template} – ${vars.device}`;
      const message = `${vars.template} on ${vars.device}${vars.region ? ` (${vars.region})` : ''}: ${vars.value} ${vars.unit} at ${vars.time}`;
      const rows: { channel: string; recipient: string }[] = [
        ...(request.channels.email ?? []).map((recipient) => ({ channel: 'email', recipient })),
        ...(request.channels.sms ?? []).map((recipient) => ({ channel: 'sms', recipient })),
        ...(request.channels.push ? [{ channel: 'appPush', recipient: 'consoles' }] : []),
      ];
      if (!rows.length) return;
      await db.transaction(async (tx) => {
        const [seen] = (
          (await tx.execute(sql`
            SELECT 1 FROM alert_notification_list
            WHERE account_id = ${request.accountId} AND subject LIKE ${`[${request.dedupeKey}]%`} LIMIT 1`)) as unknown as {
            rows: unknown[];
          }
        ).rows;
        if (seen) return;
        for (const row of rows) {
          await tx.execute(sql`
            INSERT INTO alert_notification_list (account_id, date_time, channel, recipient, subject, status, message, alert_log_id)
            VALUES (${request.accountId}, now(), ${row.channel}, ${row.recipient}, ${subject.slice(0, 255)}, 'queued',
              ${message.slice(0, 4000)}, ${request.alertLogId})`);
        }
      });
    },
  };
}
