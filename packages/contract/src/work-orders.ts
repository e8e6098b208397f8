import { z } from 'zod';

/**
 * The maintenance workflow. A work order is a fault report (`report-a-fault`) carrying a workflow
 * status, an assignee, a planned date, a resolution and the parts used; every transition writes a
 * `maintenance-history` row. Statuses `open`, `in_progress`, `resolved` and `closed` keep the meaning
 * they had before the workflow; `duplicate` marks a report folded into a work order it reopened.
 */
export const WORK_ORDER_STATUSES = [
  'open',
  'assigned',
  'planned',
  'in_progress',
  'resolved',
  'closed',
  'duplicate',
] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

/** What a maintenance-history row records. */
export const WORK_ORDER_ACTIONS = [
  'reported',
  'assign',
  'plan',
  'start',
  'resolve',
  'close',
  'reopen',
  'autoReopen',
] as const;
export type WorkOrderAction = (typeof WORK_ORDER_ACTIONS)[number];

/** The commands of the command API (`/command/api/work-orders/{transition}`). */
export const WORK_ORDER_TRANSITIONS = ['assign', 'plan', 'start', 'resolve', 'close', 'reopen'] as const;
export type WorkOrderTransition = (typeof WORK_ORDER_TRANSITIONS)[number];

/** The state machine: from which statuses each transition may be taken, and where it leads. */
export const TRANSITION_RULES: Readonly<
  Record<WorkOrderTransition, { from: readonly WorkOrderStatus[]; to: (from: WorkOrderStatus) => WorkOrderStatus }>
> = {
  // Reassigning a planned work order keeps its plan.
  assign: { from: ['open', 'assigned', 'planned'], to: (from) => (from === 'planned' ? 'planned' : 'assigned') },
  plan: { from: ['assigned', 'planned'], to: () => 'planned' },
  start: { from: ['assigned', 'planned'], to: () => 'in_progress' },
  resolve: { from: ['in_progress'], to: () => 'resolved' },
  close: { from: ['resolved'], to: () => 'closed' },
  // A resolution that did not hold (resolved) or a closed work order the crew must see again.
  reopen: { from: ['resolved', 'closed'], to: () => 'open' },
};

/** The transitions a work order in this status offers. */
export function transitionsFrom(status: string): WorkOrderTransition[] {
  return WORK_ORDER_TRANSITIONS.filter((t) => (TRANSITION_RULES[t].from as readonly string[]).includes(status));
}

/** Statuses of a work order still waiting for a crew (counted as open faults). */
export const OPEN_STATUSES: readonly WorkOrderStatus[] = ['open', 'assigned', 'planned', 'in_progress'];

/** A fault that comes back on the same device with the same type within this many days of closing reopens its work order. */
export const REOPEN_WITHIN_DAYS = 7;

/** Photo limits of a person-reported fault. */
export const FAULT_PHOTO_MAX_BYTES = 2 * 1024 * 1024;
export const FAULT_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

const id = z.number().int().positive();
const text = (max: number) => z.string().trim().min(1).max(max);

export const assignBodySchema = z
  .object({
    id,
    assigneeId: id,
    crew: z.string().trim().max(255).optional(),
    note: z.string().trim().max(4000).optional(),
  })
  .strict();
export const planBodySchema = z
  .object({
    id,
    plannedDate: z.iso.date(),
    work: z.string().trim().max(4000).optional(),
  })
  .strict();
export const startBodySchema = z.object({ id, note: z.string().trim().max(4000).optional() }).strict();
export const resolveBodySchema = z
  .object({ id, resolution: text(4000), partsUsed: z.string().trim().max(4000).optional() })
  .strict();
export const closeBodySchema = z.object({ id, note: z.string().trim().max(4000).optional() }).strict();
export const reopenBodySchema = z.object({ id, reason: text(4000) }).strict();

export const WORK_ORDER_BODIES = {
  assign: assignBodySchema,
  plan: planBodySchema,
  start: startBodySchema,
  resolve: resolveBodySchema,
  close: closeBodySchema,
  reopen: reopenBodySchema,
} as const;
export type WorkOrderBody<T extends WorkOrderTransition> = z.input<(typeof WORK_ORDER_BODIES)[T]>;

/**
 * `POST {COMMAND_URL}/work-orders/report`: a person reports a fault on a device, with where it is
 * (defaulting to the device's position) and optionally a photo (base64, JPEG/PNG/WebP, 2 MB at most).
 */
export const reportFaultBodySchema = z
  .object({
    deviceId: id,
    faultType: z.string().min(1).max(64),
    description: z.string().trim().max(4000).optional(),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    photo: z
      .object({
        contentType: z.string().max(100),
        // 2 MB as base64 is 2 796 204 characters; the decoded size is checked (with its own message).
        data: z.string().max(Math.ceil((FAULT_PHOTO_MAX_BYTES * 4) / 3) + 32 * 1024),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ReportFaultBody = z.input<typeof reportFaultBodySchema>;

/** What the report command answers: the work order, and whether the fault reopened a closed one. */
export interface ReportFaultResult {
  id: number;
  status: WorkOrderStatus;
  /** The work order closed within the week that this report reopened (then `id` is that work order). */
  reopened: boolean;
}
