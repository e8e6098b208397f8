import { field } from '../fields.ts';
import { defineResource } from '../resource.ts';

export const accounts = defineResource({
  name: 'accounts',
  route: 'system/account',
  scope: 'accounts',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    // The account tree: changed only by platform operators, through their own routes.
    accountId: field.ref('accounts', { list: true, readOnly: true }),
    isSubAccount: field.boolean({ list: true, readOnly: true }),
    isActive: field.boolean({ list: true, readOnly: true }),
    isIntegrator: field.boolean({ list: true, readOnly: true }),
    name: field.text({ required: true, list: true, search: true }),
    companyName: field.text({ list: true, search: true }),
    email: field.email({ list: true, search: true }),
    phone: field.phone(),
    web: field.url(),
    logoImage: field.image(),
    backgroundColor: field.color(),
    backgroundImage: field.image(),
    // What energy costs and emits here, and whose calendar days its reports count in.
    tariffPerKwh: field.number({ min: 0, max: 1000 }),
    currency: field.text({ maxLength: 3 }),
    emissionFactor: field.number({ min: 0, max: 2 }),
    // Unset: the zone of the city most of its regions are in (data/time-zones.ts), else UTC.
    timeZone: field.text({ format: 'timeZone', maxLength: 64 }),
  },
});

export const roles = defineResource({
  name: 'roles',
  route: 'system/roles',
  scope: 'global',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    permissions: field.json({ required: true }),
  },
});

export const users = defineResource({
  name: 'users',
  route: 'users',
  menuGroup: 'system',
  scope: 'members',
  display: 'email',
  defaultSort: 'email,asc',
  fields: {
    title: field.text({ list: true }),
    firstName: field.text({ required: true, list: true, search: true }),
    lastName: field.text({ required: true, list: true, search: true }),
    email: field.email({ required: true, list: true, search: true }),
    /**
     * In a sub-account: the person acts there as a member of its integrator (the integrator's staff),
     * managed in the integrator's account, not here.
     */
    integratorStaff: field.boolean({ list: true, readOnly: true, virtual: true }),
    phoneNumber: field.phone({ list: true }),
    language: field.enum(['en', 'tr'], { list: true }),
    picture: field.image(),
    roleId: field.ref('roles', { required: true, list: true }),
    emailVerified: field.boolean({ list: true, readOnly: true }),
    isPlatformOperator: field.boolean({ readOnly: true }),
  },
});

export const usersRoles = defineResource({
  name: 'users-roles',
  route: 'system/users-roles',
  scope: 'account',
  display: 'id',
  fields: {
    userId: field.ref('users', { required: true, list: true }),
    roleId: field.ref('roles', { required: true, list: true }),
  },
});

export const countries = defineResource({
  name: 'countries',
  route: 'system/countries',
  scope: 'global',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    /** The zone its cities keep their clocks in unless a city names its own. */
    timeZone: field.text({ list: true, format: 'timeZone', maxLength: 64 }),
    /** ISO 3166-1 alpha-2 (TR): whose public holidays schedules keep. */
    isoCode: field.text({ list: true, min: 2, maxLength: 2 }),
  },
});

export const states = defineResource({
  name: 'states',
  route: 'system/states',
  scope: 'global',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    countryId: field.ref('countries', { required: true, list: true }),
  },
});

export const cities = defineResource({
  name: 'cities',
  route: 'system/cities',
  scope: 'global',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    stateId: field.ref('states', { required: true, list: true }),
    countryId: field.ref('countries', { required: true, list: true }),
    latitude: field.number({ required: true, min: -90, max: 90, list: true }),
    longitude: field.number({ required: true, min: -180, max: 180, list: true }),
    /** IANA zone of its local days (schedules, sun times); its country's when left empty. */
    timeZone: field.text({ list: true, format: 'timeZone', maxLength: 64 }),
  },
});

export const addresses = defineResource({
  name: 'addresses',
  route: 'system/addresses',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    address: field.text({ required: true, list: true, search: true }),
    street: field.text({ list: true, search: true }),
    neighbourhood: field.text({ search: true }),
    postalCode: field.text({ maxLength: 16 }),
    cityId: field.ref('cities', { required: true, list: true }),
    stateId: field.ref('states', { required: true }),
    countryId: field.ref('countries', { required: true }),
  },
});

export const regions = defineResource({
  name: 'regions',
  route: 'system/regions',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    district: field.text({ list: true, search: true }),
    districtLatitude: field.number({ min: -90, max: 90 }),
    districtLongitude: field.number({ min: -180, max: 180 }),
    cityId: field.ref('cities', { required: true, list: true }),
    stateId: field.ref('states', { required: true }),
    countryId: field.ref('countries', { required: true }),
    address: field.text({ search: true }),
    notes: field.longText(),
  },
});

/**
 * Sun times per city and local date, computed by Lampyr (engines/sun-times) for the next 400 days:
 * times are the city's local clock times; a polar day or night has no sunrise or sunset and says so.
 */
export const sunsetSunrises = defineResource({
  name: 'sunsetsunrises',
  route: 'system/sunsetsunrises',
  scope: 'global',
  display: 'date',
  defaultSort: 'date,desc',
  readOnly: true,
  fields: {
    date: field.date({ required: true, list: true }),
    sunrise: field.time({ list: true }),
    sunset: field.time({ list: true }),
    dawn: field.time(),
    dusk: field.time(),
    nauticalDawn: field.time(),
    nauticalDusk: field.time(),
    polarDay: field.boolean({ list: true }),
    polarNight: field.boolean({ list: true }),
    timeZone: field.text({ maxLength: 64 }),
    cityId: field.ref('cities', { required: true, list: true }),
    stateId: field.ref('states', { required: true }),
    countryId: field.ref('countries', { required: true }),
  },
});

export const systemLogSettings = defineResource({
  name: 'system-log-settings',
  route: 'system/system-log-settings',
  scope: 'account',
  display: 'name',
  defaultSort: 'name,asc',
  fields: {
    name: field.text({ required: true, list: true, search: true }),
    level: field.enum(['debug', 'info', 'warn', 'error'], { required: true, list: true }),
    retentionDays: field.integer({ required: true, min: 1, max: 3650, list: true }),
    isActive: field.boolean({ list: true }),
  },
});

export const transactionLogs = defineResource({
  name: 'transaction-logs',
  route: 'logs/transaction-logs',
  scope: 'account',
  display: 'id',
  readOnly: true,
  fields: {
    userId: field.ref('users', { list: true }),
    resource: field.text({ list: true, search: true }),
    // Every action a log line is written with: the generic screens' create/update/delete, the alarm
    // lifecycle, the device commands (CONFIG_OPS), work-order transitions, resends and credentials.
    action: field.enum(
      [
        'create',
        'update',
        'delete',
        'raise',
        'acknowledge',
        'shelve',
        'clear',
        'resend',
        'credentials-reveal',
        'credentials-rotate',
        'config-request',
        'clear-device-data',
        'reset-device-config',
        'deploy',
        'override',
        'cancel-override',
        'assign',
        'plan',
        'start',
        'resolve',
        'close',
        'reopen',
      ],
      { list: true },
    ),
    recordId: field.integer({ list: true }),
    before: field.json(),
    after: field.json(),
  },
});
