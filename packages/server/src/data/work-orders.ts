import {
  FAULT_PHOTO_MAX_BYTES,
  FAULT_PHOTO_TYPES,
  getResource,
  REOPEN_WITHIN_DAYS,
  type ReportFaultResult,
  TRANSITION_RULES,
  type WorkOrderAction,
  type WorkOrderStatus,
  type WorkOrderTransition,
} from '@lampyr/contract';
import { sql } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import { type Actor, allows } from '../access/access.ts';
import type { Db } from '../db/connect.ts';
import { faultPhotos, maintenanceHistory, transactionLogs } from '../db/schema/index.ts';
import { ApiException } from '../errors/api-exception.ts';
import { fieldLabel } from '../i18n/translate.ts';
import type { Executor } from './resource-repository.ts';

const rowsOf = <T = Record<string, unknown>>(result: unknown) => (result as { rows: T[] }).rows;
const DAY_MS = 86_400_000;
const RESOURCE = 'report-a-fault';
const faultTypes = () => getResource(RESOURCE).fields.faultType?.options ?? [];

interface WorkOrderRow {
  id: number;
  accountId: number;
  deviceId: number;
  faultType: string;
  status: WorkOrderStatus;
  assigneeId: number | null;
  plannedDate: string | null;
  description: string | null;
}

const WORK_ORDER_COLUMNS = sql`id::int AS id, account_id::int AS "accountId", device_id::int AS "deviceId",
  fault_type AS "faultType", status, assignee_id::int AS "assigneeId", planned_date::text AS "plannedDate", description`;

/** The caller's name as history shows it. */
async function nameOf(db: Executor, userId: number): Promise<string> {
  const [user] = rowsOf<{ name: string }>(
    await db.execute(
      sql`SELECT coalesce(nullif(trim(first_name || ' ' || last_name), ''), email) AS name FROM users WHERE id = ${userId}`,
    ),
  );
  return user?.name ?? `#${userId}`;
}

async function writeHistory(
  tx: Executor,
  order: Pick<WorkOrderRow, 'id' | 'accountId' | 'deviceId'>,
  action: WorkOrderAction,
  work: string,
  performedBy: string,
  now: Date,
  partsUsed?: string | null,
): Promise<void> {
  await tx.insert(maintenanceHistory).values({
    accountId: order.accountId,
    deviceId: order.deviceId,
    faultReportId: order.id,
    action,
    work: work || '—',
    partsUsed: partsUsed ?? null,
    performedBy,
    performedAt: now,
  });
}

/**
 * The people who may act in an account (access.ts): its members, and the members of its active
 * integrator when it is an active sub-account. Only they can be given its work orders.
 */
const mayActIn = (accountId: number) => sql`EXISTS (SELECT 1 FROM users_roles m WHERE m.user_id = u.id AND (
  m.account_id = ${accountId} OR m.account_id IN (SELECT p.id FROM accounts c JOIN accounts p ON p.id = c.account_id
    WHERE c.id = ${accountId} AND c.is_active AND p.is_active AND p.is_integrator)))`;

/** Who a work order of the account can be assigned to, by name. */
export async function assignees(db: Db, accountId: number): Promise<{ id: number; name: string; email: string }[]> {
  return rowsOf(
    await db.execute(sql`SELECT u.id::int AS id, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) AS name,
      u.email FROM users u WHERE ${mayActIn(accountId)} ORDER BY 2, 1 LIMIT 1000`),
  );
}

export type TransitionInput =
  | { transition: 'assign'; id: number; assigneeId: number; crew?: string; note?: string }
  | { transition: 'plan'; id: number; plannedDate: string; work?: string }
  | { transition: 'start'; id: number; note?: string }
  | { transition: 'resolve'; id: number; resolution: string; partsUsed?: string }
  | { transition: 'close'; id: number; note?: string }
  | { transition: 'reopen'; id: number; reason: string };

/** Who may take a transition: supervisors (update on fault reports); the assignee also starts and resolves their own. */
function mayTake(actor: Actor, transition: WorkOrderTransition, order: WorkOrderRow): boolean {
  const permissions = actor.account?.permissions ?? {};
  if (allows(permissions, RESOURCE, 'update')) return true;
  const crewStep = transition === 'start' || transition === 'resolve';
  return crewStep && order.assigneeId === actor.userId && allows(permissions, RESOURCE, 'read');
}

/**
 * Takes one transition of the state machine (contract work-orders.ts) on a work order of the
 * caller's account, in one transaction: the work order, its planning row, a history row and the
 * transaction log change together or not at all. Another account's work order is not found.
 */
export async function takeTransition(
  db: Db,
  actor: Actor,
  input: TransitionInput,
  t: TFunction,
  now: Date,
): Promise<number> {
  const accountId = actor.account?.accountId;
  if (accountId === undefined) throw new ApiException('ACCOUNT_REQUIRED');
  const performedBy = await nameOf(db, actor.userId);
  return db.transaction(async (tx) => {
    const [order] = rowsOf<WorkOrderRow>(
      await tx.execute(sql`SELECT ${WORK_ORDER_COLUMNS} FROM fault_reports
        WHERE id = ${input.id} AND account_id = ${accountId} FOR UPDATE`),
    );
    if (!order) throw new ApiException('NOT_FOUND', 'errors.workOrderNotFound', { id: input.id });
    if (!mayTake(actor, input.transition, order))
      throw new ApiException('FORBIDDEN', 'errors.workOrderForbidden', {
        action: t(`resources:values.${input.transition}`),
      });
    const rule = TRANSITION_RULES[input.transition];
    if (!(rule.from as readonly string[]).includes(order.status)) {
      throw new ApiException('CONFLICT', 'errors.workOrderTransition', {
        id: order.id,
        status: t(`resources:values.${order.status}`),
        action: t(`resources:values.${input.transition}`),
        allowed: rule.from.map((s) => t(`resources:values.${s}`)).join(', '),
      });
    }
    const to = rule.to(order.status);
    let work = '';
    let parts: string | null = null;
    switch (input.transition) {
      case 'assign': {
        const [member] = rowsOf<{ name: string }>(
          await tx.execute(sql`SELECT coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) AS name
            FROM users u WHERE u.id = ${input.assigneeId} AND ${mayActIn(accountId)}`),
        );
        if (!member) {
          const message = t('validation.notFound', { field: fieldLabel(t, RESOURCE, 'assigneeId') });
          throw new ApiException('VALIDATION', undefined, {}, { assigneeId: message });
        }
        await tx.execute(sql`UPDATE fault_reports SET status = ${to}, assignee_id = ${input.assigneeId},
          crew = ${input.crew || null}, updated_at = now() WHERE id = ${order.id}`);
        await tx.execute(sql`UPDATE maintenance_planning SET assignee = ${member.name}, updated_at = now()
          WHERE fault_report_id = ${order.id}`);
        work = [`→ ${member.name}${input.crew ? ` (${input.crew})` : ''}`, input.note].filter(Boolean).join(' · ');
        break;
      }
      case 'plan': {
        if (input.plannedDate < now.toISOString().slice(0, 10)) {
          const message = t('errors.plannedDatePast', { field: fieldLabel(t, RESOURCE, 'plannedDate') });
          throw new ApiException('VALIDATION', undefined, {}, { plannedDate: message });
        }
        const what = input.work || order.description || t(`resources:values.${order.faultType}`);
        const [assignee] = order.assigneeId
          ? rowsOf<{ name: string }>(
              await tx.execute(
                sql`SELECT coalesce(nullif(trim(first_name || ' ' || last_name), ''), email) AS name FROM users WHERE id = ${order.assigneeId}`,
              ),
            )
          : [];
        const updated = rowsOf(
          await tx.execute(sql`UPDATE maintenance_planning SET due_date = ${input.plannedDate}::date, work = ${what},
            status = 'planned', updated_at = now() WHERE fault_report_id = ${order.id} RETURNING id`),
        );
        if (!updated.length) {
          const title = t('workOrders.planTitle', { id: order.id, type: t(`resources:values.${order.faultType}`) });
          await tx.execute(sql`INSERT INTO maintenance_planning
            (account_id, title, device_id, region_id, work, due_date, assignee, status, fault_report_id)
            SELECT ${accountId}, ${title}, d.id, d.region_id, ${what}, ${input.plannedDate}::date, ${assignee?.name ?? null},
              'planned', ${order.id} FROM devices d WHERE d.id = ${order.deviceId}`);
        }
        await tx.execute(sql`UPDATE fault_reports SET status = ${to}, planned_date = ${input.plannedDate}::date,
          updated_at = now() WHERE id = ${order.id}`);
        work = `${input.plannedDate}: ${what}`;
        break;
      }
      case 'start':
        await tx.execute(sql`UPDATE fault_reports SET status = ${to}, started_at = ${now.toISOString()}::timestamptz,
          updated_at = now() WHERE id = ${order.id}`);
        await tx.execute(sql`UPDATE maintenance_planning SET status = 'in_progress', updated_at = now()
          WHERE fault_report_id = ${order.id}`);
        work = input.note ?? '';
        break;
      case 'resolve':
        await tx.execute(sql`UPDATE fault_reports SET status = ${to}, resolved_at = ${now.toISOString()}::timestamptz,
          resolution = ${input.resolution}, parts_used = ${input.partsUsed || null}, updated_at = now()
          WHERE id = ${order.id}`);
        await tx.execute(sql`UPDATE maintenance_planning SET status = 'done', updated_at = now()
          WHERE fault_report_id = ${order.id}`);
        work = input.resolution;
        parts = input.partsUsed || null;
        break;
      case 'close':
        await tx.execute(sql`UPDATE fault_reports SET status = ${to}, closed_at = ${now.toISOString()}::timestamptz,
          updated_at = now() WHERE id = ${order.id}`);
        work = input.note ?? '';
        break;
      case 'reopen':
        await reopen(tx, order.id);
        work = input.reason;
        break;
    }
    await writeHistory(tx, order, input.transition, work, performedBy, now, parts);
    await tx.insert(transactionLogs).values({
      accountId,
      userId: actor.userId,
      resource: RESOURCE,
      action: input.transition,
      recordId: order.id,
      before: { status: order.status, assigneeId: order.assigneeId, plannedDate: order.plannedDate },
      after: { status: to, ...input },
    });
    return order.id;
  });
}

/** Back to open: the resolution and closing are undone, the plan is cancelled, the count goes up. */
async function reopen(tx: Executor, id: number): Promise<void> {
  await tx.execute(sql`UPDATE fault_reports SET status = 'open', reopen_count = reopen_count + 1, started_at = NULL,
    resolved_at = NULL, closed_at = NULL, planned_date = NULL, updated_at = now() WHERE id = ${id}`);
  await tx.execute(sql`UPDATE maintenance_planning SET status = 'cancelled', updated_at = now()
    WHERE fault_report_id = ${id} AND status <> 'done'`);
}

/**
 * The work order closed at most a week before `at` for the same device and fault type, locked —
 * the fault came back, so that work order is reopened rather than a new one opened.
 */
async function closedRecently(
  tx: Executor,
  accountId: number,
  deviceId: number,
  faultType: string,
  at: Date,
  except = 0,
): Promise<{ id: number } | undefined> {
  const [row] = rowsOf<{ id: number }>(
    await tx.execute(sql`SELECT id::int AS id FROM fault_reports
      WHERE account_id = ${accountId} AND device_id = ${deviceId} AND fault_type = ${faultType}
        AND status = 'closed' AND id <> ${except}
        AND closed_at <= ${at.toISOString()}::timestamptz
        AND closed_at > ${new Date(at.getTime() - REOPEN_WITHIN_DAYS * DAY_MS).toISOString()}::timestamptz
      ORDER BY closed_at DESC LIMIT 1 FOR UPDATE`),
  );
  return row;
}

/** The fault came back: the report is folded into the closed work order, which is reopened. */
async function foldInto(
  tx: Executor,
  target: { id: number },
  report: { id: number; accountId: number; deviceId: number; description: string | null },
  performedBy: string,
  now: Date,
): Promise<void> {
  await reopen(tx, target.id);
  await tx.execute(sql`UPDATE fault_reports SET status = 'duplicate', duplicate_of_id = ${target.id}, updated_at = now()
    WHERE id = ${report.id}`);
  await writeHistory(
    tx,
    { ...report, id: target.id },
    'autoReopen',
    `#${report.id}${report.description ? `: ${report.description}` : ''}`,
    performedBy,
    now,
  );
}

export interface PhotoInput {
  contentType: string;
  data: string;
}

/** What a photo's first bytes must be for the type it claims. */
const MAGIC: Record<(typeof FAULT_PHOTO_TYPES)[number], (b: Buffer) => boolean> = {
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** The photo's bytes, or a field message: a JPEG, PNG or WebP (checked by its content), 2 MB at most. */
export function decodePhoto(photo: PhotoInput, t: TFunction): Buffer {
  const refuse = (key: string) =>
    new ApiException('VALIDATION', undefined, {}, { photo: t(key, { mb: FAULT_PHOTO_MAX_BYTES / 1024 / 1024 }) });
  const type = photo.contentType.toLowerCase() as (typeof FAULT_PHOTO_TYPES)[number];
  if (!(FAULT_PHOTO_TYPES as readonly string[]).includes(type)) throw refuse('errors.photoType');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(photo.data) || photo.data.length % 4 !== 0) throw refuse('errors.photoType');
  const bytes = Buffer.from(photo.data, 'base64');
  if (bytes.length > FAULT_PHOTO_MAX_BYTES) throw refuse('errors.photoTooLarge');
  if (bytes.length < 12 || !MAGIC[type](bytes)) throw refuse('errors.photoType');
  return bytes;
}

export interface ReportInput {
  deviceId: number;
  faultType: string;
  description?: string;
  latitude?: number;
  longitude?: number;
  photo?: PhotoInput;
}

/**
 * A person reports a fault: where it is (the device's position unless given), a photo, and who.
 * If the same fault (device and type) was closed within a week, the report reopens that work order.
 */
export async function reportFault(
  db: Db,
  actor: Actor,
  input: ReportInput,
  t: TFunction,
  now: Date,
): Promise<ReportFaultResult & { reportId: number }> {
  const accountId = actor.account?.accountId;
  if (accountId === undefined) throw new ApiException('ACCOUNT_REQUIRED');
  const fields: Record<string, string> = {};
  if (!faultTypes().includes(input.faultType))
    fields.faultType = t('validation.enum', { field: fieldLabel(t, RESOURCE, 'faultType') });
  const [device] = rowsOf<{ latitude: number | null; longitude: number | null }>(
    await db.execute(
      sql`SELECT latitude, longitude FROM devices WHERE id = ${input.deviceId} AND account_id = ${accountId}`,
    ),
  );
  if (!device) fields.deviceId = t('validation.notFound', { field: fieldLabel(t, RESOURCE, 'deviceId') });
  if ((input.latitude === undefined) !== (input.longitude === undefined)) fields.latitude = t('errors.locationPair');
  let photo: Buffer | undefined;
  try {
    if (input.photo) photo = decodePhoto(input.photo, t);
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    Object.assign(fields, error.fields);
  }
  if (Object.keys(fields).length) throw new ApiException('VALIDATION', undefined, {}, fields);
  const performedBy = await nameOf(db, actor.userId);
  const latitude = input.latitude ?? device?.latitude ?? null;
  const longitude = input.longitude ?? device?.longitude ?? null;
  return db.transaction(async (tx) => {
    const [row] = rowsOf<{ id: number }>(
      await tx.execute(sql`INSERT INTO fault_reports
        (account_id, device_id, fault_type, description, reporter, reported_at, status, latitude, longitude, has_photo)
        VALUES (${accountId}, ${input.deviceId}, ${input.faultType}, ${input.description || null}, ${performedBy},
          ${now.toISOString()}::timestamptz, 'open', ${latitude}, ${longitude}, ${Boolean(photo)})
        RETURNING id::int AS id`),
    );
    const report = {
      id: (row as { id: number }).id,
      accountId,
      deviceId: input.deviceId,
      description: input.description ?? null,
    };
    if (photo && input.photo)
      await tx.insert(faultPhotos).values({
        accountId,
        faultReportId: report.id,
        contentType: input.photo.contentType.toLowerCase(),
        byteSize: photo.length,
        data: photo,
      });
    await tx.insert(transactionLogs).values({
      accountId,
      userId: actor.userId,
      resource: RESOURCE,
      action: 'create',
      recordId: report.id,
      before: null,
      after: { deviceId: input.deviceId, faultType: input.faultType, description: input.description ?? null },
    });
    const back = await closedRecently(tx, accountId, input.deviceId, input.faultType, now, report.id);
    if (back) {
      await foldInto(tx, back, report, performedBy, now);
      return { id: back.id, status: 'open' as const, reopened: true, reportId: report.id };
    }
    await writeHistory(tx, report, 'reported', input.description ?? '', performedBy, now);
    return { id: report.id, status: 'open' as const, reopened: false, reportId: report.id };
  });
}

/**
 * Fault reports written by other paths (the fault engine, the generic create, an import) that are a
 * fault coming back: each new open report whose device had the same fault closed within the week
 * before it was reported reopens that work order and is marked its duplicate. Idempotent; `ids`
 * limits it to some reports. Answers the work orders reopened.
 */
export async function reopenReturnedFaults(db: Db, now: Date, ids?: readonly number[]): Promise<number[]> {
  const candidates = rowsOf<{ id: number; accountId: number; deviceId: number; description: string | null }>(
    await db.execute(sql`SELECT r.id::int AS id, r.account_id::int AS "accountId", r.device_id::int AS "deviceId", r.description
      FROM fault_reports r
      WHERE r.status = 'open' AND r.assignee_id IS NULL AND r.duplicate_of_id IS NULL
        AND r.reported_at <= ${now.toISOString()}::timestamptz
        ${ids ? sql`AND r.id = ANY(${`{${ids.join(',')}}`}::bigint[])` : sql``}
        AND EXISTS (SELECT 1 FROM fault_reports c WHERE c.account_id = r.account_id AND c.device_id = r.device_id
          AND c.fault_type = r.fault_type AND c.status = 'closed' AND c.id <> r.id
          AND c.closed_at <= r.reported_at AND c.closed_at > r.reported_at - ${`${REOPEN_WITHIN_DAYS} days`}::interval)
      ORDER BY r.reported_at LIMIT 500`),
  );
  const reopened: number[] = [];
  for (const candidate of candidates) {
    await db.transaction(async (tx) => {
      const [report] = rowsOf<{
        status: string;
        faultType: string;
        reportedAt: Date | string;
        reporter: string | null;
      }>(
        await tx.execute(sql`SELECT status, fault_type AS "faultType", reported_at AS "reportedAt", reporter
          FROM fault_reports WHERE id = ${candidate.id} FOR UPDATE`),
      );
      if (report?.status !== 'open') return;
      const back = await closedRecently(
        tx,
        candidate.accountId,
        candidate.deviceId,
        report.faultType,
        new Date(report.reportedAt),
        candidate.id,
      );
      if (!back) return;
      await foldInto(tx, back, candidate, report.reporter ?? 'Lampyr', now);
      reopened.push(back.id);
    });
  }
  return reopened;
}

/** A report written through the generic create gets its first history row, then may reopen a closed work order. */
export async function afterGenericReport(db: Db, actor: Actor, record: Record<string, unknown>, now: Date) {
  const order = {
    id: record.id as number,
    accountId: record.accountId as number,
    deviceId: record.deviceId as number,
  };
  await writeHistory(db, order, 'reported', String(record.description ?? ''), await nameOf(db, actor.userId), now);
  await reopenReturnedFaults(db, now, [order.id]);
}

/** The photo of a work order of the account, if it has one. */
export async function photoOf(
  db: Db,
  accountId: number,
  id: number,
): Promise<{ contentType: string; data: Buffer } | undefined> {
  const [row] = await db
    .select({ contentType: faultPhotos.contentType, data: faultPhotos.data })
    .from(faultPhotos)
    .where(sql`${faultPhotos.faultReportId} = ${id} AND ${faultPhotos.accountId} = ${accountId}`)
    .limit(1);
  return row;
}
