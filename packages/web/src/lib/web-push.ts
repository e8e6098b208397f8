import { request } from './api-client.ts';
import { HttpError } from './api-errors.ts';

/** Why this browser cannot take Web Push now: no support, the person refused, or no server side yet. */
export type PushUnavailable = 'unsupported' | 'denied' | 'notOffered';

export class PushError extends Error {
  constructor(readonly reason: PushUnavailable) {
    super(reason);
  }
}

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    typeof Notification !== 'undefined'
  );
}

/** The VAPID key as the bytes PushManager wants. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** A server without the notification service answers 404: push is then not offered, not an error. */
function notOffered(error: unknown): boolean {
  return error instanceof HttpError && (error.httpStatus === 404 || error.httpStatus === 501);
}

/**
 * Subscribes this browser: registers `/sw.js`, asks the person, subscribes with the server's VAPID
 * key and hands the subscription to the server. Throws PushError when it cannot be done.
 */
export async function subscribePush(): Promise<void> {
  if (!pushSupported()) throw new PushError('unsupported');
  let publicKey: string;
  try {
    ({ publicKey } = await request<{ publicKey: string }>('query', 'notifications/vapid-public-key'));
  } catch (error) {
    if (notOffered(error)) throw new PushError('notOffered');
    throw error;
  }
  if (!publicKey) throw new PushError('notOffered');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushError('denied');
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  try {
    await request('command', 'notifications/push-subscriptions', { method: 'POST', body: subscription.toJSON() });
  } catch (error) {
    if (notOffered(error)) throw new PushError('notOffered');
    throw error;
  }
}

/** Ends this browser's subscription here and on the server (a server without the route is fine). */
export async function unsubscribePush(): Promise<void> {
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration('/sw.js');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  try {
    await request('command', 'notifications/push-subscriptions', { method: 'DELETE', body: { endpoint } });
  } catch (error) {
    if (!notOffered(error)) throw error;
  }
}
