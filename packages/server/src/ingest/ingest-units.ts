import type { ConfigReport } from '@lampyr/contract';

/** What the ingest hands the batch writer: one MQTT message's readings, sighting, logs and answers. */

export interface Reading {
  accountId: number;
  deviceId: number;
  templateId: number;
  /** 0 for the channel itself; a sub-device channel's package order. */
  subChannel: number;
  channelCode: string;
  value: number;
  status: string;
  dateTime: Date;
  /**
   * With the time, the reading's identity: `fcnt:<n>` for LoRaWAN frames, the device's time for a
   * Lampyr uplink that states one, `h:<payload digest>` for one that does not (received-at time).
   */
  frameKey: string;
}

export interface DeviceSeen {
  accountId: number;
  deviceId: number;
  dateTime: Date;
  rssi: number | null;
  snr: number | null;
  /** The gateway that heard the frame best (ChirpStack's `gatewayId`), and every gateway that heard it. */
  gateway?: string | null;
  gateways?: string[];
  /** The network server's device status (ChirpStack `event/status`), and when it was reported. */
  health?: DeviceHealth;
  healthAt?: Date;
}

export interface DeviceHealth {
  /** 0–100 %, null when the device cannot tell or runs on external power. */
  batteryLevel: number | null;
  externalPower: boolean | null;
  /** The demodulation margin of the device's last LinkCheckReq, in dB. */
  linkMargin: number | null;
}

export interface DataLogEntry {
  accountId: number;
  topic: string;
  deviceUid: string | null;
  reason: string;
  payload: string;
  /** What exactly was wrong (the decoder's finding, the time a device gave…); never SQL. */
  detail?: string | null;
}

/** A channel write's answer from the device (or the network server). */
export interface WriteAnswer {
  /** The command's random id, and the device whose topic the answer came on: both must match. */
  downlinkId: string;
  deviceId: number;
  status: 'acknowledged' | 'failed';
  message: string | null;
  answeredAt: Date;
  /** A gateway's txack: it settles only a write sent unconfirmed (a confirmed one waits for the ack). */
  unconfirmedOnly?: boolean;
}

/** The message a unit came from, kept in the data log (`store_failed`) if the unit cannot be stored. */
export interface UnitSource {
  /** The device's account when known; the writer's fallback account otherwise. */
  accountId?: number;
  topic: string;
  deviceUid: string | null;
  /** The payload as text (the handler's, not the socket's buffer, which would keep its chunk alive). */
  payload: string;
}

/** A device's config report (docs/device-config.md), for the deployment engine once the unit is stored. */
export interface ConfigReportUnit {
  accountId: number;
  deviceId: number;
  report: ConfigReport;
  receivedAt: Date;
}

/**
 * A gateway's stats (ChirpStack `event/stats`, every stats interval): the gateway is alive — online,
 * last seen at `at` — even when no luminaire's frame went through it, and its counters of the interval.
 */
export interface GatewayStatsUnit {
  gatewayId: number;
  accountId: number;
  at: Date;
  rxPacketsReceived: number;
  rxPacketsReceivedOk: number;
  txPacketsReceived: number;
  txPacketsEmitted: number;
}

/** Everything one MQTT message leads to; stored in one transaction with the rest of its batch. */
export interface IngestUnit {
  readings?: Reading[];
  gatewayStats?: GatewayStatsUnit[];
  configReports?: ConfigReportUnit[];
  seen?: DeviceSeen;
  logs?: DataLogEntry[];
  answers?: WriteAnswer[];
  source?: UnitSource;
}

export interface FrameQuery {
  deviceId: number;
  templateId: number;
  subChannel: number;
  frameKey: string;
  since: Date;
  until: Date;
}
