import type { Db } from '../db/connect.ts';
import { accounts, regions, systemLogSettings } from '../db/schema/index.ts';
import { seedAlarmMail } from './alarm-demo.ts';
import type { Essentials } from './essential.ts';
import { seedStreetLighting } from './street-lighting.ts';

type Tx = Pick<Db, 'insert'>;

export interface DemoAccounts {
  integratorId: number;
  subAccountIds: [kadikoy: number, uskudar: number];
}

/** The demo integrator and its two municipalities; the administrator is made a member of the integrator. */
export async function seedDemoAccounts(tx: Tx): Promise<DemoAccounts> {
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
  return { integratorId, subAccountIds: subs.map((s) => s.id) as [number, number] };
}

/** The demo's regions, its street-lighting fleet in Kadıköy and the accounts' log settings. */
export async function seedDemoFleet(
  tx: Tx,
  demo: DemoAccounts,
  essentials: Essentials,
  adminEmail: string,
): Promise<void> {
  const { integratorId } = demo;
  const [kadikoy, uskudar] = demo.subAccountIds;
  const { countryId } = essentials;
  const place = (city: string) => ({
    ...(essentials.places.get(city) as { cityId: number; stateId: number }),
    countryId,
  });
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
    reference: essentials.reference,
  });
  await seedAlarmMail(tx, { accountId: kadikoy, adminEmail });
  await tx.insert(systemLogSettings).values(
    [integratorId, kadikoy, uskudar].map((accountId) => ({
      accountId,
      name: 'Default',
      level: 'info',
      retentionDays: 90,
    })),
  );
}
