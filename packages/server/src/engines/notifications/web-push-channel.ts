import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import { join } from 'node:path';
import webpush from 'web-push';
import { DeliveryError } from './delivery-error.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The server's VAPID key pair: generated once into the data folder and reused, so subscriptions stay valid. */
export function loadVapidKeys(dataDir: string): VapidKeys {
  const file = join(dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    const keys = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof keys.publicKey === 'string' && typeof keys.privateKey === 'string') return keys as VapidKeys;
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Sends one encrypted Web Push message. 404/410 mean the subscription is gone (`gone`: the caller
 * deletes it); 429 and 5xx are transient; other refusals permanent.
 */
export async function sendWebPush(
  target: PushTarget,
  payload: string,
  options: { keys: VapidKeys; subject: string; timeoutMs: number; agent?: Agent },
): Promise<void> {
  try {
    await webpush.sendNotification(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      payload,
      {
        vapidDetails: {
          subject: options.subject,
          publicKey: options.keys.publicKey,
          privateKey: options.keys.privateKey,
        },
        TTL: 3600,
        urgency: 'high',
        timeout: options.timeoutMs,
        ...(options.agent ? { agent: options.agent } : {}),
      },
    );
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 404 || status === 410)
      throw new GoneSubscription(`Push service answered ${status}: subscription gone`);
    if (status === undefined)
      throw new DeliveryError(`Push service unreachable (${(error as { code?: string }).code ?? 'error'})`, false);
    throw new DeliveryError(`Push service answered ${status}`, !(status === 429 || status >= 500));
  }
}

export class GoneSubscription extends DeliveryError {
  constructor(message: string) {
    super(message, true);
  }
}
