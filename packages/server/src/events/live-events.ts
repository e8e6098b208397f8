import type { LiveEvent } from '@lampyr/contract';

/**
 * What the live stream pushes (its shape: the contract's LiveEvent). In one process the fan-out is
 * in memory; across replicas the event bus (events/pg-bus.ts, PostgreSQL LISTEN/NOTIFY) relays what
 * is published here to every other replica, and what they publish arrives through `deliver`.
 */
export type { LiveEvent } from '@lampyr/contract';

type Listener = (events: readonly LiveEvent[]) => void;

/** Where a replica's own events go besides its listeners (the bus). */
export interface LiveRelay {
  publish(accountId: number, events: readonly LiveEvent[]): void;
  /** The accounts with a listener on this replica changed (the bus tells the others). */
  listenersChanged(): void;
}

/** Account-scoped fan-out: a listener hears only the account it subscribed to. */
export class LiveEvents {
  private listeners = new Map<number, Set<Listener>>();
  /** Accounts another replica streams, until when (its bus announcements keep them fresh). */
  private remote = new Map<number, number>();
  private relay?: LiveRelay;

  /** Connects the bus (one per process). */
  setRelay(relay: LiveRelay | undefined): void {
    this.relay = relay;
  }

  subscribe(accountId: number, listener: Listener): () => void {
    let set = this.listeners.get(accountId);
    if (!set) {
      set = new Set();
      this.listeners.set(accountId, set);
      this.relay?.listenersChanged();
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size && this.listeners.get(accountId) === set) {
        this.listeners.delete(accountId);
        this.relay?.listenersChanged();
      }
    };
  }

  /** Whether anyone, here or on another replica, streams this account (else events are not built). */
  hasListeners(accountId: number): boolean {
    return this.listeners.has(accountId) || this.streamedElsewhere(accountId);
  }

  /** Whether another replica streams this account (else its events stay in this process). */
  streamedElsewhere(accountId: number): boolean {
    const until = this.remote.get(accountId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.remote.delete(accountId);
    return false;
  }

  /** The accounts streamed on this replica. */
  localAccounts(): number[] {
    return [...this.listeners.keys()];
  }

  /** Another replica streams these accounts for the next `forMs`. */
  remoteListeners(accountIds: readonly number[], forMs: number): void {
    const until = Date.now() + forMs;
    for (const id of accountIds) this.remote.set(id, until);
  }

  publish(accountId: number, events: readonly LiveEvent[]): void {
    if (!events.length) return;
    this.deliver(accountId, events);
    // Only what another replica's console streams goes on the bus: every value of a busy fleet
    // NOTIFYed for nobody cost the database and this process as much as storing it.
    if (this.relay && this.streamedElsewhere(accountId)) this.relay.publish(accountId, events);
  }

  /** To this replica's listeners only (what the bus brings from another replica). */
  deliver(accountId: number, events: readonly LiveEvent[]): void {
    if (!events.length) return;
    for (const listener of this.listeners.get(accountId) ?? []) listener(events);
  }
}
