import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { RunningServer } from './server.ts';

/** Lampyr's own broker login for a test run: given to the server, used by the test to publish as Lampyr. */
export const lampyrMqttLogin = () => ({ username: 'lampyr', password: randomBytes(18).toString('base64url') });

/** A client of the server's embedded broker with `login`, connected (a clean MQTT 3.1.1 session). */
export async function connectPublisher(
  server: RunningServer,
  login: { username: string; password: string },
  name: string,
): Promise<MqttClient> {
  const publisher = mqtt.connect(server.mqttUrl, {
    ...login,
    clientId: `e2e-${name}-${randomBytes(4).toString('hex')}`,
    clean: true,
    protocolVersion: 4,
    reconnectPeriod: 500,
  });
  await new Promise<void>((resolve, reject) => {
    publisher.once('connect', () => resolve());
    publisher.once('error', reject);
  });
  return publisher;
}
