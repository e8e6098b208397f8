import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifySchema } from 'fastify';
import type { TFunction } from 'i18next';
import type { AccessResolver, Actor } from '../access/access.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { TokenVersions } from '../auth/token-versions.ts';
import type { Tokens } from '../auth/tokens.ts';
import type { AlarmCommands } from '../data/alarm-commands.ts';
import type { ResourceRepository } from '../data/resource-repository.ts';
import type { Db } from '../db/connect.ts';
import type { CommandEvents } from '../events/command-events.ts';
import type { LiveEvents } from '../events/live-events.ts';
import type { Mailer } from '../mail/mailer.ts';

/** Who may call a route: anyone, any signed-in user, or a user acting in an account. */
export type RouteAccess = 'public' | 'user';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every route with the access it declared, for the test that no route is left unguarded. */
    routeTable(): RouteEntry[];
  }
  interface FastifyRequest {
    actor: Actor;
    t: TFunction;
  }
}

export interface AppContext {
  db: Db;
  tokens: Tokens;
  /** Each user's current token version (a token of an older one is refused). */
  tokenVersions: TokenVersions;
  mailer: Mailer;
  /** An administrator changed a user's role or membership (tenancy-policy.ts): their tokens should end. */
  onSecurityEdit(userId: number): Promise<void>;
  access: AccessResolver;
  repositories: Map<string, ResourceRepository>;
  tables: Record<string, PgTable>;
  /** What the command API committed, for the device side to act on. */
  commands: CommandEvents;
  /** Live values and statuses, per account, for the stream. */
  live: LiveEvents;
  /** Seals the secrets Lampyr must use again (service passwords, device broker passwords). */
  secretBox: SecretBox;
  /** The alarm lifecycle commands (the alarm engine's). */
  alarms?: AlarmCommands;
}

/** A registered route as the guard saw it: what it answers, who may call it, its own schema. */
export interface RouteEntry {
  method: string | string[];
  url: string;
  access: RouteAccess;
  schema?: FastifySchema;
}
