import mqtt from 'mqtt';

/**
 * Ends an ingest worker's session at the broker for good: connects with its client id, a clean
 * start and a session expiry of 0, and leaves. The broker drops what it kept for that worker and
 * its place in the shared subscription: the other workers receive every message from then on.
 * Run it for a worker that is gone (scaled in, crashed for good); a running worker with that id is
 * disconnected by it (stop the worker first).
 */
export async function retireSession(options: {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
}): Promise<void> {
  const client = mqtt.connect(options.url, {
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    clean: true,
    protocolVersion: 5,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    properties: { sessionExpiryInterval: 0 },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
      client.once('close', () => reject(new Error('the broker closed the connection')));
    });
  } finally {
    await client.endAsync(true, { properties: { sessionExpiryInterval: 0 } }).catch(() => {});
  }
}
