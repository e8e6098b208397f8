import type { Agent } from 'node:https';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { AccessResolver, allows } from '../../access/access.ts';
import type { SecretBox } from '../../auth/secret-box.ts';
import type { Db } from '../../db/connect.ts';
import { alertNotificationList } from '../../db/schema/index.ts';
import type { LiveEvents } from '../../events/live-events.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { DeliveryError } from './delivery-error.ts';
import {
  deletePushSubscription,
  type PushSubscriptionInput,
  type ResendResult,
  requeue,
  savePushSubscription,
} from './notification-commands.ts';
import { plannedRows } from './notification-queue.ts';
import type { NotificationRequest, Notifier } from './notifier.ts';
import { type NotificationRow, Sender } from './sender.ts';
import type { VapidKeys } from './web-push-channel.ts';

export type { NotificationRow } from './sender.ts';

export interface RetryPolicy {
  /** The first retry's delay; each next one doubles it. */
  baseMs: number;
  /** ± this fraction of the delay, at random, so failed rows do not retry in step. */
  jitter: number;
  /** Attempts in all; a row failing the last one is `dead`. */
  maxAttempts: number;
}

export interface NotificationServiceOptions {
  db: Db;
  live: LiveEvents;
  secretBox: SecretBox;
  /** The application's mailer: mail of accounts without an e-mail service (SMTP_URL, else the outbox). */
  mailer: Mailer;
  /** Where the VAPID keys are kept. */
  dataDir: string;
  /** An https PUBLIC_URL is the VAPID contact; else a mailto: address. */
  publicUrl?: string;
  now?: () => Date;
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  /** How often the delivery loop looks for due rows (it is also woken by every notify). */
  pollMs?: number;
  /** A claimed row is left to its sender this long before another pass may claim it again. */
  leaseMs?: number;
  batchSize?: number;
  /** SMS gateway, push service and SMTP timeouts. */
  timeoutMs?: number;
  /** Configured VAPID keys (VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY); without them a pair is kept in dataDir. */
  vapidKeys?: VapidKeys;
  /** The https agent Web Push uses (a private CA, a proxy). */
  webPushAgent?: Agent;
  onError?: (error: unknown) => void;
  /** Who may act where (the app's, so a security edit applies at once); Web Push goes to readers of alarms only. */
  access?: AccessResolver;
}

const DEFAULT_RETRY: RetryPolicy = { baseMs: 30_000, jitter: 0.2, maxAttempts: 5 };
/** Web Push subscriptions one user may keep in one account. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

/**
 * The notification service (DEVICES.md, Notifications): `notify` writes one notification-list row per
 * recipient and channel, idempotently by dedupe key, and returns; the delivery loop claims due rows
 * (`FOR UPDATE SKIP LOCKED`, so replicas share the work), sends them, and records `sent`, or `failed`
 * with a backoff, or `dead` with the reason. Everything it needs is in the rows, so a restart resumes.
 */
export class NotificationService implements Notifier {
  private readonly db: Db;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly retry: RetryPolicy;
  private readonly sender: Sender;
  private readonly timeoutMs: number;
  private access?: AccessResolver;
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private again = false;
  private started = false;

  constructor(private readonly options: NotificationServiceOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.access = options.access;
    this.sender = new Sender({ ...options, timeoutMs: this.timeoutMs });
  }

  async notify(request: NotificationRequest): Promise<void> {
    if (!request.dedupeKey) throw new Error('A notification needs a dedupe key');
    const rows = await plannedRows(this.db, request, this.now(), (userId, accountId) =>
      this.mayReadAlarms(userId, accountId),
    );
    if (rows.length) await this.db.insert(alertNotificationList).values(rows).onConflictDoNothing();
    this.kick();
  }

  /** Starts the delivery loop. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.kick(), this.options.pollMs ?? 5000);
    this.timer.unref();
    this.kick();
  }

  /** Stops the loop, waits for the pass under way and closes the mail pools. */
  async stop(): Promise<void> {
    this.started = false;
    clearInterval(this.timer);
    this.again = false;
    await this.running?.catch(() => {});
    this.sender.close();
  }

  private async mayReadAlarms(userId: number, accountId: number): Promise<boolean> {
    this.access ??= new AccessResolver(this.db);
    const membership = (await this.access.accountsOf(userId)).get(accountId);
    return Boolean(membership && allows(membership.permissions, 'alert-logs', 'read'));
  }

  /** Wakes the delivery loop: rows were queued by another writer (the report scheduler). */
  wake(): void {
    this.kick();
  }

  private kick(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.deliverDue().catch((error) => this.options.onError?.(error));
  }

  /** One pass over the due rows (until none is left); resolves with how many were handled. */
  deliverDue(): Promise<number> {
    this.running ??= (async () => {
      let handled = 0;
      try {
        for (;;) {
          this.again = false;
          const claimed = await this.claim();
          handled += claimed.length;
          for (let i = 0; i < claimed.length; i += 10) {
            await Promise.all(claimed.slice(i, i + 10).map((row) => this.deliver(row)));
          }
          if (!claimed.length && !this.again) return handled;
        }
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Due rows, leased to this pass: another replica's pass skips them. */
  private async claim(): Promise<NotificationRow[]> {
    const now = this.now();
    const lease = new Date(now.getTime() + (this.options.leaseMs ?? 120_000));
    const t = alertNotificationList;
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: t.id })
        .from(t)
        .where(and(inArray(t.status, ['queued', 'failed']), lte(t.nextAttemptAt, now)))
        .orderBy(asc(t.nextAttemptAt))
        .limit(this.options.batchSize ?? 50)
        .for('update', { skipLocked: true });
      if (!due.length) return [];
      return tx
        .update(t)
        .set({ nextAttemptAt: lease })
        .where(
          inArray(
            t.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  private async deliver(row: NotificationRow): Promise<void> {
    const t = alertNotificationList;
    const attempts = row.attempts + 1;
    try {
      await withDeadline(this.sender.send(row), this.timeoutMs * 6);
      await this.db
        .update(t)
        .set({
          status: 'sent',
          attempts,
          sentAt: this.now(),
          lastError: null,
          nextAttemptAt: null,
          updatedAt: this.now(),
        })
        .where(eq(t.id, row.id));
    } catch (error) {
      const failure =
        error instanceof DeliveryError ? error : new DeliveryError('Unexpected error while sending', false);
      if (!(error instanceof DeliveryError)) this.options.onError?.(error);
      const last = failure.permanent || attempts >= this.retry.maxAttempts;
      await this.db
        .update(t)
        .set({
          status: last ? 'dead' : 'failed',
          attempts,
          lastError:
            !failure.permanent && last ? `${failure.message} (gave up after ${attempts} attempts)` : failure.message,
          nextAttemptAt: last ? null : new Date(this.now().getTime() + this.backoff(attempts)),
          updatedAt: this.now(),
        })
        .where(eq(t.id, row.id));
    }
  }

  /** base × 2^(attempts−1), ± jitter. */
  backoff(attempts: number): number {
    const { baseMs, jitter } = this.retry;
    return Math.round(baseMs * 2 ** (attempts - 1) * (1 - jitter + 2 * jitter * this.random()));
  }

  /** Queues the account's rows again (the resend command) and wakes the loop. */
  async resend(who: { accountId: number; userId: number }, ids: readonly number[]): Promise<ResendResult> {
    const result = await requeue(this.db, who, ids, this.now());
    if (result.updated.length) this.kick();
    return result;
  }

  subscribe(who: { accountId: number; userId: number }, input: PushSubscriptionInput): Promise<boolean> {
    return savePushSubscription(this.db, who, input, MAX_PUSH_SUBSCRIPTIONS);
  }

  unsubscribe(who: { accountId: number; userId: number }, endpoint: string): Promise<number> {
    return deletePushSubscription(this.db, who, endpoint);
  }

  vapidPublicKey(): string {
    return this.sender.vapidKeys().publicKey;
  }
}

/** A send that neither succeeds nor fails in time counts as a transient failure: one stuck send never stalls the loop. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError(`No answer within ${Math.round(ms / 1000)} s`, false)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
