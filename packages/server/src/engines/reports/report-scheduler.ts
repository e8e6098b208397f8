import { type Language, parseRecipientList, type ReportFormat, type ReportKind } from '@lampyr/contract';
import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import { accountTimeZones } from '../../data/time-zones.ts';
import type { Db } from '../../db/connect.ts';
import { alertNotificationList, reportFiles, reportTemplates } from '../../db/schema/index.ts';
import { translator } from '../../i18n/translate.ts';
import { reportDocument } from '../../reports/report-document.ts';
import { exportReport } from '../../reports/report-export.ts';
import { chooseColumns, runWholeReport } from '../../reports/report-runner.ts';
import { duePeriod, FURTHEST_AHEAD_ZONE } from '../../reports/report-templates.ts';
import { servicesByType } from '../notifications/notification-queue.ts';
import type { Leadership } from '../scheduler/leadership.ts';

export interface ReportSchedulerOptions {
  now(): Date;
  /** How often the leader looks for due templates (ms). */
  everyMs?: number;
  /** Wakes the notification service's delivery loop after mail was queued. */
  wake?(): void;
  onError?(error: unknown): void;
}

/**
 * Scheduled report templates (weekly, monthly): on the engines' leader only, each template whose
 * due period was not sent yet is computed, rendered in its format and language, and queued as
 * e-mail with the file attached through the notification service's list (its SMTP service, its
 * retries, the outbox when the account has none). The claim is `last_period` moved forward in the
 * same transaction as the queued rows: a period is sent once, even across a restart or a failover.
 */
export class ReportScheduler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly db: Db,
    private readonly leadership: Leadership,
    private readonly options: ReportSchedulerOptions,
  ) {}

  start(): () => void {
    const run = () => {
      this.tick().catch((error) => this.options.onError?.(error));
    };
    run();
    this.timer = setInterval(run, this.options.everyMs ?? 60_000);
    this.timer.unref();
    return () => clearInterval(this.timer);
  }

  /** One pass: resolves with how many templates this process sent. */
  tick(): Promise<number> {
    this.running ??= this.runDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runDue(): Promise<number> {
    if (!(await this.leadership.isLeader())) return 0;
    const now = this.options.now();
    let sent = 0;
    for (const schedule of ['weekly', 'monthly'] as const) {
      // Each account's week (month) turns at its own midnight: the calendar furthest ahead bounds
      // what may be due anywhere, and each template's account says what is due for it.
      const latest = duePeriod(schedule, now, FURTHEST_AHEAD_ZONE);
      const candidates = await this.db
        .select()
        .from(reportTemplates)
        .where(
          and(
            eq(reportTemplates.schedule, schedule),
            or(isNull(reportTemplates.lastPeriod), lt(reportTemplates.lastPeriod, latest.key)),
          ),
        )
        .orderBy(reportTemplates.id)
        .limit(500);
      const zones = await accountTimeZones(this.db, [...new Set(candidates.map((c) => c.accountId))]);
      for (const template of candidates) {
        const period = duePeriod(schedule, now, zones.get(template.accountId));
        if (template.lastPeriod !== null && template.lastPeriod >= period.key) continue;
        try {
          if (await this.send(template, period, now)) sent++;
        } catch (error) {
          // One template's failure (a filter that no longer parses) does not hold the others; it is
          // tried again on the next pass.
          this.options.onError?.(error);
        }
      }
    }
    if (sent) this.options.wake?.();
    await pruneReportFiles(this.db, now);
    return sent;
  }

  private async send(
    template: typeof reportTemplates.$inferSelect,
    period: { key: string; from: string; to: string },
    now: Date,
  ): Promise<boolean> {
    const kind = template.kind as ReportKind;
    const language = (template.language === 'tr' ? 'tr' : 'en') as Language;
    const t = translator(language);
    const request = { ...(template.filters as Record<string, unknown>), from: period.from, to: period.to };
    const result = await runWholeReport(this.db, kind, template.accountId, request, now);
    const document = reportDocument(result, chooseColumns(kind, template.columns as string[] | null), t, language, now);
    const format = template.format as ReportFormat;
    const file = await exportReport(document, format);
    const recipients = parseRecipientList('email', template.recipients);
    const to = recipients.ok ? recipients.recipients : [];
    const service = (await servicesByType(this.db, template.accountId)).get('email');
    const subject = t('reports.mail.subject', { name: template.name, period: period.key });
    const body = t('reports.mail.body', {
      name: template.name,
      from: period.from,
      to: period.to,
      format: format.toUpperCase(),
    });
    return this.db.transaction(async (tx) => {
      const claimed = await tx
        .update(reportTemplates)
        .set({ lastPeriod: period.key, lastRunAt: now })
        .where(
          and(
            eq(reportTemplates.id, template.id),
            eq(reportTemplates.schedule, template.schedule),
            or(isNull(reportTemplates.lastPeriod), lt(reportTemplates.lastPeriod, period.key)),
          ),
        )
        .returning({ id: reportTemplates.id });
      if (!claimed.length) return false;
      if (!to.length) return true;
      const [stored] = await tx
        .insert(reportFiles)
        .values({
          accountId: template.accountId,
          templateId: template.id,
          period: period.key,
          filename: file.filename,
          contentType: file.contentType,
          content: file.content.toString('base64'),
        })
        .returning({ id: reportFiles.id });
      await tx
        .insert(alertNotificationList)
        .values(
          to.map((recipient) => ({
            accountId: template.accountId,
            dateTime: now,
            channel: 'email',
            recipient,
            subject,
            message: body,
            status: 'queued',
            attempts: 0,
            nextAttemptAt: now,
            dedupeKey: `report:${template.id}:${period.key}`,
            level: 'report',
            serviceId: service?.id ?? null,
            language,
            attachmentId: stored?.id ?? null,
          })),
        )
        .onConflictDoNothing();
      return true;
    });
  }
}

/** Files older than this whose mail was sent long ago are removed by `pruneReportFiles`. */
export const REPORT_FILE_DAYS = 90;

/** Removes report files past REPORT_FILE_DAYS (their notification rows keep their subject and status). */
export async function pruneReportFiles(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - REPORT_FILE_DAYS * 86_400_000);
  const old = await db
    .select({ id: reportFiles.id })
    .from(reportFiles)
    .where(lt(reportFiles.createdAt, cutoff))
    .limit(1000);
  if (!old.length) return 0;
  await db.delete(reportFiles).where(
    inArray(
      reportFiles.id,
      old.map((r) => r.id),
    ),
  );
  return old.length;
}
