import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const optionalUrl = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(z.url({ protocol: protocols }).optional());

const boolFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** 32 bytes written as 64 hex digits or as base64 (base64url too). */
const secretKeyText = z
  .string()
  .refine(
    (v) => /^[0-9a-fA-F]{64}$/.test(v) || /^[A-Za-z0-9+/_-]{43}=?$/.test(v),
    'must be 32 bytes in base64 or hex (openssl rand -base64 32)',
  );

/** What a replica may do; every process runs all of them unless told otherwise. */
export const ALL_ROLES = ['query', 'command', 'ingest', 'engines'] as const;
export type Role = (typeof ALL_ROLES)[number];

/** The administrator password of the embedded default; refused with DATABASE_URL. */
export const DEFAULT_ADMIN_PASSWORD = 'lampyr-admin';
/** The embedded broker's port when MQTT_PORT is not set; taken, the next free one is used. */
export const DEFAULT_MQTT_PORT = 1883;

const optionalFlag = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .pipe(boolFlag.optional());

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/).optional(),
  /** PostgreSQL limits per connection, in milliseconds (0 = none); migrations have their own. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  DATABASE_MIGRATION_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(0),
  /** Named prepared statements a PostgreSQL connection keeps; older ones are deallocated. */
  DATABASE_PREPARED_STATEMENTS: z.coerce.number().int().min(1).max(10_000).default(100),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The key of stored secrets (32 bytes, base64 or hex); with the embedded default generated into DATA_DIR. */
  SECRETS_KEY: z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(secretKeyText.optional())
    .optional(),
  /** Earlier SECRETS_KEYs, comma-separated: values they sealed still open until `npm run secrets:rotate`. */
  SECRETS_KEYS_OLD: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .pipe(z.array(secretKeyText))
    .optional(),
  /** Demo accounts and fleet on first start: on by default only without DATABASE_URL. */
  LAMPYR_DEMO: optionalFlag.optional(),
  /** Where browsers reach Lampyr (https://lampyr.example.com); /config.json hands the console its API URLs from it. */
  PUBLIC_URL: optionalUrl(/^https?$/).optional(),
  SMTP_URL: optionalUrl(/^smtps?$/).optional(),
  /**
   * The Web Push (VAPID) key pair, base64url (`npx web-push generate-vapid-keys`): set it when replicas
   * share the work or DATA_DIR does not persist; without it a pair is generated once into DATA_DIR.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key (npx web-push generate-vapid-keys)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key (npx web-push generate-vapid-keys)')
    .optional(),
  /** An external broker (Mosquitto, EMQX, ChirpStack's); without it Lampyr embeds Aedes on MQTT_PORT. */
  MQTT_URL: optionalUrl(/^(mqtts?|tcp)$/).optional(),
  /** Unset: DEFAULT_MQTT_PORT, or the next free port when that one is taken. Set: that port or an error. */
  MQTT_PORT: z.preprocess(
    (v) => (typeof v === 'string' && !v.trim() ? undefined : v),
    z.coerce.number().int().min(0).max(65535).optional(),
  ),
  /** Lampyr's own credentials at the broker (with the embedded broker: the ones it accepts for Lampyr). */
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  /**
   * ChirpStack's MQTT integration at the embedded broker (its events in, its commands out). IP devices
   * have their own credentials (device details); there are no anonymous or shared device logins.
   */
  MQTT_CHIRPSTACK_USERNAME: z.string().min(1).optional(),
  MQTT_CHIRPSTACK_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  /**
   * Fixed per worker, so a restarted worker resumes its persistent session. Unset: made from the
   * host name and an id kept in DATA_DIR (mqttClientId), unique per replica and stable across restarts.
   */
  MQTT_CLIENT_ID: z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'letters, digits and . _ : - only, at most 100')
        .optional(),
    )
    .optional(),
  /**
   * How long the broker keeps an ingest worker's session (and its share of the shared subscription)
   * after the worker disconnects without ending it (MQTT 5). A restart within this resumes the
   * session; a worker that died is dropped from the share after it. Retire a worker for good with
   * MQTT_END_SESSION_ON_STOP or `npm run mqtt:retire`.
   */
  MQTT_SESSION_EXPIRY_SECONDS: z.coerce.number().int().min(0).max(604_800).default(120),
  /** A worker leaving for good (scaling in): its broker session ends when it stops, keeping nothing queued for it. */
  MQTT_END_SESSION_ON_STOP: optionalFlag.optional(),
  /** Seconds between keep-alive pings; a broker silent for 1.5 of them counts as gone (half-open connection). */
  MQTT_KEEPALIVE_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
  /**
   * What this replica does, comma-separated: query (the query API), command (the command API and
   * sign-in), ingest (MQTT in, writes out), engines (timers, watchers, rollups, under one leader).
   * All by default; `npm start -- --roles query,command` overrides it.
   */
  LAMPYR_ROLES: z
    .string()
    .default(ALL_ROLES.join(','))
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.enum(ALL_ROLES, { error: `must be some of ${ALL_ROLES.join(', ')}` }))
        .min(1, `name at least one of ${ALL_ROLES.join(', ')}`),
    ),
  /** Shared-subscription group of the ingest workers; empty for a broker without `$share` support. */
  MQTT_SHARE_GROUP: z.string().default('lampyr'),
  /** A channel write not answered by the device within this many seconds fails. */
  DOWNLINK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  /** The simulated fleet: `auto` runs it with the embedded broker and the demo data only. */
  SIMULATOR: z.enum(['auto', 'on', 'off']).default('auto'),
  SIMULATOR_PERIOD_SECONDS: z.coerce.number().min(1).max(3600).default(20),
  /**
   * Lamp fault detection's settling, persistence and clearing times (engines/faults/fault-rules.ts)
   * and the cycling window, multiplied by this. 1 — the documented times — in service; a
   * demonstration or an acceptance test against the simulated fleet shortens them (0.01: a lamp
   * failure latches after 6 s of dark readings instead of 10 min). Start-up warns when it is not 1.
   */
  FAULT_TIME_SCALE: z.coerce.number().gt(0).max(1).default(1),
  /** Days of history the simulated fleet starts with (filled in before it reports; 0: none). */
  DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(60).default(14),
  LAMPYR_ADMIN_EMAIL: z.email().default('admin@lampyr.local'),
  LAMPYR_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').default(DEFAULT_ADMIN_PASSWORD),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The console map's tile server ({z}/{x}/{y}); OpenStreetMap's by default. */
  MAP_TILE_URL: z.string().trim().min(1).default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_ATTRIBUTION: z.string().default('© OpenStreetMap contributors'),
  /**
   * Reverse proxies whose X-Forwarded-For is believed, comma-separated addresses or CIDRs
   * (e.g. `10.0.0.0/8,127.0.0.1`). Empty by default: the connection's address is the client's.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]))),
  /** Where the built console lives; served at / when present. */
  WEB_DIST: z.string().optional(),
});

/**
 * With DATABASE_URL Lampyr runs as a production service: nothing that the embedded default makes up
 * (the administrator's password, the JWT secret, the secrets key) is accepted or generated.
 */
const production = schema.superRefine((config, context) => {
  const refuse = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
  if (!config.VAPID_PUBLIC_KEY !== !config.VAPID_PRIVATE_KEY) {
    refuse(config.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY', 'set both VAPID keys, or neither');
  }
  if (!config.DATABASE_URL) return;
  if (config.LAMPYR_ADMIN_PASSWORD === DEFAULT_ADMIN_PASSWORD) {
    refuse('LAMPYR_ADMIN_PASSWORD', `the default password cannot be used with DATABASE_URL; set your own`);
  }
  if (!config.JWT_SECRET) {
    refuse('JWT_SECRET', 'required with DATABASE_URL: at least 32 random characters (openssl rand -base64 48)');
  }
  if (!config.SECRETS_KEY) {
    refuse('SECRETS_KEY', 'required with DATABASE_URL: 32 random bytes in base64 or hex (openssl rand -base64 32)');
  }
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Settings that no longer exist; set, they stop start-up rather than silently change who may connect. */
const REMOVED: Record<string, string> = {
  MQTT_DEVICE_USERNAME:
    'removed: ChirpStack uses MQTT_CHIRPSTACK_USERNAME/MQTT_CHIRPSTACK_PASSWORD, IP devices their own credentials',
  MQTT_DEVICE_PASSWORD:
    'removed: ChirpStack uses MQTT_CHIRPSTACK_USERNAME/MQTT_CHIRPSTACK_PASSWORD, IP devices their own credentials',
  MQTT_ALLOW_ANONYMOUS: 'removed: the embedded broker accepts no anonymous clients; every device has its own login',
};

/**
 * `--roles a,b` (or `--roles=a,b`) on the command line: it wins over LAMPYR_ROLES. Other arguments
 * are refused so a typo does not start a replica doing everything.
 */
export function rolesFromArgs(argv: readonly string[]): string | undefined {
  let roles: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--roles') {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw new ConfigError('--roles: name the roles, e.g. --roles query,command');
      roles = next;
      i++;
    } else if (arg.startsWith('--roles=')) roles = arg.slice('--roles='.length);
    else throw new ConfigError(`Unknown argument ${arg}: only --roles ${ALL_ROLES.join(',')} is understood`);
  }
  return roles;
}

/** Reads the environment once at start-up; a bad value stops start-up naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): Config {
  const roles = rolesFromArgs(argv);
  if (roles !== undefined) env = { ...env, LAMPYR_ROLES: roles };
  const parsed = production.safeParse(env);
  const removed = Object.keys(REMOVED).filter(
    (name) => env[name] && !(name === 'MQTT_ALLOW_ANONYMOUS' && /^(false|0|no)$/i.test(env[name] ?? '')),
  );
  if (parsed.success && !removed.length) return parsed.data;
  const lines = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)),
    ...removed.map((name) => `  ${name}: ${REMOVED[name]}`),
  ];
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** Whether the first start seeds the demo accounts and fleet. */
export const wantsDemo = (config: Config): boolean => config.LAMPYR_DEMO ?? !config.DATABASE_URL;

/**
 * This replica's MQTT client id: MQTT_CLIENT_ID, else `lampyr-<host>-<id>` with an id made once and
 * kept in DATA_DIR — unique per replica (two replicas on one host have their own DATA_DIR), the same
 * after a restart, so the restarted worker resumes its own session at the broker.
 */
export function mqttClientId(config: Pick<Config, 'MQTT_CLIENT_ID' | 'DATA_DIR'>): string {
  if (config.MQTT_CLIENT_ID) return config.MQTT_CLIENT_ID;
  const host = hostname()
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 40);
  const file = join(config.DATA_DIR, 'mqtt-client-id');
  let id: string | undefined;
  try {
    id = readFileSync(file, 'utf8').trim();
  } catch {}
  if (!id || !/^[a-z0-9]{8,32}$/.test(id)) {
    id = randomBytes(6).toString('hex');
    try {
      mkdirSync(config.DATA_DIR, { recursive: true });
      writeFileSync(file, `${id}\n`, { flag: 'w' });
    } catch {
      // A read-only DATA_DIR: the id is derived from where it is, still the same after a restart.
      id = createHash('sha256').update(resolve(config.DATA_DIR)).digest('hex').slice(0, 12);
    }
  }
  return `lampyr-${host}-${id}`;
}
