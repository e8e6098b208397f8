import { type Language, parseRecipientList } from '@lampyr/contract';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import {
  type alertNotificationList,
  alertNotificationSettings,
  pushSubscriptions,
  users,
} from '../../db/schema/index.ts';
import { asLanguage, type Channel, renderMessage, type ServiceTemplates } from './messages.ts';
import type { NotificationRequest } from './notifier.ts';

/** The recipient of the live-stream rows: every signed-in console of the account. */
export const CONSOLES = 'consoles';
/** A Web Push row's recipient names its subscription: `web-push:<id>` (never the capability URL). */
export const WEB_PUSH_PREFIX = 'web-push:';

type Row = typeof alertNotificationList.$inferInsert;

/** An account's first service of each notification type (the one its messages use). */
export async function servicesByType(db: Db, accountId: number) {
  const rows = await db
    .select()
    .from(alertNotificationSettings)
    .where(eq(alertNotificationSettings.accountId, accountId))
    .orderBy(asc(alertNotificationSettings.id));
  const byType = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!byType.has(row.notificationType)) byType.set(row.notificationType, row);
  return byType;
}

/**
 * The rows one request becomes: one per recipient and channel, each with its message in the
 * recipient's language (a user with that e-mail or phone number), queued now. A malformed recipient
 * is written too, as `dead` with the reason, so an operator sees it.
 */
export async function plannedRows(
  db: Db,
  request: NotificationRequest,
  now: Date,
  /** Whether a user may still read the account's alarms (a browser of a user who left gets nothing). */
  mayReadAlarms: (userId: number, accountId: number) => Promise<boolean>,
): Promise<Row[]> {
  const services = await servicesByType(db, request.accountId);
  const rows: Row[] = [];
  const base = {
    accountId: request.accountId,
    dateTime: now,
    alertLogId: request.alertLogId,
    alertEventId: request.alertEventId,
    dedupeKey: request.dedupeKey,
    level: String(request.level).slice(0, 32),
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
  } satisfies Partial<Row>;
  const add = (channel: Channel, recipient: string, language: Language, problem?: string) => {
    const service = services.get(channel);
    const message = renderMessage(channel, request.vars, language, service as ServiceTemplates | undefined);
    rows.push({
      ...base,
      channel,
      recipient: recipient.slice(0, 255),
      subject: message.subject,
      message: message.body,
      serviceId: service?.id ?? null,
      language,
      ...(problem ? { status: 'dead', lastError: problem, nextAttemptAt: null } : {}),
    });
  };

  const emails = recipients('email', request.channels.email);
  const phones = recipients('sms', request.channels.sms);
  const languages = await recipientLanguages(
    db,
    emails.flatMap((r) => (r.ok ? [r.value] : [])),
    phones.flatMap((r) => (r.ok ? [r.value] : [])),
  );
  for (const r of emails) add('email', r.value, languages.get(r.value.toLowerCase()) ?? 'en', r.problem);
  for (const r of phones) add('sms', r.value, languages.get(r.value) ?? 'en', r.problem);
  if (request.channels.push) {
    add('appPush', CONSOLES, 'en');
    const subscriptions = await db
      .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId, language: users.language })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.id, pushSubscriptions.userId))
      .where(eq(pushSubscriptions.accountId, request.accountId))
      .orderBy(asc(pushSubscriptions.id));
    for (const s of subscriptions) {
      if (await mayReadAlarms(s.userId, request.accountId))
        add('appPush', `${WEB_PUSH_PREFIX}${s.id}`, asLanguage(s.language));
    }
  }
  if (request.channels.audio) add('audioBroadcast', CONSOLES, 'en');
  return rows;
}

type Recipient = { ok: boolean; value: string; problem?: string };

/** Each recipient on its own, so one bad address does not stop the others. */
function recipients(kind: 'email' | 'sms', list: readonly string[] | undefined): Recipient[] {
  const out: Recipient[] = [];
  const seen = new Set<string>();
  for (const raw of list ?? []) {
    const text = String(raw ?? '').trim();
    if (!text) continue;
    const parsed = parseRecipientList(kind, text.replace(/[,;\n\r]/g, ' '));
    const value = parsed.ok && parsed.recipients.length === 1 ? (parsed.recipients[0] as string) : text;
    if (seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    out.push(
      parsed.ok && parsed.recipients.length === 1
        ? { ok: true, value }
        : { ok: false, value, problem: kind === 'email' ? 'Malformed e-mail address' : 'Malformed phone number' },
    );
  }
  return out;
}

/** The language of users known by these e-mail addresses (lowercased key) or phone numbers. */
async function recipientLanguages(db: Db, emails: string[], phones: string[]): Promise<Map<string, Language>> {
  const found = new Map<string, Language>();
  if (emails.length) {
    const rows = await db
      .select({ email: users.email, language: users.language })
      .from(users)
      .where(
        inArray(
          sql`lower(${users.email})`,
          emails.map((e) => e.toLowerCase()),
        ),
      );
    for (const r of rows) if (r.language) found.set(r.email.toLowerCase(), asLanguage(r.language));
  }
  if (phones.length) {
    const normalized = sql`regexp_replace(${users.phoneNumber}, '[^0-9+]', '', 'g')`;
    const rows = await db
      .select({ phone: normalized.mapWith(String), language: users.language })
      .from(users)
      .where(inArray(normalized, phones));
    for (const r of rows) if (r.language) found.set(r.phone, asLanguage(r.language));
  }
  return found;
}
