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
  MQTT_URL: optionalUrl(/^(mqtts?|wss?|tcp)$/).optional(),
  LAMPYR_ADMIN_EMAIL: z.email().default('admin@lampyr.local'),
  LAMPYR_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('lampyr-admin'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
