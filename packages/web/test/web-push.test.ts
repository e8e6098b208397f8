import { describe, expect, it } from 'vitest';
import { keyBytes, PushError, pushSupported, subscribePush } from '../src/lib/web-push.ts';

describe('Web Push opt-in', () => {
  it('turns the base64url VAPID key into the 65 bytes of a P-256 public key', () => {
    const raw = new Uint8Array(65).map((_v, i) => (i * 37 + 4) % 256);
    const base64url = btoa(String.fromCharCode(...raw))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect([...keyBytes(base64url)]).toEqual([...raw]);
  });

  it('says "unsupported" in a browser without service workers or PushManager, asking nobody', async () => {
    expect(pushSupported()).toBe(false);
    const error = await subscribePush().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PushError);
    expect((error as PushError).reason).toBe('unsupported');
  });
});
