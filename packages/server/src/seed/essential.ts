import type { Permissions } from '../access/access.ts';
import type { Db } from '../db/connect.ts';
import {
  accounts,
  channelValueTypes,
  cities,
  countries,
  deviceTopologyTypes,
  deviceTypeProtocols,
  roles,
  states,
  systemLogSettings,
  users,
  usersRoles,
} from '../db/schema/index.ts';
import { TURKEY } from './geography.ts';

type Tx = Pick<Db, 'insert'>;

const ALL: Permissions = { '*': ['read', 'create', 'update', 'delete'] };
const READ: Permissions = { '*': ['read'] };
const OPERATOR: Permissions = {
  '*': ['read'],
  addresses: ['read', 'create', 'update', 'delete'],
  regions: ['read', 'create', 'update', 'delete'],
  // Operators acknowledge, shelve and clear alarms (the alarm commands need update on alert logs).
  'alert-logs': ['read', 'update'],
};

/** The generic device lists every installation starts from (ids of the rows seeded). */
export interface DeviceReference {
  star: number;
  feed: number;
  lorawan: number;
  ip: number;
  /** Channel value types by name. */
  valueTypes: Map<string, number>;
}

export interface Essentials {
  adminRoleId: number;
  countryId: number;
  /** City and state ids by city name. */
  places: Map<string, { cityId: number; stateId: number }>;
  reference: DeviceReference;
}

/** What every installation needs, demo or not: roles, geography and the generic device lists. */
export async function seedReferenceData(tx: Tx): Promise<Essentials> {
  const [admin] = await tx
    .insert(roles)
    .values([
      { name: 'Administrator', permissions: ALL },
      { name: 'Operator', permissions: OPERATOR },
      { name: 'Viewer', permissions: READ },
    ])
    .returning({ id: roles.id });

  const [turkey] = await tx
    .insert(countries)
    .values({ name: 'Türkiye', timeZone: 'Europe/Istanbul', isoCode: 'TR' })
    .returning({ id: countries.id });
  const countryId = turkey?.id as number;
  const places = new Map<string, { cityId: number; stateId: number }>();
  for (const province of TURKEY) {
    const [state] = await tx.insert(states).values({ name: province.state, countryId }).returning({ id: states.id });
    const stateId = state?.id as number;
    const inserted = await tx
      .insert(cities)
      .values(province.cities.map(([name, latitude, longitude]) => ({ name, stateId, countryId, latitude, longitude })))
      .returning({ id: cities.id, name: cities.name });
    for (const c of inserted) places.set(c.name, { cityId: c.id, stateId });
  }

  const [star, feed] = await tx
    .insert(deviceTopologyTypes)
    .values([
      { name: 'LoRaWAN star', description: 'Controllers heard by gateways' },
      { name: 'Cabinet feed', description: 'Lights fed by a lighting cabinet' },
    ])
    .returning({ id: deviceTopologyTypes.id });
  const [lorawan, ip] = await tx
    .insert(deviceTypeProtocols)
    .values([
      { name: 'LoRaWAN', description: 'Through gateways and ChirpStack' },
      { name: 'MQTT (IP)', description: "Lampyr's JSON over MQTT" },
    ])
    .returning({ id: deviceTypeProtocols.id });
  const valueTypes = await tx
    .insert(channelValueTypes)
    .values(
      ['State', 'Percentage', 'Power', 'Voltage', 'Current', 'Energy', 'Illuminance', 'Temperature'].map((name) => ({
        name,
      })),
    )
    .returning({ id: channelValueTypes.id, name: channelValueTypes.name });
  return {
    adminRoleId: admin?.id as number,
    countryId,
    places,
    reference: {
      star: star?.id as number,
      feed: feed?.id as number,
      lorawan: lorawan?.id as number,
      ip: ip?.id as number,
      valueTypes: new Map(valueTypes.map((v) => [v.name, v.id])),
    },
  };
}

/** The operator's own account when there is no demo: an integrator, so customers' accounts go under it. */
export async function seedOperatorAccount(tx: Tx): Promise<number> {
  const [account] = await tx
    .insert(accounts)
    .values({ name: 'Lampyr', companyName: 'Lampyr', isIntegrator: true })
    .returning({ id: accounts.id });
  const accountId = account?.id as number;
  await tx.insert(systemLogSettings).values({ accountId, name: 'Default', level: 'info', retentionDays: 90 });
  return accountId;
}

/** The administrator (LAMPYR_ADMIN_EMAIL / LAMPYR_ADMIN_PASSWORD), an administrator of `accountId`. */
export async function seedAdministrator(
  tx: Tx,
  options: { email: string; passwordHash: string; accountId: number; roleId: number },
): Promise<number> {
  const [user] = await tx
    .insert(users)
    .values({
      title: 'Administrator',
      firstName: 'Lampyr',
      lastName: 'Administrator',
      email: options.email.toLowerCase(),
      passwordHash: options.passwordHash,
      language: 'en',
      roleId: options.roleId,
      emailVerified: true,
      isPlatformOperator: true,
    })
    .returning({ id: users.id });
  const userId = user?.id as number;
  await tx.insert(usersRoles).values({ accountId: options.accountId, userId, roleId: options.roleId });
  return userId;
}
