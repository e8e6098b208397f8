import { count, eq } from 'drizzle-orm';
import type { Permissions } from '../api/access.ts';
import { hashSecret } from '../auth/passwords.ts';
import type { Db } from '../db/connect.ts';
import {
  accounts,
  cities,
  countries,
  regions,
  roles,
  states,
  systemLogSettings,
  users,
  usersRoles,
} from '../db/schema/index.ts';
import { TURKEY } from './geography.ts';
import { seedStreetLighting } from './street-lighting.ts';

const ALL: Permissions = { '*': ['read', 'create', 'update', 'delete'] };
const READ: Permissions = { '*': ['read'] };
const OPERATOR: Permissions = {
  '*': ['read'],
  addresses: ['read', 'create', 'update', 'delete'],
  regions: ['read', 'create', 'update', 'delete'],
};

export interface SeedOptions {
  adminEmail: string;
  adminPassword: string;
}

export interface SeedResult {
  seeded: boolean;
  integratorId: number;
  subAccountIds: number[];
}

/** First start only: a demo integrator with two municipalities, an administrator, roles, geography. */
export async function seed(db: Db, options: SeedOptions): Promise<SeedResult> {
  const [existing] = await db.select({ n: count() }).from(accounts);
  if ((existing?.n ?? 0) > 0) {
    const [integrator] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.isIntegrator, true))
      .limit(1);
    const subs = integrator
      ? await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.accountId, integrator.id))
      : [];
    return { seeded: false, integratorId: integrator?.id ?? 0, subAccountIds: subs.map((s) => s.id) };
  }
  const passwordHash = await hashSecret(options.adminPassword);
  return db.transaction(async (tx) => {
    const [admin, ,] = await tx
      .insert(roles)
      .values([
        { name: 'Administrator', permissions: ALL },
        { name: 'Operator', permissions: OPERATOR },
        { name: 'Viewer', permissions: READ },
      ])
      .returning({ id: roles.id });
    const adminRoleId = admin?.id as number;

    const [integrator] = await tx
      .insert(accounts)
      .values({
        name: 'Lampyr Demo',
        companyName: 'Lampyr Demo Integrator',
        isIntegrator: true,
        email: 'ops@lampyr.local',
      })
      .returning({ id: accounts.id });
    const integratorId = integrator?.id as number;
    const subs = await tx
      .insert(accounts)
      .values([
        {
          name: 'Kadıköy Municipality',
          companyName: 'Kadıköy Belediyesi',
          accountId: integratorId,
          isSubAccount: true,
        },
        {
          name: 'Üsküdar Municipality',
          companyName: 'Üsküdar Belediyesi',
          accountId: integratorId,
          isSubAccount: true,
        },
      ])
      .returning({ id: accounts.id });

    const [user] = await tx
      .insert(users)
      .values({
        title: 'Administrator',
        firstName: 'Lampyr',
        lastName: 'Administrator',
        email: options.adminEmail.toLowerCase(),
        passwordHash,
        language: 'en',
        roleId: adminRoleId,
        emailVerified: true,
        isPlatformOperator: true,
      })
      .returning({ id: users.id });
    await tx.insert(usersRoles).values({ accountId: integratorId, userId: user?.id as number, roleId: adminRoleId });

    const [turkey] = await tx.insert(countries).values({ name: 'Türkiye' }).returning({ id: countries.id });
    const countryId = turkey?.id as number;
    const cityIds = new Map<string, { cityId: number; stateId: number }>();
    for (const province of TURKEY) {
      const [state] = await tx.insert(states).values({ name: province.state, countryId }).returning({ id: states.id });
      const stateId = state?.id as number;
      const inserted = await tx
        .insert(cities)
        .values(
          province.cities.map(([name, latitude, longitude]) => ({ name, stateId, countryId, latitude, longitude })),
        )
        .returning({ id: cities.id, name: cities.name });
      for (const c of inserted) cityIds.set(c.name, { cityId: c.id, stateId });
    }

    const place = (city: string) => ({ ...(cityIds.get(city) as { cityId: number; stateId: number }), countryId });
    const [kadikoy, uskudar] = subs.map((s) => s.id) as [number, number];
    const seededRegions = await tx
      .insert(regions)
      .values([
        {
          accountId: kadikoy,
          name: 'Caferağa',
          district: 'Kadıköy',
          districtLatitude: 40.9869,
          districtLongitude: 29.0253,
          ...place('Kadıköy'),
        },
        {
          accountId: kadikoy,
          name: 'Moda',
          district: 'Kadıköy',
          districtLatitude: 40.9814,
          districtLongitude: 29.0262,
          ...place('Kadıköy'),
        },
        {
          accountId: uskudar,
          name: 'Altunizade',
          district: 'Üsküdar',
          districtLatitude: 41.0217,
          districtLongitude: 29.0445,
          ...place('Üsküdar'),
        },
        {
          accountId: integratorId,
          name: 'Beşiktaş Centre',
          district: 'Beşiktaş',
          districtLatitude: 41.0422,
          districtLongitude: 29.0083,
          ...place('Beşiktaş'),
        },
      ])
      .returning({ id: regions.id });
    await seedStreetLighting(tx, {
      accountId: kadikoy,
      regionIds: { Caferağa: seededRegions[0]?.id as number, Moda: seededRegions[1]?.id as number },
    });
    await tx.insert(systemLogSettings).values(
      [integratorId, kadikoy, uskudar].map((accountId) => ({
        accountId,
        name: 'Default',
        level: 'info',
        retentionDays: 90,
      })),
    );
    return { seeded: true, integratorId, subAccountIds: [kadikoy, uskudar] };
  });
}
