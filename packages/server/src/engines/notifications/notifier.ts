/**
 * What the alarm engines hand the notification service. The alarm engine decides *that* someone is
 * told (an alert event fired or repeated, node loss); the notification service decides *how*:
 * it writes one notification-list row per recipient and channel (status `queued`), delivers it
 * (SMTP, HTTP SMS gateway, live stream and Web Push, audio broadcast), retries transient failures
 * with backoff and jitter, and marks it `dead` with the reason.
 */
export interface NotificationRequest {
  accountId: number;
  /** The alarm (alert-logs row) this is about, when there is one. */
  alertLogId: number | null;
  /** The alert event that fired, when there is one. */
  alertEventId: number | null;
  /** Names the notification for idempotency: the same key twice sends once (e.g. `event:12:log:345:repeat:3`). */
  dedupeKey: string;
  level: 'low' | 'medium' | 'high' | string;
  /** Where it goes; empty lists and false flags send nothing on that channel. */
  channels: {
    email?: string[];
    sms?: string[];
    /** Signed-in consoles of the account (live stream) and Web Push subscriptions. */
    push?: boolean;
    /** A chime or spoken alert in consoles that enabled audio broadcast. */
    audio?: boolean;
  };
  /** The message template's placeholders (DEVICES.md, Notifications). */
  vars: {
    device: string;
    level: string;
    template: string;
    value: string;
    unit: string;
    time: string;
    region: string;
  };
}

export interface Notifier {
  /** Queues the notifications (durably) and returns once they are written; delivery follows. */
  notify(request: NotificationRequest): Promise<void>;
}
