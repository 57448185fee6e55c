/**
 * Folded game states kept by a process (the worker's and the gateway's caches), bounded in
 * count and in idle time. The idle bound is what keeps a process's memory flat: a game
 * that ended on another process, or that its players abandoned, is never touched here
 * again, and without it would stay until `limit` newer games pushed it out.
 *
 * A use updates its entry in place (a use counter orders them) instead of moving it to the
 * end of the Map: that delete and re-insert, several times a move, kept V8 rehashing the
 * Map's tables, which lived long enough to be promoted. Idle entries are swept at most
 * every eighth of `idleMs`, and the least recently used is looked for only when the cache
 * is over its limit (a scan of the entries: a process with more active games than its limit
 * pays one per new entry, tens of microseconds at the default limits, beside the log read
 * that a miss costs anyway).
 */
interface Entry<V> {
  value: V;
  usedAt: number;
  /** the cache's use counter at the last use: the order of recency, ties impossible */
  use: number;
}

export class RecentStates<V> {
  private readonly map = new Map<string, Entry<V>>();
  private readonly limit: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private uses = 0;
  private sweptAt: number;

  constructor(options: { limit: number; idleMs: number; now?: () => number }) {
    this.limit = options.limit;
    this.idleMs = options.idleMs;
    this.now = options.now ?? Date.now;
    this.sweptAt = this.now();
  }

  /** The state, marked as used; undefined once idle for `idleMs`. */
  get(gameId: string): V | undefined {
    const entry = this.map.get(gameId);
    if (entry === undefined) return undefined;
    const now = this.now();
    if (now - entry.usedAt >= this.idleMs) {
      this.map.delete(gameId);
      return undefined;
    }
    entry.usedAt = now;
    entry.use = ++this.uses;
    return entry.value;
  }

  /** The state without marking it as used. */
  peek(gameId: string): V | undefined {
    return this.map.get(gameId)?.value;
  }

  set(gameId: string, value: V): void {
    const now = this.now();
    const entry = this.map.get(gameId);
    if (entry !== undefined) {
      entry.value = value;
      entry.usedAt = now;
      entry.use = ++this.uses;
    } else {
      this.map.set(gameId, { value, usedAt: now, use: ++this.uses });
    }
    this.sweepIdle(now);
    while (this.map.size > this.limit) this.evictLeastRecent();
  }

  delete(gameId: string): void {
    this.map.delete(gameId);
  }

  get size(): number {
    return this.map.size;
  }

  private sweepIdle(now: number): void {
    if (now - this.sweptAt < this.idleMs / 8) return;
    this.sweptAt = now;
    for (const [gameId, entry] of this.map) if (now - entry.usedAt >= this.idleMs) this.map.delete(gameId);
  }

  private evictLeastRecent(): void {
    let oldest: string | undefined;
    let oldestUse = Number.POSITIVE_INFINITY;
    for (const [gameId, entry] of this.map) {
      if (entry.use < oldestUse) {
        oldestUse = entry.use;
        oldest = gameId;
      }
    }
    if (oldest !== undefined) this.map.delete(oldest);
  }
}
