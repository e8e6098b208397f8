import { randomUUID } from 'node:crypto';

/** What ChirpStack v4's MQTT integration says about the application and device (fixtures' shape). */
export interface DeviceInfo {
  tenantId: string;
  tenantName: string;
  applicationId: string;
  applicationName: string;
  deviceProfileId: string;
  deviceProfileName: string;
  deviceName: string;
  devEui: string;
  tags: Record<string, string>;
}

export const DEMO_TENANT = {
  tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
  tenantName: 'Kadikoy Municipality',
  applicationName: 'street-lighting',
  deviceProfileId: '6e2d0a6f-2c1b-4f7e-8a0e-1d2c3b4a5f60',
  deviceProfileName: 'SLC-LoRa-EU868-ClassC',
};

export interface Reception {
  gatewayId: string;
  rssi: number;
  snr: number;
}

/** `event/up`, as ChirpStack publishes it (see shared/fixtures/chirpstack-v4/up.json). */
export function upEvent(input: {
  deviceInfo: DeviceInfo;
  devAddr: string;
  fCnt: number;
  data: Buffer;
  receptions: Reception[];
  time: Date;
  /** 10 for readings; 50 (CONFIG_FPORT) for config reports. */
  fPort?: number;
}) {
  const time = input.time.toISOString();
  return {
    deduplicationId: randomUUID(),
    time,
    deviceInfo: input.deviceInfo,
    devAddr: input.devAddr,
    adr: true,
    dr: 3,
    fCnt: input.fCnt,
    fPort: input.fPort ?? 10,
    confirmed: false,
    data: input.data.toString('base64'),
    rxInfo: input.receptions.map((rx, i) => ({
      gatewayId: rx.gatewayId,
      uplinkId: Math.floor(Math.random() * 2 ** 32),
      gwTime: time,
      nsTime: time,
      rssi: rx.rssi,
      snr: rx.snr,
      channel: 3,
      rfChain: 0,
      context: Buffer.from([i, 0, 0, 0]).toString('base64'),
      crcStatus: 'CRC_OK',
    })),
    txInfo: {
      frequency: 867_500_000,
      modulation: { lora: { bandwidth: 125_000, spreadingFactor: 9, codeRate: 'CR_4_5' } },
    },
  };
}

/** `event/txack`: a gateway transmitted the downlink. */
export function txackEvent(deviceInfo: DeviceInfo, queueItemId: string, fCntDown: number, gatewayId: string) {
  return {
    downlinkId: Math.floor(Math.random() * 2 ** 32),
    time: new Date().toISOString(),
    deviceInfo,
    queueItemId,
    fCntDown,
    gatewayId,
    txInfo: {
      frequency: 869_525_000,
      power: 27,
      modulation: {
        lora: { bandwidth: 125_000, spreadingFactor: 12, codeRate: 'CR_4_5', polarizationInversion: true },
      },
      timing: { immediately: {} },
    },
  };
}

/** `event/ack`: the device acknowledged (or not) a confirmed downlink. */
export function ackEvent(deviceInfo: DeviceInfo, queueItemId: string, fCntDown: number, acknowledged: boolean) {
  return {
    deduplicationId: randomUUID(),
    time: new Date().toISOString(),
    deviceInfo,
    queueItemId,
    acknowledged,
    fCntDown,
  };
}

/** A gateway's counters over one stats interval. */
export interface GatewayCounters {
  rxPacketsReceived: number;
  rxPacketsReceivedOk: number;
  txPacketsReceived: number;
  txPacketsEmitted: number;
}

/**
 * `gw.GatewayStats` in the protobuf JSON mapping, as the ChirpStack Gateway Bridge (marshaler
 * `json`) publishes it on `<region>/gateway/<gatewayId>/event/stats` every stats interval. Like
 * every proto3 JSON message it leaves out counters that are zero.
 */
export function gatewayStatsEvent(gatewayId: string, time: Date, counters: GatewayCounters) {
  const nonZero = Object.fromEntries(Object.entries(counters).filter(([, v]) => v !== 0));
  return {
    gatewayId,
    time: time.toISOString(),
    ...nonZero,
    metadata: { simulator: 'lampyr' },
    rxPacketsPerFrequency: counters.rxPacketsReceivedOk ? { '867500000': counters.rxPacketsReceivedOk } : {},
    txPacketsPerFrequency: counters.txPacketsEmitted ? { '869525000': counters.txPacketsEmitted } : {},
    txPacketsPerStatus: counters.txPacketsEmitted ? { OK: counters.txPacketsEmitted } : {},
  };
}
