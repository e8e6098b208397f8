/**
 * What the live stream pushes. In-process: every replica streams what its own ingest stored, so
 * with several ingest workers a console sees only its replica's share — a shared bus (PostgreSQL
 * LISTEN/NOTIFY or the broker itself) is the follow-up for multi-replica deployments.
 */
export type LiveEvent =
  | {
      type: 'value';
      deviceId: number;
      deviceChannelTemplateId: number;
      subChannel: number;
      channelCode: string;
      value: number;
      status: string;
      dateTime: string;
    }
  | {
      type: 'status';
      deviceId: number;
      status: 'online' | 'offline';
      dateTime: string;
      rssi: number | null;
      snr: number | null;
    }
  | {
      type: 'write';
      id: number;
      deviceId: number;
      deviceChannelTemplateId: number;
      value: number;
      status: string;
      message: string | null;
      sentAt: string | null;
      answeredAt: string | null;
      updatedAt: string;
    };

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
