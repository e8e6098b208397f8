import {
  type AccountRecord,
  type AuthAnswers,
  changeEmailSchema,
  changePasswordSchema,
  confirmEmailSchema,
  emailOnlySchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  type UserDto,
  verifyOtpSchema,
} from '@lampyr/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TFunction } from 'i18next';
import { consolePermissions } from '../access/console-permissions.ts';
import { CODE_TTL_MINUTES, type CodePurpose, consumeCode, issueCode } from '../auth/one-time-codes.ts';
import { hashSecret, verifySecret } from '../auth/passwords.ts';
import {
  issueRefreshToken,
  REFRESH_TTL_SECONDS,
  redeemRefreshToken,
  revokeRefreshToken,
} from '../auth/refresh-tokens.ts';
import { blockedFor, clearFailures, hit, recordFailure, under } from '../auth/sign-in-limits.ts';
import { bumpTokenVersion } from '../auth/token-versions.ts';
import { TOKEN_TTL_SECONDS } from '../auth/tokens.ts';
import { accounts, roles, users, usersRoles } from '../db/schema/index.ts';
import { ApiException } from '../errors/api-exception.ts';
import type { AppContext } from './context.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './prefixes.ts';

type UserRow = typeof users.$inferSelect;

/** What a client sees of a user: never the hash, never a code. */
export function userDto(user: UserRow): UserDto {
  return {
    id: user.id,
    title: user.title,
    firstName: user.firstName,
    lastName: user.lastName,
    name: `${user.firstName} ${user.lastName}`.trim(),
    email: user.email,
    phoneNumber: user.phoneNumber,
    language: user.language,
    picture: user.picture,
    roleId: user.roleId,
    emailVerified: user.emailVerified,
    isPlatformOperator: user.isPlatformOperator,
  };
}

const normalise = (email: string) => email.trim().toLowerCase();

/** The refresh credential's cookie: httpOnly, SameSite=Strict, sent only to the auth routes. */
export const REFRESH_COOKIE = 'lampyr_refresh';

/**
 * Per-address limits (calls per window, in seconds), whatever the e-mail: one address cannot
 * spray sign-ins, codes or registrations over many e-mails. Counted in the database.
 */
const PER_ADDRESS = {
  login: [20, 60],
  register: [10, 600],
  'resend-otp': [10, 600],
  'forgot-password': [10, 600],
  'verify-otp': [20, 60],
  'reset-password': [20, 60],
  refresh: [60, 60],
} as const;

// A hash to verify against when the e-mail is unknown, so an unknown address costs the same time.
let dummyHash: Promise<string> | undefined;
const dummyVerify = (password: string) => {
  dummyHash ??= hashSecret('lampyr-no-such-user');
  return dummyHash.then((hashed) => verifySecret(hashed, password));
};

/**
 * Sign-in, codes and tokens.
 *
 * Answers never tell whether an e-mail is registered: `register` answers 201 "check your mail"
 * for a new address, an unverified one (a new code, the row untouched) and a verified one (its
 * owner is mailed that someone tried); `forgot-password` and `resend-otp` answer the same either
 * way; `login` verifies a password against a dummy hash for an unknown address. Mail is composed
 * and sent after the answer, so its cost does not show in the answer's time either.
 *
 * Tokens: a 15-minute access token (with the user's token version) in the answer's body, and a
 * refresh credential in an httpOnly cookie that `POST /auth/refresh` rotates. `logout`, a
 * password change or reset bump the token version, which ends every token, refresh credential
 * and open stream of the user.
 */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const auth = `${COMMAND_PREFIX}/auth`;
  const schema = { tags: ['auth'] };
  const publicRoute = { config: { access: 'public' as const }, schema };

  const findUser = async (email: string) =>
    (
      await db
        .select()
        .from(users)
        .where(eq(users.email, normalise(email)))
        .limit(1)
    )[0];

  /** 429 once the key is over its limit. */
  const limit = async (key: string, max: number, windowSeconds: number) => {
    if (!(await hit(db, key, max, windowSeconds))) throw new ApiException('RATE_LIMITED');
  };
  const limitAddress = (request: FastifyRequest, route: keyof typeof PER_ADDRESS) => {
    const [max, windowSeconds] = PER_ADDRESS[route];
    return limit(`${route}:ip:${request.ip}`, max, windowSeconds);
  };

  // Work done after the answer (mail); awaited when the app closes.
  const pending = new Set<Promise<void>>();
  const later = (work: () => Promise<void>) => {
    const running = work().catch((error: unknown) => app.log.error({ err: error }, 'sending a mail failed'));
    pending.add(running);
    void running.finally(() => pending.delete(running));
  };
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });

  const sendCode = async (user: UserRow, purpose: CodePurpose, t: TFunction) => {
    const code = await issueCode(db, user.id, purpose);
    if (code === undefined) return; // over the hourly limit: nothing is sent
    const prefix = purpose === 'verify' ? 'mail.otp' : 'mail.reset';
    await ctx.mailer.send({
      to: user.email,
      subject: t(`${prefix}Subject`),
      text: t(`${prefix}Body`, { code, minutes: CODE_TTL_MINUTES }),
    });
  };

  /** A new access token and refresh cookie for the user at its current token version. */
  const startSession = async (
    reply: FastifyReply,
    request: FastifyRequest,
    user: { id: number; tokenVersion: number },
  ) => {
    const refresh = await issueRefreshToken(db, user.id, user.tokenVersion);
    setRefreshCookie(reply, request, refresh);
    return ctx.tokens.sign(user.id, user.tokenVersion);
  };

  const accountsOf = async (userId: number): Promise<AccountRecord[]> => {
    const access = await ctx.access.accountsOf(userId);
    const repo = ctx.repositories.get('accounts');
    if (!repo || access.size === 0) return [];
    const page = await repo.list(
      { userId, accessibleAccountIds: [...access.keys()] },
      {
        filter: null,
        detailFilter: null,
        selectedColumns: null,
        pageable: { page: 1, size: 1000, sort: ['name,asc'] },
      },
      1,
    );
    // The accounts repository answers the accounts resource's records.
    return page.content as AccountRecord[];
  };

  app.post(`${auth}/register`, publicRoute, async (request, reply) => {
    await limitAddress(request, 'register');
    const body = parseBody(registerSchema, request.body);
    const email = normalise(body.email);
    // Hashed whatever happens next, so every branch costs the same.
    const passwordHash = await hashSecret(body.password);
    let user = await findUser(email);
    if (!user) {
      const [adminRole] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'Administrator')).limit(1);
      if (!adminRole) throw new Error('The Administrator role is missing: the database was not seeded');
      const [created] = await db
        .insert(users)
        .values({
          email,
          firstName: body.firstName,
          lastName: body.lastName,
          phoneNumber: body.phoneNumber,
          title: body.title,
          passwordHash,
          roleId: adminRole.id,
        })
        .onConflictDoNothing({ target: users.email })
        .returning();
      // Lost a race with another registration of the same address: that row stands, untouched.
      user = created ?? (await findUser(email));
    }
    const target = user;
    const t = request.t;
    if (target && !target.emailVerified) {
      // A new or still unverified address gets a code; an existing row is never rewritten.
      later(() => sendCode(target, 'verify', t));
    } else if (target) {
      later(async () => {
        if (!(await hit(db, `registered-mail:${target.id}`, 3, 3600))) return;
        await ctx.mailer.send({
          to: target.email,
          subject: t('mail.registeredSubject'),
          text: t('mail.registeredBody'),
        });
      });
    }
    return reply
      .status(201)
      .send({ success: true, data: { email, verificationRequired: true } satisfies AuthAnswers['register'] });
  });

  app.post(`${auth}/resend-otp`, publicRoute, async (request) => {
    await limitAddress(request, 'resend-otp');
    const { email } = parseBody(emailOnlySchema, request.body);
    const user = await findUser(email);
    const t = request.t;
    if (user && !user.emailVerified) later(() => sendCode(user, 'verify', t));
    return { success: true, data: { email: normalise(email) } satisfies AuthAnswers['resendOtp'] };
  });

  app.post(`${auth}/verify-otp`, publicRoute, async (request) => {
    await limitAddress(request, 'verify-otp');
    const { email, code } = parseBody(verifyOtpSchema, request.body);
    const user = await findUser(email);
    if (!user || user.emailVerified || !(await consumeCode(db, user.id, 'verify', code))) {
      throw new ApiException('VALIDATION', 'errors.badCode', {}, { code: request.t('errors.badCode') });
    }
    // A newly verified person gets an account of their own to work in.
    await db.transaction(async (tx) => {
      await tx.update(users).set({ emailVerified: true, updatedAt: new Date() }).where(eq(users.id, user.id));
      const [account] = await tx
        .insert(accounts)
        .values({ name: `${user.firstName} ${user.lastName}`.trim(), email: user.email, isActive: true })
        .returning({ id: accounts.id });
      await tx.insert(usersRoles).values({ accountId: account?.id as number, userId: user.id, roleId: user.roleId });
    });
    ctx.access.invalidate();
    return { success: true, data: { email: user.email, verified: true } satisfies AuthAnswers['verifyOtp'] };
  });

  app.post(`${auth}/login`, publicRoute, async (request, reply) => {
    // Failed sign-ins count per address (a whole office behind one NAT signing in at 8:00 is not an
    // attack): past the limit, even a right password waits for the window to pass.
    const [max, windowSeconds] = PER_ADDRESS.login;
    const addressKey = `login:ip:${request.ip}`;
    if (!(await under(db, addressKey, max, windowSeconds))) throw new ApiException('RATE_LIMITED');
    const { email, password } = parseBody(loginSchema, request.body);
    const failures = `login:email:${normalise(email)}`;
    // Failed sign-ins of one e-mail from anywhere: a short backoff that grows with each failure.
    const wait = await blockedFor(db, failures);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new ApiException('RATE_LIMITED');
    }
    const user = await findUser(email);
    const valid = user?.passwordHash ? await verifySecret(user.passwordHash, password) : await dummyVerify(password);
    if (!user || !valid) {
      await hit(db, addressKey, max, windowSeconds);
      await recordFailure(db, failures);
      throw new ApiException('UNAUTHENTICATED', 'errors.badLogin');
    }
    await clearFailures(db, failures);
    if (!user.emailVerified) throw new ApiException('FORBIDDEN', 'errors.notVerified');
    const token = await startSession(reply, request, user);
    return {
      success: true,
      data: {
        token,
        expiresIn: TOKEN_TTL_SECONDS,
        user: userDto(user),
        accounts: await accountsOf(user.id),
      } satisfies AuthAnswers['login'],
    };
  });

  app.post(`${auth}/refresh`, publicRoute, async (request, reply) => {
    await limitAddress(request, 'refresh');
    const presented = request.cookies[REFRESH_COOKIE];
    const redeemed = presented ? await redeemRefreshToken(db, presented) : { ok: false as const };
    const user = redeemed.ok
      ? (await db.select().from(users).where(eq(users.id, redeemed.userId)).limit(1))[0]
      : undefined;
    if (!redeemed.ok || !user?.emailVerified || user.tokenVersion !== redeemed.tokenVersion) {
      clearRefreshCookie(reply);
      throw new ApiException('UNAUTHENTICATED');
    }
    if (redeemed.next) setRefreshCookie(reply, request, redeemed.next);
    const token = await ctx.tokens.sign(user.id, user.tokenVersion);
    return { success: true, data: { token, expiresIn: TOKEN_TTL_SECONDS } satisfies AuthAnswers['refresh'] };
  });

  app.post(`${auth}/logout`, { config: { access: 'user' }, schema }, async (request, reply) => {
    const presented = request.cookies[REFRESH_COOKIE];
    if (presented) await revokeRefreshToken(db, presented);
    // Every token, refresh credential and stream of the user ends (on every device).
    await bumpTokenVersion(db, request.actor.userId);
    clearRefreshCookie(reply);
    return { success: true, data: { loggedOut: true } satisfies AuthAnswers['logout'] };
  });

  app.post(`${auth}/forgot-password`, publicRoute, async (request) => {
    await limitAddress(request, 'forgot-password');
    const { email } = parseBody(emailOnlySchema, request.body);
    const user = await findUser(email);
    const t = request.t;
    // The answer is the same whether or not the address is known.
    if (user) later(() => sendCode(user, 'reset', t));
    return { success: true, data: { email: normalise(email) } satisfies AuthAnswers['forgotPassword'] };
  });

  app.post(`${auth}/reset-password`, publicRoute, async (request) => {
    await limitAddress(request, 'reset-password');
    const { email, code, password } = parseBody(resetPasswordSchema, request.body);
    const user = await findUser(email);
    if (!user || !(await consumeCode(db, user.id, 'reset', code))) {
      throw new ApiException('VALIDATION', 'errors.badCode', {}, { code: request.t('errors.badCode') });
    }
    // Proving the mailbox also verifies it; every earlier token and session ends.
    await db
      .update(users)
      .set({ passwordHash: await hashSecret(password), emailVerified: true, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    await bumpTokenVersion(db, user.id);
    await clearFailures(db, `login:email:${user.email}`);
    return { success: true, data: { email: user.email } satisfies AuthAnswers['resetPassword'] };
  });

  app.post(`${auth}/change-password`, { config: { access: 'user' }, schema }, async (request, reply) => {
    await limit(`change-password:user:${request.actor.userId}`, 10, 600);
    const { currentPassword, newPassword } = parseBody(changePasswordSchema, request.body);
    const [user] = await db.select().from(users).where(eq(users.id, request.actor.userId)).limit(1);
    if (!user) throw new ApiException('UNAUTHENTICATED');
    if (!(await verifySecret(user.passwordHash, currentPassword))) {
      throw new ApiException(
        'VALIDATION',
        'errors.wrongPassword',
        {},
        { currentPassword: request.t('errors.wrongPassword') },
      );
    }
    await db
      .update(users)
      .set({ passwordHash: await hashSecret(newPassword), updatedAt: new Date() })
      .where(eq(users.id, user.id));
    // Every other session ends; this one continues with a new token.
    const tokenVersion = await bumpTokenVersion(db, user.id);
    const token = await startSession(reply, request, {
      id: user.id,
      tokenVersion: tokenVersion ?? user.tokenVersion + 1,
    });
    return {
      success: true,
      data: { changed: true, token, expiresIn: TOKEN_TTL_SECONDS } satisfies AuthAnswers['changePassword'],
    };
  });

  // A new e-mail address is taken only once a code sent to it comes back (proof of the mailbox),
  // and only from its owner (the current password).
  app.post(
    `${auth}/change-email`,
    { config: { access: 'user', rateLimit: { max: 5, timeWindow: '1 minute' } }, schema },
    async (request) => {
      const { newEmail, password } = parseBody(changeEmailSchema, request.body);
      const [user] = await db.select().from(users).where(eq(users.id, request.actor.userId)).limit(1);
      if (!user) throw new ApiException('UNAUTHENTICATED');
      if (!(await verifySecret(user.passwordHash, password)))
        throw new ApiException(
          'VALIDATION',
          'errors.wrongPassword',
          {},
          { password: request.t('errors.wrongPassword') },
        );
      const email = normalise(newEmail);
      if (email === user.email)
        throw new ApiException(
          'VALIDATION',
          'errors.emailUnchanged',
          {},
          { newEmail: request.t('errors.emailUnchanged') },
        );
      if (await findUser(email))
        throw new ApiException('VALIDATION', 'errors.emailTaken', {}, { newEmail: request.t('errors.emailTaken') });
      await db.update(users).set({ pendingEmail: email }).where(eq(users.id, user.id));
      const code = await issueCode(db, user.id, 'email');
      await ctx.mailer.send({
        to: email,
        subject: request.t('mail.changeEmailSubject'),
        text: request.t('mail.changeEmailBody', { code, minutes: CODE_TTL_MINUTES }),
      });
      return { success: true, data: { pendingEmail: email } satisfies AuthAnswers['changeEmail'] };
    },
  );

  app.post(
    `${auth}/confirm-email`,
    { config: { access: 'user', rateLimit: { max: 10, timeWindow: '1 minute' } }, schema },
    async (request) => {
      const { code } = parseBody(confirmEmailSchema, request.body);
      const [user] = await db.select().from(users).where(eq(users.id, request.actor.userId)).limit(1);
      if (!user) throw new ApiException('UNAUTHENTICATED');
      if (!user.pendingEmail || !(await consumeCode(db, user.id, 'email', code)))
        throw new ApiException('VALIDATION', 'errors.badCode', {}, { code: request.t('errors.badCode') });
      // The address may have been taken since the code was sent: the unique index answers 409.
      const [updated] = (await db
        .update(users)
        .set({ email: user.pendingEmail, pendingEmail: null, emailVerified: true, updatedAt: new Date() })
        .where(eq(users.id, user.id))
        .returning()) as [UserRow];
      return { success: true, data: { user: userDto(updated) } satisfies AuthAnswers['confirmEmail'] };
    },
  );

  app.get(`${QUERY_PREFIX}/auth/me`, { config: { access: 'user' }, schema }, async (request) => {
    const [user] = await db.select().from(users).where(eq(users.id, request.actor.userId)).limit(1);
    if (!user) throw new ApiException('UNAUTHENTICATED');
    return {
      success: true,
      data: {
        user: userDto(user),
        accounts: await accountsOf(user.id),
        permissions: consolePermissions(request.actor),
      } satisfies AuthAnswers['me'],
    };
  });
}

function setRefreshCookie(reply: FastifyReply, request: FastifyRequest, value: string): void {
  reply.setCookie(REFRESH_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: `${COMMAND_PREFIX}/auth`,
    maxAge: REFRESH_TTL_SECONDS,
  });
}

function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { path: `${COMMAND_PREFIX}/auth` });
}
