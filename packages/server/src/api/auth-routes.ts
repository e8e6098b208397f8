import {
  changeEmailSchema,
  changePasswordSchema,
  confirmEmailSchema,
  emailOnlySchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  verifyOtpSchema,
} from '@lampyr/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TFunction } from 'i18next';
import { CODE_TTL_MINUTES, type CodePurpose, consumeCode, issueCode } from '../auth/one-time-codes.ts';
import { hashSecret, verifySecret } from '../auth/passwords.ts';
import { accounts, roles, users, usersRoles } from '../db/schema/index.ts';
import type { AppContext } from './context.ts';
import { ApiException } from './errors.ts';
import { parseBody } from './parse-body.ts';
import { COMMAND_PREFIX, QUERY_PREFIX } from './resource-routes.ts';

type UserRow = typeof users.$inferSelect;

/** What a client sees of a user: never the hash, never a code. */
export function userDto(user: UserRow) {
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

// Attempts are counted per address and per e-mail, so one noisy client cannot lock out another.
const limited = (max: number) => ({
  access: 'public' as const,
  rateLimit: {
    max,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      return `${request.ip}:${typeof email === 'string' ? email.toLowerCase() : ''}`;
    },
  },
});

const normalise = (email: string) => email.trim().toLowerCase();

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const auth = `${COMMAND_PREFIX}/auth`;
  const schema = { tags: ['auth'] };

  const findUser = async (email: string) =>
    (
      await db
        .select()
        .from(users)
        .where(eq(users.email, normalise(email)))
        .limit(1)
    )[0];

  const sendCode = async (user: UserRow, purpose: CodePurpose, t: TFunction) => {
    const code = await issueCode(db, user.id, purpose);
    const prefix = purpose === 'verify' ? 'mail.otp' : 'mail.reset';
    await ctx.mailer.send({
      to: user.email,
      subject: t(`${prefix}Subject`),
      text: t(`${prefix}Body`, { code, minutes: CODE_TTL_MINUTES }),
    });
  };

  const accountsOf = async (userId: number) => {
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
    return page.content;
  };

  app.post(`${auth}/register`, { config: limited(10), schema }, async (request, reply) => {
    const body = parseBody(registerSchema, request.body);
    const email = normalise(body.email);
    const existing = await findUser(email);
    if (existing?.emailVerified) throw new ApiException('CONFLICT', 'errors.emailTaken');
    const passwordHash = await hashSecret(body.password);
    const details = {
      firstName: body.firstName,
      lastName: body.lastName,
      phoneNumber: body.phoneNumber,
      title: body.title,
      passwordHash,
      updatedAt: new Date(),
    };
    let user: UserRow;
    if (existing) {
      [user] = (await db.update(users).set(details).where(eq(users.id, existing.id)).returning()) as [UserRow];
    } else {
      const [adminRole] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'Administrator')).limit(1);
      if (!adminRole) throw new Error('The Administrator role is missing: the database was not seeded');
      [user] = (await db
        .insert(users)
        .values({ ...details, email, roleId: adminRole.id })
        .returning()) as [UserRow];
    }
    await sendCode(user, 'verify', request.t);
    return reply.status(201).send({ success: true, data: { email, verificationRequired: true } });
  });

  app.post(`${auth}/resend-otp`, { config: limited(5), schema }, async (request) => {
    const { email } = parseBody(emailOnlySchema, request.body);
    const user = await findUser(email);
    if (user && !user.emailVerified) await sendCode(user, 'verify', request.t);
    return { success: true, data: { email: normalise(email) } };
  });

  app.post(`${auth}/verify-otp`, { config: limited(10), schema }, async (request) => {
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
    return { success: true, data: { email: user.email, verified: true } };
  });

  app.post(`${auth}/login`, { config: limited(10), schema }, async (request) => {
    const { email, password } = parseBody(loginSchema, request.body);
    const user = await findUser(email);
    if (!user || !(await verifySecret(user.passwordHash, password)))
      throw new ApiException('UNAUTHENTICATED', 'errors.badLogin');
    if (!user.emailVerified) throw new ApiException('FORBIDDEN', 'errors.notVerified');
    const token = await ctx.tokens.sign(user.id);
    return { success: true, data: { token, user: userDto(user), accounts: await accountsOf(user.id) } };
  });

  app.post(`${auth}/forgot-password`, { config: limited(5), schema }, async (request) => {
    const { email } = parseBody(emailOnlySchema, request.body);
    const user = await findUser(email);
    // The answer is the same whether or not the address is known.
    if (user) await sendCode(user, 'reset', request.t);
    return { success: true, data: { email: normalise(email) } };
  });

  app.post(`${auth}/reset-password`, { config: limited(10), schema }, async (request) => {
    const { email, code, password } = parseBody(resetPasswordSchema, request.body);
    const user = await findUser(email);
    if (!user || !(await consumeCode(db, user.id, 'reset', code))) {
      throw new ApiException('VALIDATION', 'errors.badCode', {}, { code: request.t('errors.badCode') });
    }
    // Proving the mailbox also verifies it.
    await db
      .update(users)
      .set({ passwordHash: await hashSecret(password), emailVerified: true, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    return { success: true, data: { email: user.email } };
  });

  app.post(
    `${auth}/change-password`,
    { config: { access: 'user', rateLimit: { max: 10, timeWindow: '1 minute' } }, schema },
    async (request) => {
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
      return { success: true, data: { changed: true } };
    },
  );

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
      return { success: true, data: { pendingEmail: email } };
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
      return { success: true, data: { user: userDto(updated) } };
    },
  );

  app.get(`${QUERY_PREFIX}/auth/me`, { config: { access: 'user' }, schema }, async (request) => {
    const [user] = await db.select().from(users).where(eq(users.id, request.actor.userId)).limit(1);
    if (!user) throw new ApiException('UNAUTHENTICATED');
    return { success: true, data: { user: userDto(user), accounts: await accountsOf(user.id) } };
  });
}
