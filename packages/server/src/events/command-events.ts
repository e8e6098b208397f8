import type { Action } from '../access/access.ts';

export interface CommandEvent {
  resource: string;
  action: Exclude<Action, 'read'>;
  /** The stored record as the API returned it (after create/update) or `{id}` (after delete). */
  record: Record<string, unknown>;
  accountId?: number;
}

type Listener = (event: CommandEvent) => void | Promise<void>;

/** Where a replica's own command events go besides its listeners (the bus). */
export interface CommandRelay {
  publish(event: CommandEvent): void;
}

/**
 * Lets the device side react to what the command API committed (a channel write becomes a
 * downlink) without the generic repository knowing about devices. Listeners run after the commit;
 * their failures are reported, never turned into the API's answer.
 */
export class CommandEvents {
  private listeners = new Map<string, Set<Listener>>();
  private relay?: CommandRelay;

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  on(resource: string, action: CommandEvent['action'], listener: Listener): () => void {
    const key = `${resource}:${action}`;
    const set = this.listeners.get(key) ?? new Set<Listener>();
    this.listeners.set(key, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Connects the bus: what this replica commits reaches every replica's listeners (their caches, their ingest). */
  setRelay(relay: CommandRelay | undefined): void {
    this.relay = relay;
  }

  emit(event: CommandEvent): void {
    this.deliver(event);
    this.relay?.publish(event);
  }

  /** To this replica's listeners only (what the bus brings from another replica). */
  deliver(event: CommandEvent): void {
    for (const listener of this.listeners.get(`${event.resource}:${event.action}`) ?? []) {
      try {
        Promise.resolve(listener(event)).catch(this.onError);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
