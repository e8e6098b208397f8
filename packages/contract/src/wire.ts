import { z } from 'zod';
import type { AlarmKind } from './catalogue/alerts.ts';
import type { LampState } from './lamp-state.ts';

/** Error codes of the query and command APIs, with their HTTP status. */
export const ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  ACCOUNT_FORBIDDEN: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION: 422,
  INVALID_FIELD: 400,
  BAD_REQUEST: 400,
  ACCOUNT_REQUIRED: 400,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ApiError {
  code: ErrorCode;
  message: string;
  fields?: Record<string, string>;
}

export type Envelope<T> = { success: true; data: T } | { success: false; error: ApiError };

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export const OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'notBetween',
  'in',
  'notIn',
  'contains',
  'startsWith',
  'isNull',
  'isNotNull',
] as const;
export type Operator = (typeof OPERATORS)[number];

export const MAX_PAGE_SIZE = 1000;

const sortEntry = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]*(,(asc|desc|ASC|DESC))?$/, 'sort must be "field,asc" or "field,desc"');

const filterValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])),
]);

export const conditionSchema = z.object({
  field: z.string().min(1),
  operator: z.enum(OPERATORS),
  value: filterValue.optional(),
});
export type Condition = z.infer<typeof conditionSchema>;

export const pageableSchema = z.object({
  page: z.number().int().min(0),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE),
  sort: z.array(sortEntry).max(5).default([]),
});
export type Pageable = z.infer<typeof pageableSchema>;

/** List and search body of SPEC §7: `filter`, `detailFilter`, `selectedColumns`, `pageable`. */
export const listBodySchema = z.object({
  filter: z.record(z.string(), filterValue).nullable().optional(),
  detailFilter: z.array(conditionSchema).max(50).nullable().optional(),
  selectedColumns: z.record(z.string(), z.boolean()).nullable().optional(),
  pageable: pageableSchema,
});
export type ListBody = z.infer<typeof listBodySchema>;

/** The search service's body (SPEC §7 "Search service variant"). */
export const serviceSearchSchema = z.object({
  filters: z.array(conditionSchema).max(50).default([]),
  logic: z.enum(['AND', 'OR']).default('AND'),
  page: z.number().int().min(0).default(0),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  sortBy: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]*$/)
    .optional(),
  sortDirection: z.enum(['ASC', 'DESC', 'asc', 'desc']).default('DESC'),
});
export type ServiceSearch = z.infer<typeof serviceSearchSchema>;
/** A search body as a client sends it: what has a default may be left out. */
export type ServiceSearchInput = z.input<typeof serviceSearchSchema>;

export const BUCKETS = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '1d': '1 day',
} as const;
export type Bucket = keyof typeof BUCKETS;

export const aggregateSchema = z.object({
  filters: z.array(conditionSchema).max(50).default([]),
  logic: z.enum(['AND', 'OR']).default('AND'),
  aggregations: z
    .array(
      z.object({
        field: z.string().min(1),
        fn: z.enum(['count', 'sum', 'avg', 'min', 'max']),
        as: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]{0,40}$/)
          .optional(),
      }),
    )
    .min(1)
    .max(20),
  groupBy: z
    .array(
      z.union([
        z.string().min(1),
        z.object({ field: z.string().min(1), interval: z.enum(Object.keys(BUCKETS) as [Bucket, ...Bucket[]]) }),
      ]),
    )
    .max(5)
    .default([]),
});
export type AggregateBody = z.infer<typeof aggregateSchema>;
/** An aggregate body as a client sends it: what has a default may be left out. */
export type AggregateInput = z.input<typeof aggregateSchema>;

/** The aggregate's answer: one row per group, with each aggregation under its name. */
export interface AggregateResult<R = Record<string, unknown>> {
  rows: R[];
}

// Platform operators' operations on the account tree and on operators (`{COMMAND_URL}/platform/...`).
const id = z.number().int().positive();
export const setIntegratorSchema = z.object({ accountId: id, isIntegrator: z.boolean() });
export const setParentSchema = z.object({ accountId: id, parentId: id.nullable() });
export const setActiveSchema = z.object({ accountId: id, isActive: z.boolean() });
export const setOperatorSchema = z.object({ userId: id, isPlatformOperator: z.boolean() });
export type SetIntegratorBody = z.infer<typeof setIntegratorSchema>;
export type SetParentBody = z.infer<typeof setParentSchema>;
export type SetActiveBody = z.infer<typeof setActiveSchema>;
export type SetOperatorBody = z.infer<typeof setOperatorSchema>;

/** An IP device's own broker login (`POST {COMMAND_URL}/devices/{id}/credentials/reveal|rotate`). */
export interface DeviceLogin {
  username: string;
  password: string;
}

/** An account as the platform operators' screen lists it (`GET {QUERY_URL}/platform/accounts`). */
export interface PlatformAccount {
  id: number;
  name: string;
  companyName: string | null;
  accountId: number | null;
  isSubAccount: boolean;
  isIntegrator: boolean;
  isActive: boolean;
}

/** A user as the platform operators' screen lists it (`GET {QUERY_URL}/platform/users`). */
export interface PlatformUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  isPlatformOperator: boolean;
}

/** `GET {QUERY_URL}/dashboard-summary`: SPEC §3's Dashboard summary of the selected account. */
export interface DashboardSummary {
  /** Devices per device type, with how many of them are online and offline. */
  inventory: {
    deviceTypeId: number;
    typeNameEn: string;
    typeNameTr: string;
    devices: number;
    online: number;
    offline: number;
  }[];
  deviceCount: number;
  online: number;
  offline: number;
  /** Devices that have never reported. */
  neverSeen: number;
  /** Active alarms by level and in all; null when the role may not read alarms. */
  alarms: { low: number; medium: number; high: number; count: number } | null;
  /** The devices by lamp state now (lamp-state.ts). */
  lamps: Record<LampState, number>;
  /** The sum of every device's latest power reading, in watts. */
  powerW: number;
  /**
   * Today's lighting day (noon to noon in the account's time zone, like the energy rollups): energy
   * used so far and the baseline (rated power over the night), in kWh; null without rollups.
   */
  energyToday: { day: string; energyKwh: number | null; baselineKwh: number | null };
  /** Fault reports open or in progress; null when the role may not read them. */
  openFaults: number | null;
  /** The account's gateways, and those whose status is offline; null when the role may not read gateways. */
  gateways: number | null;
  gatewaysDown: number | null;
}

/* What `GET {QUERY_URL}/stream` pushes (server-sent events, the event name being `type`). */

/** A channel's new latest value. */
export interface LiveValue {
  deviceId: number;
  deviceChannelTemplateId: number;
  /** 0 for the channel itself; a sub-device channel's package order. */
  subChannel: number;
  channelCode: string;
  value: number;
  status: string;
  dateTime: string;
}

/** A device's connection status. */
export interface LiveStatus {
  deviceId: number;
  status: 'online' | 'offline';
  dateTime: string;
  rssi: number | null;
  snr: number | null;
}

/** A channel write's progress: pending → sent → acknowledged / failed. */
export interface LiveWrite {
  id: number;
  deviceId: number;
  deviceChannelTemplateId: number;
  value: number;
  status: 'pending' | 'sent' | 'acknowledged' | 'failed';
  message: string | null;
  sentAt: string | null;
  answeredAt: string | null;
  updatedAt: string;
}

/**
 * An alarm notification for the account's consoles: shown as a notification (`sound` for high alarms);
 * `audio` ones are the audio broadcast, played by consoles that enabled it.
 */
export interface LiveNotification {
  /** The notification-list row. */
  id: number;
  level: string;
  title: string;
  body: string;
  sound: boolean;
  audio: boolean;
}

/** An alarm's transition (DEVICES.md "Alarms"): raised, acknowledged, cleared or shelved. */
export interface LiveAlarm {
  /** The alert-logs row. */
  id: number;
  /** Its device (0 for a gateway-loss alarm, which names a gateway instead). */
  deviceId: number;
  state: 'active' | 'acknowledged' | 'cleared';
  kind: AlarmKind;
  alertLevel: 'low' | 'medium' | 'high';
  templateId: number | null;
  eventName: string | null;
  /** The value that raised it (null for node loss). */
  value: number | null;
  unit: string | null;
  /** When it was raised. */
  dateTime: string;
  transition: 'raised' | 'acknowledged' | 'cleared' | 'shelved';
  shelvedUntil: string | null;
}

/** Commands on alarms (`POST {COMMAND_URL}/alarms/acknowledge|clear|shelve`) answer this. */
export interface AlarmCommandResult {
  updated: number[];
  skipped: { id: number; reason: string }[];
}

/** A device configuration command's progress (a deploy response log row, docs/device-config.md). */
export interface LiveDeploy {
  id: number;
  deviceId: number;
  operation: string;
  status: 'pending' | 'sent' | 'confirmed' | 'mismatch' | 'timeout' | 'failed';
  version: number | null;
  reportedVersion: number | null;
  resendCount: number;
  taskGroupId: number | null;
  batchId: string | null;
  responseTime: string | null;
}

export type LiveEvent =
  | ({ type: 'value' } & LiveValue)
  | ({ type: 'status' } & LiveStatus)
  | ({ type: 'write' } & LiveWrite)
  | ({ type: 'notification' } & LiveNotification)
  | ({ type: 'alarm' } & LiveAlarm)
  | ({ type: 'deploy' } & LiveDeploy);

/** `POST {COMMAND_URL}/notifications/push-subscriptions`: a browser's Web Push subscription. */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(1000)
    .refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
      } catch {
        return false;
      }
    }, 'must be an https URL'),
  keys: z.object({
    // The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url.
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, 'must be a base64url P-256 public key'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{22,24}={0,2}$/, 'must be a base64url 16-byte secret'),
  }),
});
export const pushUnsubscribeSchema = z.object({ endpoint: z.string().min(1).max(1000) });
/** `POST {COMMAND_URL}/notifications/resend`: notification-list ids to send again. */
export const resendSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) });
