import { createServer, type Server } from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerPortTakenError, type EmbeddedBroker, startEmbeddedBroker } from '../src/ingest/embedded-broker.ts';

const lampyr = { username: 'lampyr', password: 'lampyr-secret' };
let squatter: Server;
let taken: number;
let broker: EmbeddedBroker | undefined;

beforeAll(async () => {
  // Another program (Mosquitto, here) holding the port.
  squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  taken = (squatter.address() as { port: number }).port;
});
afterAll(async () => {
  await broker?.close();
  await new Promise((resolve) => squatter.close(resolve));
});

describe('embedded broker port', () => {
  it('set explicitly and taken: fails, naming the port and what to do', async () => {
    const start = startEmbeddedBroker({ port: taken, host: '127.0.0.1', lampyr });
    await expect(start).rejects.toThrow(BrokerPortTakenError);
    await expect(start).rejects.toThrow(`MQTT port ${taken} is already in use`);
    await expect(start).rejects.toThrow('MQTT_PORT');
  });

  it('not set and taken: takes the next free port, where clients connect', async () => {
    broker = await startEmbeddedBroker({
      port: taken,
      nextFreePort: true,
      host: '127.0.0.1',
      lampyr,
    });
    expect(broker.port).toBeGreaterThan(taken);
    expect(broker.port).toBeLessThan(taken + 100);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      ...lampyr,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    expect(client.connected).toBe(true);
    await client.endAsync();
    // The squatter still has its port.
    expect((squatter.address() as { port: number }).port).toBe(taken);
  });
});
