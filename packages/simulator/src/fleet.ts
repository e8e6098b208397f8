import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  CONFIG_FPORT,
  type ConfigCommand,
  configCommandFromJson,
  configReportToJson,
  decodeConfigCommand,
  encodeConfigReport,
} from '@lampyr/contract';
import mqtt, { type MqttClient } from 'mqtt';
import {
  ackEvent,
  DEMO_TENANT,
  type DeviceInfo,
  type GatewayCounters,
  gatewayStatsEvent,
  type Reception,
  txackEvent,
  upEvent,
} from './chirpstack-messages.ts';
import type { ControllerState } from './controller.ts';
import { Controller } from './controller.ts';
import { type Channel, DEMO_APPLICATION_ID, devEuiOf, GATEWAY_EUIS, ipUidOf, LAYOUTS } from './demo-fleet.ts';
import { decodeDownlink, encodeUplink } from './payload-codec.ts';
import { type Fault, isFault, StreetLight } from './street-light.ts';

export { encodeUplink } from './payload-codec.ts';
export { FAULTS, type Fault, isFault, StreetLight } from './street-light.ts';

export interface DeviceLogin {
  username: string;
  password: string;
}

export interface FleetOptions {
  url: string;
  /** The LoRaWAN fleet's one connection, as ChirpStack's integration: ChirpStack's credentials. */
  username?: string;
  password?: string;
  /**
   * Each IP device's own broker login (username = its uid). Without it IP devices log in with
   * `username`/`password` too (a broker that has no per-device logins).
   */
  ipLogin?: (uid: string) => Promise<DeviceLogin | undefined> | DeviceLogin | undefined;
  /** LoRaWAN lights, numbered as the seed numbers them (1 … n). */
  lights: number;
  ipDevices: number;
  reportingPeriodMs: number;
  /** Chance per report that a device falls silent for a few periods (node loss). */
  silenceChance?: number;
  /** Devices (devEui or uid) lost in the field: they never report. */
  lost?: readonly string[];
  applicationId?: string;
  /**
   * Now and then one reporting device develops a fault for a while — over-voltage (268 V, beyond +15 %) or a lamp
   * that draws nothing — and recovers: the first after `firstAfterMs`, then one every `everyMs`, each
   * lasting `forMs`. Off unless given (the demo's alarms raise and clear with it).
   */
  faults?: { everyMs: number; forMs: number; firstAfterMs?: number };
  seed?: number;
  log?: (line: string) => void;
  /**
   * A JSON file keeping each controller's program, override and schedule state across restarts
   * (`npm start` puts it in the data folder). Without it a restart starts from the factory program.
   */
  stateFile?: string;
  /** The controllers' clock (tests drive it); the real time by default. */
  now?: () => Date;
  /** How often the controllers look at their schedule (default 15 s). */
  scheduleCheckMs?: number;
  /**
   * How often each gateway publishes its stats (`eu868/gateway/<id>/event/stats`, as ChirpStack's
   * Gateway Bridge does every stats interval); default 30 s, 0 for none.
   */
  gatewayStatsMs?: number;
  /** Gateways that are down: they forward no frame and send no stats. */
  gatewaysDown?: readonly string[];
}

/** The region prefix of the simulated gateways' topics (ChirpStack's EU868 default). */
export const GATEWAY_TOPIC_PREFIX = 'eu868';

const noCounts = (): GatewayCounters => ({
  rxPacketsReceived: 0,
  rxPacketsReceivedOk: 0,
  txPacketsReceived: 0,
  txPacketsEmitted: 0,
});

const DAY_MS = 86_400_000;

interface SimulatedDevice {
  light: StreetLight;
  kind: 'lorawan' | 'ip';
  /** An IP device's own connection. */
  client?: MqttClient;
  deviceInfo?: DeviceInfo;
  devAddr?: string;
  timer?: NodeJS.Timeout;
}

/** A small deterministic PRNG, so a fleet started with a seed behaves the same every time. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Street-light controllers behind ChirpStack (one MQTT connection, as ChirpStack's integration has)
 * and IP controllers speaking Lampyr's JSON. Each reports every period, obeys on/off/dim, answers
 * commands, falls silent now and then, and can be told to fail.
 */
export class Fleet {
  readonly devices = new Map<string, SimulatedDevice>();
  private client?: MqttClient;
  private readonly random: () => number;
  private readonly applicationId: string;
  private stopped = false;
  private faultTimers: NodeJS.Timeout[] = [];
  private faultsMade = 0;
  private scheduleTimer?: NodeJS.Timeout;
  private saveTimer?: NodeJS.Timeout;
  private statsTimer?: NodeJS.Timeout;
  /** Each gateway's counters since its last stats. */
  private readonly gatewayCounts = new Map<string, GatewayCounters>(GATEWAY_EUIS.map((g) => [g, noCounts()]));

  constructor(private readonly options: FleetOptions) {
    this.random = mulberry32(options.seed ?? Date.now());
    this.applicationId = options.applicationId ?? DEMO_APPLICATION_ID;
    for (let n = 1; n <= options.lights; n++) {
      const devEui = devEuiOf(n);
      const layout: readonly Channel[] = n <= 10 ? LAYOUTS.l1 : LAYOUTS.l2;
      this.devices.set(devEui, {
        kind: 'lorawan',
        light: new StreetLight(devEui, layout, this.random),
        devAddr: (0x01fa0000 + n).toString(16).padStart(8, '0'),
        deviceInfo: {
          ...DEMO_TENANT,
          applicationId: this.applicationId,
          deviceName: `KDK-SLC-${String(n).padStart(4, '0')}`,
          devEui,
          tags: { region: n <= 100 ? 'caferaga' : 'moda' },
        },
      });
    }
    for (let n = 1; n <= options.ipDevices; n++) {
      const uid = ipUidOf(n);
      this.devices.set(uid, { kind: 'ip', light: new StreetLight(uid, LAYOUTS.l2, this.random) });
    }
    this.loadState();
  }

  /**
   * Sets what energy meters read (kWh, by devEui or uid): the last reading the server stored, so
   * each meter goes on from where its history ends. Others keep their random reading.
   */
  setMeters(meters: ReadonlyMap<string, number>): void {
    for (const [id, kWh] of meters) {
      const device = this.devices.get(id);
      if (device && Number.isFinite(kWh) && kWh >= 0) device.light.energyKwh = kWh;
    }
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private loadState(): void {
    const file = this.options.stateFile;
    if (!file || !existsSync(file)) return;
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as {
        devices?: Record<string, ControllerState & { lampLevel?: number }>;
      };
      for (const [id, state] of Object.entries(saved.devices ?? {})) {
        const device = this.devices.get(id);
        if (!device) continue;
        device.light.controller = new Controller(state);
        // The lamp comes back as it was: the program's level, or a manual write it held.
        if (typeof state.lampLevel === 'number') device.light.setLevel(state.lampLevel);
      }
    } catch (error) {
      this.options.log?.(`simulator: state file ${file} unreadable, starting fresh (${(error as Error).message})`);
    }
  }

  /** Writes every controller's state (atomically: a crash mid-write leaves the last good file). */
  saveState(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const file = this.options.stateFile;
    if (!file) return;
    const devices = Object.fromEntries(
      [...this.devices].map(([id, d]) => [id, { ...d.light.controller.state(), lampLevel: d.light.level }]),
    );
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify({ devices }));
    renameSync(`${file}.tmp`, file);
  }

  private saveSoon(): void {
    if (!this.options.stateFile || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.saveState(), 500);
    this.saveTimer.unref();
  }

  /**
   * Every controller looks at its schedule: a switch point passed (or an override ended) changes
   * its lamp. Runs from the controllers' own clocks, whether the broker is there or not.
   */
  checkSchedules(): void {
    const now = this.now();
    let changed = false;
    for (const device of this.devices.values()) {
      const hadOverride = device.light.controller.override !== null;
      const level = device.light.controller.tick(now);
      if (level !== undefined) {
        device.light.setLevel(level);
        changed = true;
      }
      if (hadOverride && device.light.controller.override === null) changed = true;
    }
    if (changed) this.saveSoon();
  }

  private async connect(name: string, login: Partial<DeviceLogin>): Promise<MqttClient> {
    const client = mqtt.connect(this.options.url, {
      clientId: `lampyr-simulator-${name}-${process.pid}-${Math.floor(this.random() * 1e6)}`,
      username: login.username,
      password: login.password,
      clean: true,
      reconnectPeriod: 2000,
      protocolVersion: 4,
    });
    client.on('message', (topic, payload) => this.onCommand(topic, payload));
    client.on('error', (error) => this.options.log?.(`simulator (${name}): ${error.message}`));
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    }).catch(async (error) => {
      await client.endAsync(true);
      throw error;
    });
    return client;
  }

  async start(): Promise<void> {
    this.checkSchedules();
    this.scheduleTimer = setInterval(() => this.checkSchedules(), this.options.scheduleCheckMs ?? 15_000);
    this.scheduleTimer.unref();
    // The LoRaWAN lights speak through one connection, as ChirpStack does.
    const shared = { username: this.options.username, password: this.options.password };
    const client = await this.connect('chirpstack', shared);
    this.client = client;
    await client.subscribeAsync([`application/${this.applicationId}/device/+/command/down`, 'simulator/fault'], {
      qos: 1,
    });
    // Each IP device on its own login, listening to its own commands only.
    for (const [uid, device] of this.devices) {
      if (device.kind !== 'ip') continue;
      const login = this.options.ipLogin ? await this.options.ipLogin(uid) : shared;
      if (!login) {
        this.options.log?.(`simulator: ${uid} has no broker login (not registered?); it stays off`);
        continue;
      }
      const own = await this.connect(uid, login);
      device.client = own;
      await own.subscribeAsync(`lampyr/${uid}/down`, { qos: 1 });
      // An operator may give the device a new password (which disconnects it): ask again before reconnecting.
      const ipLogin = this.options.ipLogin;
      if (ipLogin)
        own.on('close', () => {
          Promise.resolve(ipLogin(uid)).then(
            (fresh) => {
              if (fresh) own.options.password = fresh.password;
            },
            () => {},
          );
        });
    }
    // Spread the first reports over one period, as real devices powered on at different times.
    const lost = new Set(this.options.lost ?? []);
    const reporting: string[] = [];
    for (const [id, device] of this.devices) {
      if (lost.has(id) || (device.kind === 'ip' && !device.client)) continue;
      const first = this.random() * this.options.reportingPeriodMs;
      device.timer = setTimeout(() => this.tick(device), first);
      reporting.push(id);
    }
    this.scheduleFaults(reporting);
    const statsMs = this.options.gatewayStatsMs ?? 30_000;
    if (statsMs > 0) {
      this.statsTimer = setInterval(() => this.publishGatewayStats(), statsMs);
      this.statsTimer.unref();
      // Gateways that were up before the simulator started say so at once.
      this.publishGatewayStats();
    }
  }

  private gatewayUp(gatewayId: string): boolean {
    return !(this.options.gatewaysDown ?? []).includes(gatewayId);
  }

  /** Frames heard by gateways that are up (a frame heard by none is lost on the air). */
  private heard(receptions: Reception[]): Reception[] {
    const up = receptions.filter((r) => this.gatewayUp(r.gatewayId));
    for (const r of up) {
      const counts = this.gatewayCounts.get(r.gatewayId);
      if (!counts) continue;
      counts.rxPacketsReceived++;
      counts.rxPacketsReceivedOk++;
    }
    return up;
  }

  /** Each gateway that is up publishes its counters since the last stats, then starts counting again. */
  publishGatewayStats(): void {
    if (this.stopped) return;
    const now = this.now();
    for (const [gatewayId, counts] of this.gatewayCounts) {
      if (!this.gatewayUp(gatewayId)) continue;
      // A gateway also hears frames that fail their CRC (other networks, noise).
      counts.rxPacketsReceived += Math.floor(this.random() * 3);
      this.publish(
        `${GATEWAY_TOPIC_PREFIX}/gateway/${gatewayId}/event/stats`,
        gatewayStatsEvent(gatewayId, now, counts),
      );
      this.gatewayCounts.set(gatewayId, noCounts());
    }
  }

  /** Starts the periodic faults of `options.faults`. */
  private scheduleFaults(reporting: string[]): void {
    const faults = this.options.faults;
    if (!faults || !reporting.length) return;
    const make = () => {
      if (this.stopped) return;
      // Alternately over-voltage (on a device that meters voltage) and a lamp drawing nothing.
      const kind: Fault = this.faultsMade++ % 2 === 0 ? 'over_voltage' : 'no_power';
      const candidates = reporting.filter(
        (id) => kind !== 'over_voltage' || this.devices.get(id)?.light.layout.some(([code]) => code === 'voltage'),
      );
      const id = candidates[Math.floor(this.random() * candidates.length)];
      if (!id) return;
      this.injectFault(id, kind);
      this.options.log?.(`simulator: ${id} reports ${kind.replace('_', ' ')} for ${Math.round(faults.forMs / 1000)} s`);
      const recover = setTimeout(() => this.injectFault(id, undefined), faults.forMs);
      recover.unref?.();
      this.faultTimers.push(recover);
    };
    const first = setTimeout(() => {
      make();
      const every = setInterval(make, faults.everyMs);
      every.unref?.();
      this.faultTimers.push(every);
    }, faults.firstAfterMs ?? faults.everyMs);
    first.unref?.();
    this.faultTimers.push(first);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.faultTimers) clearTimeout(timer);
    clearInterval(this.scheduleTimer);
    clearInterval(this.statsTimer);
    if (this.options.stateFile) this.saveState();
    for (const device of this.devices.values()) clearTimeout(device.timer);
    await Promise.all([this.client?.endAsync(), ...[...this.devices.values()].map((d) => d.client?.endAsync(true))]);
  }

  /** Makes a device fail (or recover with `fault: undefined`). */
  injectFault(id: string, fault: Fault | undefined): boolean {
    const device = this.devices.get(id);
    if (!device) return false;
    if (fault) device.light.faults.add(fault);
    else device.light.faults.clear();
    return true;
  }

  private tick(device: SimulatedDevice): void {
    if (this.stopped) return;
    device.timer = setTimeout(() => this.tick(device), this.options.reportingPeriodMs);
    const light = device.light;
    if (light.silentFor > 0) {
      light.silentFor--;
      return;
    }
    if (this.random() < (this.options.silenceChance ?? 0.01)) {
      light.silentFor = 2 + Math.floor(this.random() * 4);
      return;
    }
    this.report(device);
    // Once a day each controller states its configuration unasked.
    if (this.now().getTime() - light.lastConfigReportAt >= DAY_MS) this.configReport(device);
  }

  /** Carries out a configuration command and answers with a config report. */
  private configure(device: SimulatedDevice, command: ConfigCommand | undefined): void {
    const light = device.light;
    const now = this.now();
    const answered = light.controller.apply(command, now);
    if (command?.op === 'clear-device-data') light.clearData();
    if (answered.changed) {
      const level = light.controller.tick(now);
      if (level !== undefined) light.setLevel(level);
      this.saveSoon();
    }
    this.configReport(device, answered);
  }

  configReport(device: SimulatedDevice, answered?: { answers?: ConfigCommand['op']; ok: boolean }): void {
    const light = device.light;
    const now = this.now();
    light.lastConfigReportAt = now.getTime();
    const report = light.controller.report(now, light.level, answered);
    if (device.kind === 'ip') {
      this.publish(
        `lampyr/${light.id}/up`,
        { ts: now.toISOString(), config: configReportToJson(report) },
        device.client,
      );
      return;
    }
    light.fCnt++;
    const message = upEvent({
      deviceInfo: device.deviceInfo as DeviceInfo,
      devAddr: device.devAddr as string,
      fCnt: light.fCnt,
      fPort: CONFIG_FPORT,
      data: Buffer.from(encodeConfigReport(report)),
      receptions: this.heard([{ gatewayId: GATEWAY_EUIS[0], rssi: -90, snr: 7.5 }]),
      time: now,
    });
    if (!message.rxInfo.length) return;
    this.publish(`application/${this.applicationId}/device/${light.id}/event/up`, message);
  }

  report(device: SimulatedDevice): void {
    const values = device.light.read(this.now().getTime());
    if (device.kind === 'ip') {
      const message = { ts: new Date().toISOString(), values };
      this.publish(`lampyr/${device.light.id}/up`, message, device.client);
      return;
    }
    const light = device.light;
    light.fCnt++;
    const n = Number.parseInt(light.id.slice(-4), 16);
    const primary = GATEWAY_EUIS[n % GATEWAY_EUIS.length] as string;
    const secondary = GATEWAY_EUIS[(n + 1) % GATEWAY_EUIS.length] as string;
    const receptions = [
      {
        gatewayId: primary,
        rssi: Math.round(-85 - this.random() * 20),
        snr: Math.round((4 + this.random() * 6) * 4) / 4,
      },
      ...(this.random() < 0.5
        ? [
            {
              gatewayId: secondary,
              rssi: Math.round(-108 - this.random() * 10),
              snr: Math.round((-6 + this.random() * 5) * 4) / 4,
            },
          ]
        : []),
    ];
    const message = upEvent({
      deviceInfo: device.deviceInfo as DeviceInfo,
      devAddr: device.devAddr as string,
      fCnt: light.fCnt,
      data: encodeUplink(light.layout, values),
      receptions: this.heard(receptions),
      time: new Date(),
    });
    if (!message.rxInfo.length) return;
    this.publish(`application/${this.applicationId}/device/${light.id}/event/up`, message);
  }

  private publish(topic: string, message: unknown, client = this.client): void {
    client?.publish(topic, JSON.stringify(message), { qos: 1 });
  }

  private onCommand(topic: string, payload: Buffer): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const parts = topic.split('/');
    if (topic === 'simulator/fault') {
      const fault = isFault(message.fault) ? message.fault : undefined;
      this.injectFault(String(message.device), fault);
      return;
    }
    if (parts[0] === 'lampyr') {
      this.onLampyrDown(parts[1] as string, message);
      return;
    }
    const device = this.devices.get(String(parts[3]).toLowerCase());
    // A light lost in the field hears nothing.
    if (this.options.lost?.includes(String(parts[3]).toLowerCase())) return;
    if (!device?.deviceInfo || typeof message.data !== 'string' || typeof message.id !== 'string') return;
    const light = device.light;
    const data = Buffer.from(message.data, 'base64');
    const isConfig = message.fPort === CONFIG_FPORT;
    const command = isConfig ? undefined : decodeDownlink(light.layout, data);
    const applied = isConfig ? data.length > 0 : command ? light.apply(command.code, command.value) : false;
    light.fCntDown++;
    const base = `application/${this.applicationId}/device/${light.id}/event`;
    const gateway = this.gatewayCounts.get(GATEWAY_EUIS[0]);
    if (gateway) {
      gateway.txPacketsReceived++;
      gateway.txPacketsEmitted++;
    }
    this.publish(`${base}/txack`, txackEvent(device.deviceInfo, message.id, light.fCntDown, GATEWAY_EUIS[0]));
    // Only a confirmed downlink is acknowledged by the device (LoRaWAN's ACK bit).
    if (message.confirmed === true) {
      this.publish(`${base}/ack`, ackEvent(device.deviceInfo, message.id, light.fCntDown, applied));
    }
    if (isConfig) {
      const config = decodeConfigCommand(data);
      setTimeout(() => this.configure(device, config), 100);
      return;
    }
    // Class C lights report their new state right away.
    if (applied) setTimeout(() => this.report(device), 200);
  }

  private onLampyrDown(uid: string, message: Record<string, unknown>): void {
    const device = this.devices.get(uid);
    if (!device) return;
    // A command that arrives after its time (a broker kept it while the device was away) is ignored.
    if (typeof message.expiresAt === 'string' && Date.parse(message.expiresAt) < Date.now()) return;
    if (message.config !== undefined) {
      const command = configCommandFromJson(message.config);
      this.publish(
        `lampyr/${uid}/ack`,
        { id: message.id, ok: command !== undefined, message: command ? null : 'bad config command' },
        device.client,
      );
      this.configure(device, command);
      return;
    }
    if (typeof message.values !== 'object' || message.values === null) return;
    const failures = Object.entries(message.values as Record<string, unknown>).filter(
      ([code, value]) => typeof value !== 'number' || !device.light.apply(code, value),
    );
    this.publish(
      `lampyr/${uid}/ack`,
      {
        id: message.id,
        ok: failures.length === 0,
        message: failures.length ? `cannot write ${failures.map(([code]) => code).join(', ')}` : null,
      },
      device.client,
    );
    setTimeout(() => this.report(device), 200);
  }
}
