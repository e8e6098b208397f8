import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { CONSTANTS, catalogue } from '@lampyr/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AccessResolver } from './access/access.ts';
import { tenancyPolicies } from './access/tenancy-policy.ts';
import { registerAlarmRoutes } from './api/alarm-routes.ts';
import { registerAuthRoutes } from './api/auth-routes.ts';
import type { AppContext } from './api/context.ts';
import { registerDashboardRoutes } from './api/dashboard-routes.ts';
import { registerDeviceConfigRoutes } from './api/device-config-routes.ts';
import { refuseInactiveDevice, registerDeviceCredentialRoutes } from './api/device-credential-routes.ts';
import { installErrorHandler } from './api/errors.ts';
import { installGuard } from './api/guard.ts';
import { registerNotificationRoutes } from './api/notification-routes.ts';
import { registerDocs } from './api/openapi.ts';
import { registerOverrideRoutes } from './api/override-routes.ts';
import { registerPlatformRoutes } from './api/platform-routes.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './api/prefixes.ts';
import { registerReportRoutes } from './api/report-routes.ts';
import { registerResourceRoutes } from './api/resource-routes.ts';
import { registerScheduleRoutes } from './api/schedule-routes.ts';
import { installSecurityHeaders } from './api/security-headers.ts';
import { registerStreamRoutes } from './api/stream-routes.ts';
import { registerTransferRoutes } from './api/transfer-routes.ts';
import type { SecretBox } from './auth/secret-box.ts';
import { bumpTokenVersion, TokenVersions } from './auth/token-versions.ts';
import { Tokens } from './auth/tokens.ts';
import { checkAlertTemplate } from './data/alert-template-check.ts';
import { overridesForPlan } from './data/overrides.ts';
import { createRepositories } from './data/resource-repository.ts';
import type { Db } from './db/connect.ts';
import { resourceTables } from './db/schema/index.ts';
import { AlarmEngine } from './engines/alarms/alarm-engine.ts';
import { NotificationService, type NotificationServiceOptions } from './engines/notifications/notification-service.ts';
import type { Notifier } from './engines/notifications/notifier.ts';
import { SchedulePreviews } from './engines/schedules/preview.ts';
import { RunningTasks } from './engines/schedules/running.ts';
import { ApiException } from './errors/api-exception.ts';
import { CommandEvents } from './events/command-events.ts';
import { LiveEvents } from './events/live-events.ts';
import { localesDir, translator } from './i18n/translate.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';

export interface AppOptions {
  db: Db;
  jwtSecret: Uint8Array;
  /** Seals the secrets Lampyr must use again (service passwords, LoRaWAN keys). */
  secretBox: SecretBox;
  dataDir: string;
  /** Where browsers reach Lampyr; the API URLs of /config.json are relative to the page without it. */
  publicUrl?: string;
  smtpUrl?: string;
  mailer?: Mailer;
  webDist?: string;
  logger?: FastifyServerOptions['logger'];
  /**
   * Proxies whose X-Forwarded-For is believed (addresses or CIDRs, from TRUSTED_PROXIES). None by
   * default: the client address is the connection's, so a client cannot pick its own address to
   * escape the per-address limits.
   */
  trustedProxies?: string[];
  /** Shared with the ingest: what it stores is streamed, what the API commits reaches devices. */
  live?: LiveEvents;
  /** The console map's tiles, handed to the console in /config.json. */
  map?: { tileUrl: string; attribution: string };
  commands?: CommandEvents;
  /** Settings of the notification service (tests: a short retry, a clock, a push agent). */
  notifications?: Partial<Omit<NotificationServiceOptions, 'db' | 'live' | 'secretBox' | 'mailer' | 'dataDir'>>;
  /** Who is told when an alert event fires or a device is lost: the notification service unless given. */
  notifier?: Notifier;
  /** The alarm engine's pace: how often timers and silent devices are looked at (0 = by hand), rules re-read, and a "minute" (tests shorten it). */
  alarms?: { tickMs?: number; resyncMs?: number; minuteSeconds?: number };
}

/** The HTTP side of Lampyr: query API, command API, auth, docs, and the built console. */
export async function buildApp(
  options: AppOptions,
): Promise<{ app: FastifyInstance; ctx: AppContext; notifications: NotificationService; alarms: AlarmEngine }> {
  const app = Fastify({
    logger: withSafeRequestLog(options.logger),
    bodyLimit: 1024 * 1024,
    // Only a configured proxy's X-Forwarded-For names the client; rate limits key on it.
    trustProxy: options.trustedProxies?.length ? options.trustedProxies : false,
    ajv: { customOptions: { removeAdditional: false } },
  });
  const mailer = options.mailer ?? createMailer({ smtpUrl: options.smtpUrl, dataDir: options.dataDir, log: app.log });
  // The one place an administrator's security edit (role, membership, operator) ends a user's sessions.
  const onSecurityEdit = async (userId: number) => {
    await bumpTokenVersion(options.db, userId);
  };
  const secretBox = options.secretBox;
  const repositories = createRepositories(options.db, catalogue, resourceTables, {
    secretBox,
    policies: tenancyPolicies({ db: options.db, mailer, onSecurityEdit }),
    checks: { 'channel-write-values': refuseInactiveDevice, 'alert-device-parameter-templates': checkAlertTemplate },
  });
  const live = options.live ?? new LiveEvents();
  const access = new AccessResolver(options.db);
  // One per process: started with the app, stopped when it closes; the alarm engines are handed it.
  const notifications = new NotificationService({
    publicUrl: options.publicUrl,
    onError: (error) => app.log.error(error),
    ...options.notifications,
    db: options.db,
    live,
    secretBox,
    mailer,
    dataDir: options.dataDir,
    access,
  });
  app.addHook('onReady', async () => notifications.start());
  app.addHook('onClose', async () => notifications.stop());
  const ctx: AppContext = {
    db: options.db,
    tokens: new Tokens(options.jwtSecret),
    tokenVersions: new TokenVersions(options.db),
    mailer,
    onSecurityEdit,
    access,
    repositories,
    tables: resourceTables,
    live,
    commands: options.commands ?? new CommandEvents((error) => app.log.error(error)),
    secretBox,
    notifications,
  };
  // The alarm engine: evaluates what the ingest commits (main hands it `alarms.onCommitted`), ticks
  // its timers and node loss, and serves the lifecycle commands.
  const alarms = new AlarmEngine({
    db: options.db,
    live: ctx.live,
    notifier: options.notifier ?? notifications,
    onError: (error) => app.log.error(error, 'alarms'),
    ...options.alarms,
  });
  ctx.alarms = alarms;
  app.addHook('onReady', () => alarms.start(ctx.commands));
  app.addHook('onClose', () => alarms.stop());

  installErrorHandler(app);
  await installSecurityHeaders(app, { map: options.map, publicUrl: options.publicUrl });
  installGuard(app, ctx);
  await app.register(fastifyCookie);
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    errorResponseBuilder: () => new ApiException('RATE_LIMITED'),
  });
  await registerDocs(app, ctx);

  registerAuthRoutes(app, ctx);
  // Before the generic routes: a read-only resource's own write routes take precedence over refusals.
  registerOverrideRoutes(app, ctx);
  registerResourceRoutes(app, ctx);
  registerStreamRoutes(app, ctx);
  registerDashboardRoutes(app, ctx);
  registerAlarmRoutes(app, ctx);
  registerTransferRoutes(app, ctx);
  registerPlatformRoutes(app, ctx);
  registerDeviceCredentialRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerNotificationRoutes(app, ctx);
  const previews = new SchedulePreviews(options.db, (deviceIds, from, until) =>
    overridesForPlan(options.db, deviceIds, from, until),
  );
  const running = new RunningTasks(options.db);
  registerScheduleRoutes(app, ctx, {
    preview: (accountId, request, now) => previews.preview(accountId, request, now),
    running: (accountId, now) => running.running(accountId, now),
  });
  registerDeviceConfigRoutes(app, ctx);

  app.get('/health', { config: { access: 'public' } }, async () => ({ success: true, data: { status: 'ok' } }));
  // Built from configuration only: a Host header must never point the console's API calls elsewhere.
  const origin = options.publicUrl?.replace(/\/+$/, '') ?? '';
  app.get('/config.json', { config: { access: 'public' } }, async () => {
    return {
      queryUrl: `${origin}${QUERY_PREFIX}`,
      commandUrl: `${origin}${COMMAND_PREFIX}`,
      ...(options.map ? { mapTileUrl: options.map.tileUrl, mapAttribution: options.map.attribution } : {}),
    };
  });
  app.get<{ Params: { lng: string; ns: string } }>(
    '/locales/:lng/:ns',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { lng, ns } = request.params;
      if (!(CONSTANTS.languages as readonly string[]).includes(lng) || !/^[a-z-]+\.json$/.test(ns)) {
        throw new ApiException('NOT_FOUND');
      }
      const file = join(localesDir, lng, ns);
      if (!existsSync(file)) throw new ApiException('NOT_FOUND');
      return reply
        .header('cache-control', 'no-cache')
        .type('application/json')
        .send(await readFile(file));
    },
  );

  await registerConsole(app, options.webDist);
  return { app, ctx, notifications, alarms };
}

/** Query parameters that may carry a credential: their values never reach a log line. */
const SECRET_PARAMS = /([?&](?:ticket|token|access_token|refresh_token|code|password)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** The logger, with a request serializer that redacts credentials from the logged URL. */
function withSafeRequestLog(logger: AppOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    serializers: {
      ...(base as { serializers?: Record<string, unknown> }).serializers,
      req: (request: {
        method: string;
        url: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  } as FastifyServerOptions['logger'];
}

/** Serves the built console, with every unknown GET outside the APIs answered by index.html. */
async function registerConsole(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const root = resolve(webDist ?? join(import.meta.dirname, '../../web/dist'));
  const hasConsole = existsSync(join(root, 'index.html'));
  if (hasConsole) {
    await app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' };
      });
      await scope.register(fastifyStatic, { root, wildcard: true, index: 'index.html' });
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = request.url.startsWith(QUERY_PREFIX) || request.url.startsWith(COMMAND_PREFIX);
    if (hasConsole && request.method === 'GET' && !isApi && !request.url.startsWith('/assets/')) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html')
        .send(await readFile(join(root, 'index.html')));
    }
    const message = (request.t ?? translator('en'))('errors.NOT_FOUND');
    return reply.status(404).send({ success: false, error: { code: 'NOT_FOUND', message } });
  });
}
