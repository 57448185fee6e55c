/**
 * Folded game states kept by a process (the worker's and the gateway's caches), bounded in
 * count and in idle time. The idle bound is what keeps a process's memory flat: a game
 * that ended on another process, or that its players abandoned, is never touched here
 * again, and without it would stay until `limit` newer games pushed it out.
 *
 * Least recently used first, in a linked list of entries that the Map only indexes: a use
 * moves its entry to the end of the list, in place. (Moving it to the end of the Map, by a
 * delete and a re-insert several times a move, kept V8 rehashing the Map's tables, which
 * lived long enough to be promoted.) The expired and the surplus are at the front.
 */
interface Entry<V> {
  readonly gameId: string;
  value: V;
  usedAt: number;
  /** toward the least recently used */
  older: Entry<V> | null;
  /** toward the most recently used */
  newer: Entry<V> | null;
}

export class RecentStates<V> {
  private readonly map = new Map<string, Entry<V>>();
  private readonly limit: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private oldest: Entry<V> | null = null;
  private newest: Entry<V> | null = null;

  constructor(options: { limit: number; idleMs: number; now?: () => number }) {
    this.limit = options.limit;
    this.idleMs = options.idleMs;
    this.now = options.now ?? Date.now;
  }

  /** The state, marked as used; undefined once idle for `idleMs`. */
  get(gameId: string): V | undefined {
    const entry = this.map.get(gameId);
    if (entry === undefined) return undefined;
    const now = this.now();
    if (now - entry.usedAt >= this.idleMs) {
      this.remove(entry);
      return undefined;
    }
    entry.usedAt = now;
    this.moveToNewest(entry);
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
      this.moveToNewest(entry);
    } else {
      const added: Entry<V> = { gameId, value, usedAt: now, older: this.newest, newer: null };
      if (this.newest !== null) this.newest.newer = added;
      else this.oldest = added;
      this.newest = added;
      this.map.set(gameId, added);
    }
    for (let first = this.oldest; first !== null; first = this.oldest) {
      if (this.map.size <= this.limit && now - first.usedAt < this.idleMs) break;
      this.remove(first);
    }
  }

  delete(gameId: string): void {
    const entry = this.map.get(gameId);
    if (entry !== undefined) this.remove(entry);
  }

  get size(): number {
    return this.map.size;
  }

  private unlink(entry: Entry<V>): void {
    if (entry.older !== null) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer !== null) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = null;
    entry.newer = null;
  }

  private moveToNewest(entry: Entry<V>): void {
    if (entry === this.newest) return;
    this.unlink(entry);
    entry.older = this.newest;
    if (this.newest !== null) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private remove(entry: Entry<V>): void {
    this.unlink(entry);
    this.map.delete(entry.gameId);
  }
}
