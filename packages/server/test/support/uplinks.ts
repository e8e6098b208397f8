import { DEMO_APPLICATION_ID, devEuiOf } from '@lampyr/simulator/demo-fleet';
import type { MqttClient } from 'mqtt';
import pg from 'pg';

/** A demo light's uplink (5 values) with its own frame counter: `fcnt:<n>` in channel_read_values. */
export function uplinkOf(light: number, fcnt: number): { topic: string; payload: string } {
  const devEui = devEuiOf(light);
  const data = Buffer.from([1, 100, 0, 120, 0x08, 0xfc, 0x01, 0xf4, 0, 0, 0x27, 0x10, 0, 5, 0, 30]).toString('base64');
  return {
    topic: `application/${DEMO_APPLICATION_ID}/device/${devEui}/event/up`,
    payload: JSON.stringify({
      time: new Date().toISOString(),
      deviceInfo: { devEui, applicationId: DEMO_APPLICATION_ID },
      fCnt: fcnt,
      fPort: 10,
      data,
      rxInfo: [{ gatewayId: 'a840411b2c3d4e5f', rssi: -90, snr: 7 }],
    }),
  };
}

export const publishUplink = (publisher: MqttClient, light: number, fcnt: number) => {
  const { topic, payload } = uplinkOf(light, fcnt);
  return publisher.publishAsync(topic, payload, { qos: 1 });
};

/** Per frame of `fcnts`: how many readings are stored (0 missing, 5 once, 10 twice). */
export async function storedFrames(url: string, fcnts: number[]): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    const result = await client.query<{ frame_key: string; n: number }>(
      'SELECT frame_key, count(*)::int AS n FROM channel_read_values WHERE frame_key = ANY($1) GROUP BY frame_key',
      [fcnts.map((n) => `fcnt:${n}`)],
    );
    const counts = new Map(fcnts.map((n) => [n, 0]));
    for (const row of result.rows) counts.set(Number(row.frame_key.slice(5)), row.n);
    return counts;
  } finally {
    await client.end();
  }
}
