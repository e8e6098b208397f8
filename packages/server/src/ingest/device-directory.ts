import { normalizeEui64 } from '@lampyr/contract';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import {
  accounts,
  deviceChannelTemplates,
  deviceModels,
  devices,
  gatewayApplications,
  gateways,
  subDeviceChannelTemplates,
} from '../db/schema/index.ts';
import { type ChannelTemplate, type CompiledChannel, compileReadChannels } from './decode-payload.ts';

export interface KnownDevice {
  id: number;
  accountId: number;
  name: string;
  devEui: string | null;
  uid: string | null;
  applicationId: string | null;
  modelId: number;
  /** LoRaWAN application port of its channel writes (null: DOWNLINK_FPORT). */
  portNumber: number | null;
  /** Whether its downlinks are sent confirmed (settled by its ack) or not (by the gateway's txack). */
  confirmed: boolean;
  /** How many times a command is sent before it is given up (null: once). */
  connectionAttemptNumber: number | null;
  latitude: number | null;
  longitude: number | null;
  /** Its model keeps a schedule of its own (configuration commands, docs/device-config.md). */
  supportTask: boolean;
  isActive: boolean;
  /** Whether the device's account is active: a deactivated account's devices stop working. */
  accountActive: boolean;
  templates: ChannelTemplate[];
  readChannels: CompiledChannel[];
}

/** A registered gateway, as its stats need it. */
export interface KnownGateway {
  id: number;
  accountId: number;
  accountActive: boolean;
}

const TTL_MS = 60_000;
/** An unknown device is asked for again after this long, so one registered meanwhile is found. */
const MISS_TTL_MS = 10_000;

type Entry<T> = { at: number; value: Promise<T> };

/**
 * Devices by DevEUI or uid with their model's channel templates, as the ingest needs them on every
 * message: cached for a minute, so edits to a device or its templates take effect within one.
 */
export class DeviceDirectory {
  private devices = new Map<string, Entry<KnownDevice | undefined>>();
  private models = new Map<number, Entry<{ templates: ChannelTemplate[]; readChannels: CompiledChannel[] }>>();
  private applications = new Map<string, Entry<number | undefined>>();
  private lineages = new Map<number, Entry<number[]>>();
  private gateways = new Map<string, Entry<KnownGateway | undefined>>();
  private fallbackAccount?: Promise<number | undefined>;

  constructor(private readonly db: Db) {}

  byDevEui(devEui: string): Promise<KnownDevice | undefined> {
    const eui = normalizeEui64(devEui);
    if (!eui) return Promise.resolve(undefined);
    return this.cached(this.devices, `eui:${eui}`, () => this.load(eq(devices.devEui, eui)));
  }

  byUid(uid: string): Promise<KnownDevice | undefined> {
    return this.cached(this.devices, `uid:${uid}`, () => this.load(eq(devices.uid, uid)));
  }

  byId(id: number): Promise<KnownDevice | undefined> {
    return this.cached(this.devices, `id:${id}`, () => this.load(eq(devices.id, id)));
  }

  /** A gateway by its id as ChirpStack names it (`gatewayId`, its EUI: matched without regard to case). */
  gatewayByEui(gatewayId: string): Promise<KnownGateway | undefined> {
    const eui = normalizeEui64(gatewayId);
    if (!eui) return Promise.resolve(undefined);
    return this.cached(this.gateways, eui, async () => {
      const rows = await this.db
        .select({ id: gateways.id, accountId: gateways.accountId, accountActive: accounts.isActive })
        .from(gateways)
        .innerJoin(accounts, eq(accounts.id, gateways.accountId))
        .where(sql`lower(${gateways.devEui}) = ${eui}`)
        .limit(1);
      return rows[0];
    });
  }

  /** The account a ChirpStack application belongs to, for uplinks of devices not registered yet. */
  accountOfApplication(applicationId: string): Promise<number | undefined> {
    return this.cached(this.applications, applicationId, async () => {
      const rows = await this.db
        .select({ accountId: gatewayApplications.accountId })
        .from(gatewayApplications)
        .where(eq(gatewayApplications.chirpstackApplicationId, applicationId))
        .limit(1);
      return rows[0]?.accountId;
    });
  }

  /** The account and the accounts above it (its integrator), nearest first. */
  lineageOf(accountId: number): Promise<number[]> {
    return this.cached(this.lineages, accountId, async () => {
      const result = await this.db.execute(sql`
        WITH RECURSIVE up(id, parent, depth) AS (
          SELECT id, account_id, 0 FROM accounts WHERE id = ${accountId}
          UNION ALL SELECT a.id, a.account_id, up.depth + 1 FROM accounts a JOIN up ON a.id = up.parent WHERE up.depth < 16
        ) SELECT id FROM up ORDER BY depth`);
      return (result as unknown as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id));
    });
  }

  /** The ChirpStack application of an account, for devices registered without one. */
  async applicationOf(accountId: number): Promise<string | undefined> {
    const rows = await this.db
      .select({ id: gatewayApplications.chirpstackApplicationId })
      .from(gatewayApplications)
      .where(eq(gatewayApplications.accountId, accountId))
      .orderBy(asc(gatewayApplications.id))
      .limit(1);
    return rows[0]?.id ?? undefined;
  }

  /** Where messages that belong to no known account are logged: the first top-level account. */
  systemAccount(): Promise<number | undefined> {
    this.fallbackAccount ??= this.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(isNull(accounts.accountId))
      .orderBy(asc(accounts.id))
      .limit(1)
      .then((rows) => rows[0]?.id);
    return this.fallbackAccount;
  }

  forget(): void {
    this.devices.clear();
    this.models.clear();
    this.applications.clear();
    this.lineages.clear();
    this.gateways.clear();
    this.fallbackAccount = undefined;
  }

  private cached<K, T>(map: Map<K, Entry<T>>, key: K, load: () => Promise<T>): Promise<T> {
    const hit = map.get(key);
    const now = Date.now();
    if (hit && now - hit.at < TTL_MS) return hit.value;
    const value = load();
    map.set(key, { at: now, value });
    value.then(
      (v) => {
        if (v === undefined) map.set(key, { at: now - TTL_MS + MISS_TTL_MS, value });
      },
      () => map.delete(key),
    );
    return value;
  }

  private async load(where: ReturnType<typeof eq>): Promise<KnownDevice | undefined> {
    const rows = await this.db
      .select({
        id: devices.id,
        accountId: devices.accountId,
        name: devices.name,
        devEui: devices.devEui,
        uid: devices.uid,
        applicationId: devices.applicationId,
        modelId: devices.deviceTypeModelId,
        portNumber: devices.portNumber,
        confirmed: devices.confirmed,
        connectionAttemptNumber: devices.connectionAttemptNumber,
        latitude: devices.latitude,
        longitude: devices.longitude,
        supportTask: deviceModels.supportTask,
        isActive: devices.isActive,
        accountActive: accounts.isActive,
      })
      .from(devices)
      .innerJoin(accounts, eq(accounts.id, devices.accountId))
      .innerJoin(deviceModels, eq(deviceModels.id, devices.deviceTypeModelId))
      .where(and(where))
      .limit(1);
    const device = rows[0];
    if (!device) return undefined;
    const model = await this.model(device.modelId);
    return { ...device, ...model };
  }

  private model(modelId: number) {
    return this.cached(this.models, modelId, async () => {
      const templates = await this.db
        .select({
          id: deviceChannelTemplates.id,
          channelCode: deviceChannelTemplates.channelCode,
          channelType: deviceChannelTemplates.channelType,
          mqttPackageOrder: deviceChannelTemplates.mqttPackageOrder,
          dataByteLength: deviceChannelTemplates.dataByteLength,
          dataBitLength: deviceChannelTemplates.dataBitLength,
          dataType: deviceChannelTemplates.dataType,
          formula: deviceChannelTemplates.formula,
          variables: deviceChannelTemplates.variables,
          dataLimitMin: deviceChannelTemplates.dataLimitMin,
          dataLimitMax: deviceChannelTemplates.dataLimitMax,
        })
        .from(deviceChannelTemplates)
        .where(eq(deviceChannelTemplates.deviceTypeModelId, modelId));
      const subTemplates = !templates.length
        ? []
        : await this.db
            .select({
              id: subDeviceChannelTemplates.id,
              parentTemplateId: subDeviceChannelTemplates.parentTemplateId,
              channelCode: subDeviceChannelTemplates.channelCode,
              channelType: subDeviceChannelTemplates.channelType,
              mqttPackageOrder: subDeviceChannelTemplates.mqttPackageOrder,
              channelPackageOrder: subDeviceChannelTemplates.channelPackageOrder,
              dataByteLength: subDeviceChannelTemplates.dataByteLength,
              dataBitLength: subDeviceChannelTemplates.dataBitLength,
              dataType: subDeviceChannelTemplates.dataType,
              formula: subDeviceChannelTemplates.formula,
              variables: subDeviceChannelTemplates.variables,
              dataLimitMin: subDeviceChannelTemplates.dataLimitMin,
              dataLimitMax: subDeviceChannelTemplates.dataLimitMax,
            })
            .from(subDeviceChannelTemplates)
            .where(
              inArray(
                subDeviceChannelTemplates.parentTemplateId,
                templates.map((t) => t.id),
              ),
            );
      return { templates, readChannels: compileReadChannels(templates, subTemplates) };
    });
  }
}
