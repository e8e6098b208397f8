import type { LiveEvent } from '@lampyr/contract';

/**
 * What the live stream pushes (its shape: the contract's LiveEvent). In-process: every replica
 * streams what its own ingest stored, so with several ingest workers a console sees only its
 * replica's share — a shared bus (PostgreSQL LISTEN/NOTIFY or the broker itself) is the follow-up
 * for multi-replica deployments.
 */
export type { LiveEvent } from '@lampyr/contract';

type Listener = (events: readonly LiveEvent[]) => void;

/** Account-scoped fan-out: a listener hears only the account it subscribed to. */
export class LiveEvents {
  private listeners = new Map<number, Set<Listener>>();

  subscribe(accountId: number, listener: Listener): () => void {
    let set = this.listeners.get(accountId);
    if (!set) {
      set = new Set();
      this.listeners.set(accountId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(accountId);
    };
  }

  hasListeners(accountId: number): boolean {
    return this.listeners.has(accountId);
  }

  publish(accountId: number, events: readonly LiveEvent[]): void {
    if (!events.length) return;
    for (const listener of this.listeners.get(accountId) ?? []) listener(events);
  }
}
