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
  /** Credentials the embedded broker accepts from devices (and ChirpStack's MQTT integration). */
  MQTT_DEVICE_USERNAME: z.string().optional(),
  MQTT_DEVICE_PASSWORD: z.string().optional(),
  MQTT_ALLOW_ANONYMOUS: boolFlag.default(false),
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

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Reads the environment once at start-up; a bad value stops start-up naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
