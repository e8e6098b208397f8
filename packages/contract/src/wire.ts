import { z } from 'zod';

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

export type LiveEvent =
  | ({ type: 'value' } & LiveValue)
  | ({ type: 'status' } & LiveStatus)
  | ({ type: 'write' } & LiveWrite);
