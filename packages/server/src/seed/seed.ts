import { count, eq } from 'drizzle-orm';
import { hashSecret } from '../auth/passwords.ts';
import type { Db } from '../db/connect.ts';
import { accounts } from '../db/schema/index.ts';
import { seedDemoAccounts, seedDemoFleet } from './demo.ts';
import { seedAdministrator, seedOperatorAccount, seedReferenceData } from './essential.ts';

export interface SeedOptions {
  adminEmail: string;
  adminPassword: string;
  /** Also the demo integrator, its municipalities and their fleet (the embedded default, or LAMPYR_DEMO). */
  demo: boolean;
}

export interface SeedResult {
  seeded: boolean;
  /** The administrator's account: the demo integrator, or without the demo the operator's own account. */
  integratorId: number;
  subAccountIds: number[];
}

/**
 * First start only (an empty database): roles, geography, the generic device lists and the
 * administrator always; the demo accounts and fleet only when asked.
 */
export async function seed(db: Db, options: SeedOptions): Promise<SeedResult> {
  const [existing] = await db.select({ n: count() }).from(accounts);
  if ((existing?.n ?? 0) > 0) {
    const [integrator] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.isIntegrator, true))
      .orderBy(accounts.id)
      .limit(1);
    const subs = integrator
      ? await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.accountId, integrator.id))
      : [];
    return { seeded: false, integratorId: integrator?.id ?? 0, subAccountIds: subs.map((s) => s.id) };
  }
  const passwordHash = await hashSecret(options.adminPassword);
  return db.transaction(async (tx) => {
    const essentials = await seedReferenceData(tx);
    const demo = options.demo ? await seedDemoAccounts(tx) : undefined;
    const accountId = demo?.integratorId ?? (await seedOperatorAccount(tx));
    await seedAdministrator(tx, {
      email: options.adminEmail,
      passwordHash,
      accountId,
      roleId: essentials.adminRoleId,
    });
    if (demo) await seedDemoFleet(tx, demo, essentials, options.adminEmail);
    return { seeded: true, integratorId: accountId, subAccountIds: demo?.subAccountIds ?? [] };
  });
}
