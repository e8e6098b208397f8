import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { CONSTANTS, catalogue } from '@lampyr/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AccessResolver } from './access/access.ts';
import { commandPolicies } from './access/command-policy.ts';
import { tenancyFields, tenancyPolicies } from './access/tenancy-policy.ts';
import { registerAlarmRoutes } from './api/alarm-routes.ts';
import { registerAuthRoutes } from './api/auth-routes.ts';
import type { AppContext } from './api/context.ts';
import { registerDashboardRoutes } from './api/dashboard-routes.ts';
import { registerDeviceConfigRoutes } from './api/device-config-routes.ts';
import { refuseInactiveDevice, registerDeviceCredentialRoutes } from './api/device-credential-routes.ts';
import { registerDeviceMapRoutes } from './api/device-map-routes.ts';
import { installErrorHandler } from './api/errors.ts';
import { installGuard } from './api/guard.ts';
import { registerLampStateRoutes } from './api/lamp-state-routes.ts';
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
import { registerTaskGroupMemberRoutes } from './api/task-group-member-routes.ts';
import { registerTransferRoutes } from './api/transfer-routes.ts';
import { registerWorkOrderRoutes } from './api/work-order-routes.ts';
import type { SecretBox } from './auth/secret-box.ts';
import { bumpTokenVersion, TokenVersions } from './auth/token-versions.ts';
import { Tokens } from './auth/tokens.ts';
import { ALL_ROLES, type Role } from './config.ts';
import { checkAlertTemplate } from './data/alert-template-check.ts';
import { overridesForPlan } from './data/overrides.ts';
import { createRepositories } from './data/resource-repository.ts';
import { afterGenericReport, reopenReturnedFaults } from './data/work-orders.ts';
import type { Db } from './db/connect.ts';
import { resourceTables } from './db/schema/index.ts';
import { AlarmEngine, type CommittedReading, type CommittedSighting } from './engines/alarms/alarm-engine.ts';
import { AutonomousEngine } from './engines/autonomous/autonomous-engine.ts';
import { NotificationService, type NotificationServiceOptions } from './engines/notifications/notification-service.ts';
import type { Notifier } from './engines/notifications/notifier.ts';
import type { Leadership } from './engines/scheduler/leadership.ts';
import { SchedulePreviews } from './engines/schedules/preview.ts';
import { RunningTasks } from './engines/schedules/running.ts';
import { ApiException } from './errors/api-exception.ts';
import { CommandEvents } from './events/command-events.ts';
import { LiveEvents } from './events/live-events.ts';
import type { SystemLog } from './events/system-log.ts';
import { localesDir, translator } from './i18n/translate.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { type ReadinessSources, readiness } from './readiness.ts';

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
  alarms?: {
    tickMs?: number;
    resyncMs?: number;
    minuteSeconds?: number;
    /** Lamp fault detection's times scaled, and how long a commanded state is trusted (tests). */
    faults?: { timeScale?: number; commandRefreshMs?: number };
    leadership?: Leadership;
  };
  /** How often fault reports written by other paths (the fault engine) are checked for a fault that came back (0 = never). */
  workOrderSweepMs?: number;
  /**
   * What this replica serves (default all): without query or command, that API answers 404; the
   * notification service and the alarm timers run with engines; the rules are loaded for ingest too.
   */
  roles?: readonly Role[];
  /** What /ready checks besides the database and migrations (the broker, the bus). */
  readiness?: Omit<ReadinessSources, 'db' | 'roles'>;
  /** The server's own log (the System Logs screen): refused sign-ins in bulk are written to it. */
  systemLog?: SystemLog;
}

/** The HTTP side of Lampyr: query API, command API, auth, docs, and the built console. */
export async function buildApp(options: AppOptions): Promise<{
  app: FastifyInstance;
  ctx: AppContext;
  notifications: NotificationService;
  alarms: AlarmEngine;
  autonomous: AutonomousEngine;
  onCommitted(readings: readonly CommittedReading[], seen: readonly CommittedSighting[]): void;
}> {
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
    policies: {
      ...tenancyPolicies({ db: options.db, mailer, onSecurityEdit }),
      ...commandPolicies,
      // A fault reported through the generic create gets its history and may reopen a closed work order.
      'report-a-fault': {
        create:
          async ({ actor }) =>
          (record) =>
            afterGenericReport(options.db, actor, record, new Date()),
      },
    },
    checks: { 'channel-write-values': refuseInactiveDevice, 'alert-device-parameter-templates': checkAlertTemplate },
    virtualFields: tenancyFields(),
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
  const roles = options.roles ?? ALL_ROLES;
  const has = (role: Role) => roles.includes(role);
  if (has('engines')) {
    app.addHook('onReady', async () => notifications.start());
    app.addHook('onClose', async () => notifications.stop());
  }
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
    onError: (error) => {
      app.log.error(error, 'alarms');
      options.systemLog?.error('alarms', error);
    },
    ...options.alarms,
    // Timers and node loss tick on an engines replica only (and there on the leader).
    ...(has('engines') ? {} : { tickMs: 0 }),
  });
  ctx.alarms = alarms;
  if (has('engines') || has('ingest') || has('command')) {
    app.addHook('onReady', () => alarms.start(ctx.commands));
    app.addHook('onClose', () => alarms.stop());
  }
  // A load balancer sends each API to the replicas serving it; a misrouted call is told so, not served.
  app.addHook('onRequest', async (request) => {
    if (!has('query') && request.url.startsWith(QUERY_PREFIX)) throw new ApiException('NOT_FOUND');
    if (!has('command') && request.url.startsWith(COMMAND_PREFIX)) throw new ApiException('NOT_FOUND');
  });
  if (options.systemLog) {
    const systemLog = options.systemLog;
    app.addHook('onResponse', async (request, reply) => {
      if (
        request.method === 'POST' &&
        request.url.split('?')[0] === `${COMMAND_PREFIX}/auth/login` &&
        (reply.statusCode === 401 || reply.statusCode === 429)
      )
        systemLog.refusedLogin(request.ip);
    });
  }
  // Autonomous profiles switch lights on what their sensors read (DEVICES.md, issue 12).
  const autonomous = new AutonomousEngine({
    db: options.db,
    commands: ctx.commands,
    now: () => new Date(),
    onError: (error) => app.log.error(error, 'autonomous profiles'),
  });
  // Its profiles judge what the ingest commits: loaded where the ingest runs.
  if (has('ingest')) {
    app.addHook('onReady', () => autonomous.start());
    app.addHook('onClose', () => autonomous.stop());
  }
  /** What the ingest hands over after each commit: every engine that judges readings. */
  const onCommitted = (readings: readonly CommittedReading[], seen: readonly CommittedSighting[]) => {
    alarms.onCommitted(readings, seen);
    autonomous.onCommitted(readings);
  };

  // Faults the fault engine opens may be a fault that came back within a week of its work order closing.
  const sweepMs = options.workOrderSweepMs ?? 60_000;
  let sweep: NodeJS.Timeout | undefined;
  if (sweepMs > 0) {
    app.addHook('onReady', async () => {
      sweep = setInterval(() => {
        reopenReturnedFaults(options.db, new Date()).catch((error) => app.log.error(error, 'work orders'));
      }, sweepMs);
      sweep.unref();
    });
    app.addHook('onClose', async () => clearInterval(sweep));
  }

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
  registerDeviceMapRoutes(app, ctx);
  registerLampStateRoutes(app, ctx);
  registerTaskGroupMemberRoutes(app, ctx);
  registerAlarmRoutes(app, ctx);
  registerTransferRoutes(app, ctx);
  registerPlatformRoutes(app, ctx);
  registerDeviceCredentialRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerNotificationRoutes(app, ctx);
  registerWorkOrderRoutes(app, ctx);
  const previews = new SchedulePreviews(options.db, (deviceIds, from, until) =>
    overridesForPlan(options.db, deviceIds, from, until),
  );
  const running = new RunningTasks(options.db);
  registerScheduleRoutes(app, ctx, {
    preview: (accountId, request, now) => previews.preview(accountId, request, now),
    running: (accountId, now) => running.running(accountId, now),
  });
  registerDeviceConfigRoutes(app, ctx);

  // Liveness: the process answers. Readiness: it can do its roles' work now (load balancers route on it).
  app.get('/health', { config: { access: 'public' } }, async () => ({
    success: true,
    data: { status: 'ok', roles },
  }));
  app.get('/ready', { config: { access: 'public' } }, async (_request, reply) => {
    const { ready, checks } = await readiness({ db: options.db, roles, ...options.readiness });
    const leading = options.readiness?.leading?.();
    return reply.status(ready ? 200 : 503).send({
      success: ready,
      data: { ready, roles, checks, ...(leading === undefined ? {} : { leading }) },
    });
  });
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
  return { app, ctx, notifications, alarms, autonomous, onCommitted };
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
