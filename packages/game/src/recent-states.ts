/**
 * Folded game states kept by a process (the worker's and the gateway's caches), bounded in
 * count and in idle time. The idle bound is what keeps a process's memory flat: a game
 * that ended on another process, or that its players abandoned, is never touched here
 * again, and without it would stay until `limit` newer games pushed it out.
 * Most recently used last (a Map keeps insertion order), so the expired ones are at the front.
 */
export class RecentStates<V> {
  private readonly map = new Map<string, { value: V; usedAt: number }>();
  private readonly limit: number;
  private readonly idleMs: number;
  private readonly now: () => number;

  constructor(options: { limit: number; idleMs: number; now?: () => number }) {
    this.limit = options.limit;
    this.idleMs = options.idleMs;
    this.now = options.now ?? Date.now;
  }

  /** The state, marked as used; undefined once idle for `idleMs`. */
  get(gameId: string): V | undefined {
    const entry = this.map.get(gameId);
    if (entry === undefined) return undefined;
    this.map.delete(gameId);
    const now = this.now();
    if (now - entry.usedAt >= this.idleMs) return undefined;
    entry.usedAt = now;
    this.map.set(gameId, entry);
    return entry.value;
  }

  /** The state without marking it as used. */
  peek(gameId: string): V | undefined {
    return this.map.get(gameId)?.value;
  }

  set(gameId: string, value: V): void {
    const now = this.now();
    this.map.delete(gameId);
    this.map.set(gameId, { value, usedAt: now });
    for (const [oldest, entry] of this.map) {
      if (this.map.size <= this.limit && now - entry.usedAt < this.idleMs) break;
      this.map.delete(oldest);
    }
  }

  delete(gameId: string): void {
    this.map.delete(gameId);
  }

  get size(): number {
    return this.map.size;
  }
}
