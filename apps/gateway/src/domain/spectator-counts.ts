/**
 * Spectator counts across gateway processes. Each gateway publishes its own counts (games
 * with at least one watcher) on one shared channel every period and keeps the latest
 * counts of the others; a gateway that stops publishing is forgotten after three periods.
 * A game's count is this gateway's watchers plus the sum of the others'.
 */

export interface CountsMessage {
  /** the publishing gateway */
  readonly g: string;
  /** its watchers by game id */
  readonly c: Readonly<Record<string, number>>;
}

export class RemoteCounts {
  private readonly self: string;
  private readonly ttlMs: number;
  private readonly gateways = new Map<string, { at: number; counts: Readonly<Record<string, number>> }>();
  private totals = new Map<string, number>();

  constructor(self: string, ttlMs: number) {
    this.self = self;
    this.ttlMs = ttlMs;
  }

  /** The counts of the other gateways for one game. */
  of(gameId: string): number {
    return this.totals.get(gameId) ?? 0;
  }

  /** Takes a message from the shared channel (its own are ignored). */
  receive(raw: string, now: number): void {
    let message: CountsMessage;
    try {
      message = JSON.parse(raw) as CountsMessage;
    } catch {
      return;
    }
    if (typeof message?.g !== 'string' || message.g === this.self || typeof message.c !== 'object') return;
    this.gateways.set(message.g, { at: now, counts: message.c });
    this.recount(now);
  }

  /** Forgets gateways silent for longer than the time to live; recomputes the sums. */
  recount(now: number): void {
    const totals = new Map<string, number>();
    for (const [id, { at, counts }] of this.gateways) {
      if (now - at > this.ttlMs) {
        this.gateways.delete(id);
        continue;
      }
      for (const [gameId, n] of Object.entries(counts)) {
        if (typeof n === 'number') totals.set(gameId, (totals.get(gameId) ?? 0) + n);
      }
    }
    this.totals = totals;
  }
}

export function countsMessage(self: string, local: Iterable<[string, number]>): string {
  const c: Record<string, number> = {};
  for (const [gameId, n] of local) if (n > 0) c[gameId] = n;
  return JSON.stringify({ g: self, c } satisfies CountsMessage);
}
