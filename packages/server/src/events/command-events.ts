import type { Action } from '../access/access.ts';

export interface CommandEvent {
  resource: string;
  action: Exclude<Action, 'read'>;
  /** The stored record as the API returned it (after create/update) or `{id}` (after delete). */
  record: Record<string, unknown>;
  accountId?: number;
}

type Listener = (event: CommandEvent) => void | Promise<void>;

/**
 * Lets the device side react to what the command API committed (a channel write becomes a
 * downlink) without the generic repository knowing about devices. Listeners run after the commit;
 * their failures are reported, never turned into the API's answer.
 */
export class CommandEvents {
  private listeners = new Map<string, Set<Listener>>();

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  on(resource: string, action: CommandEvent['action'], listener: Listener): () => void {
    const key = `${resource}:${action}`;
    const set = this.listeners.get(key) ?? new Set<Listener>();
    this.listeners.set(key, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  emit(event: CommandEvent): void {
    for (const listener of this.listeners.get(`${event.resource}:${event.action}`) ?? []) {
      try {
        Promise.resolve(listener(event)).catch(this.onError);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
