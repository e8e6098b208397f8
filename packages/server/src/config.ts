import { z } from 'zod';

const optionalUrl = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(z.url({ protocol: protocols }).optional());

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: optionalUrl(/^smtps?$/).optional(),
  /** An external broker (Mosquitto, EMQX, ChirpStack's); without it Lampyr embeds Aedes on MQTT_PORT. */
  MQTT_URL: optionalUrl(/^(mqtts?|tcp)$/).optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  /** Lampyr's own credentials at the broker (with the embedded broker: the ones it accepts for Lampyr). */
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  /**
   * ChirpStack's MQTT integration at the embedded broker (its events in, its commands out). IP devices
   * have their own credentials (device details); there are no anonymous or shared device logins.
   */
  MQTT_CHIRPSTACK_USERNAME: z.string().min(1).optional(),
  MQTT_CHIRPSTACK_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  /** Fixed per worker, so a restarted worker resumes its persistent session. */
  MQTT_CLIENT_ID: z.string().min(1).max(100).default('lampyr-ingest'),
  /** Shared-subscription group of the ingest workers; empty for a broker without `$share` support. */
  MQTT_SHARE_GROUP: z.string().default('lampyr'),
  /** A channel write not answered by the device within this many seconds fails. */
  DOWNLINK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  /** The simulated fleet: `auto` runs it with the embedded broker only. */
  SIMULATOR: z.enum(['auto', 'on', 'off']).default('auto'),
  SIMULATOR_PERIOD_SECONDS: z.coerce.number().min(1).max(3600).default(20),
  LAMPYR_ADMIN_EMAIL: z.email().default('admin@lampyr.local'),
  LAMPYR_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('lampyr-admin'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The console map's tile server ({z}/{x}/{y}); OpenStreetMap's by default. */
  MAP_TILE_URL: z.string().trim().min(1).default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_ATTRIBUTION: z.string().default('© OpenStreetMap contributors'),
  /** Where the built console lives; served at / when present. */
  WEB_DIST: z.string().optional(),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Reads the environment once at start-up; a bad value stops start-up naming the variable. */
/** Settings that no longer exist; set, they stop start-up rather than silently change who may connect. */
const REMOVED: Record<string, string> = {
  MQTT_DEVICE_USERNAME:
    'removed: ChirpStack uses MQTT_CHIRPSTACK_USERNAME/MQTT_CHIRPSTACK_PASSWORD, IP devices their own credentials',
  MQTT_DEVICE_PASSWORD:
    'removed: ChirpStack uses MQTT_CHIRPSTACK_USERNAME/MQTT_CHIRPSTACK_PASSWORD, IP devices their own credentials',
  MQTT_ALLOW_ANONYMOUS: 'removed: the embedded broker accepts no anonymous clients; every device has its own login',
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
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
