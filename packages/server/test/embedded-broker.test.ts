import { Fleet } from '@lampyr/simulator';
import { DEMO_APPLICATION_ID } from '@lampyr/simulator/demo-fleet';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedBroker, startEmbeddedBroker } from '../src/ingest/embedded-broker.ts';

const lampyr = { username: 'lampyr', password: 'lampyr-secret' };
const chirpstack = { username: 'chirpstack', password: 'chirpstack-secret' };
let broker: EmbeddedBroker;
const url = (b: EmbeddedBroker) => `mqtt://127.0.0.1:${b.port}`;
const connect = (b: EmbeddedBroker, options: mqtt.IClientOptions = {}) =>
  mqtt.connectAsync(url(b), { reconnectPeriod: 0, connectTimeout: 5000, ...options });

beforeAll(async () => {
  broker = await startEmbeddedBroker({ port: 0, host: '127.0.0.1', lampyr, chirpstack });
});
afterAll(async () => {
  await broker?.close();
});

describe('embedded broker', () => {
  it('refuses anonymous clients and wrong passwords', async () => {
    await expect(connect(broker)).rejects.toThrow(/bad user ?name or password|not authorized/i);
    await expect(connect(broker, { username: 'chirpstack', password: 'guess' })).rejects.toThrow();
    // Lampyr's password is not ChirpStack's, nor the other way round.
    await expect(connect(broker, { username: 'chirpstack', password: lampyr.password })).rejects.toThrow();
    await expect(connect(broker, { username: 'lampyr', password: chirpstack.password })).rejects.toThrow();
  });

  it("lets ChirpStack hear its devices' commands, not their uplinks, and keeps it connected", async () => {
    const device = await connect(broker, chirpstack);
    const granted = await device.subscribeAsync({
      [`application/${DEMO_APPLICATION_ID}/device/+/command/down`]: { qos: 1 },
    });
    expect(granted.map((g) => g.qos)).toEqual([1]);
    // IP devices' commands and everything (`#`) are not ChirpStack's.
    await expect(device.subscribeAsync('lampyr/+/down', { qos: 1 })).rejects.toMatchObject({
      packet: { granted: [128] },
    });
    await expect(device.subscribeAsync('#', { qos: 1 })).rejects.toMatchObject({ packet: { granted: [128] } });
    // Another device's uplinks: not granted (SUBACK 0x80), and the device stays connected.
    await expect(
      device.subscribeAsync(`application/${DEMO_APPLICATION_ID}/device/+/event/up`, { qos: 1 }),
    ).rejects.toMatchObject({ packet: { granted: [128] } });
    expect(device.connected).toBe(true);
    // Lampyr itself may subscribe to uplinks, and hears what a device publishes.
    const server = await connect(broker, lampyr);
    await server.subscribeAsync(`application/${DEMO_APPLICATION_ID}/device/+/event/up`, { qos: 1 });
    const heard = new Promise<string>((resolve) => server.once('message', (topic) => resolve(topic)));
    await device.publishAsync(`application/${DEMO_APPLICATION_ID}/device/70b3d57ed0050001/event/up`, '{}', { qos: 1 });
    expect(await heard).toContain('/event/up');
    // Its gateways' stats too (the gateway bridge's topics, with a region prefix or without).
    await server.subscribeAsync(['+/gateway/+/event/stats', 'gateway/+/event/stats'], { qos: 1 });
    const stats: string[] = [];
    server.on('message', (topic) => stats.push(topic));
    await device.publishAsync('eu868/gateway/a840411b2c3d4e5f/event/stats', '{}', { qos: 1 });
    await device.publishAsync('gateway/a840411b2c3d4e5f/event/stats', '{}', { qos: 1 });
    await expect
      .poll(() => stats)
      .toEqual(['eu868/gateway/a840411b2c3d4e5f/event/stats', 'gateway/a840411b2c3d4e5f/event/stats']);
    expect(device.connected).toBe(true);
    await Promise.all([device.endAsync(), server.endAsync()]);
  });

  it('closes a ChirpStack connection that publishes a gateway command', async () => {
    const device = await connect(broker, chirpstack);
    const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
    device.publish('eu868/gateway/a840411b2c3d4e5f/command/down', '{}', { qos: 0 });
    await closed;
    await device.endAsync(true);
  });

  it('runs the simulated LoRaWAN fleet as ChirpStack', async () => {
    const fleet = new Fleet({ url: url(broker), ...chirpstack, lights: 2, ipDevices: 0, reportingPeriodMs: 60_000 });
    await expect(fleet.start()).resolves.toBeUndefined();
    await fleet.stop();
  });
});
