/**
 * Token hash → what it stands for, kept at most `ttlMs` and at most `limit` entries. The
 * bound on age is what makes a revocation on another gateway take effect within `ttlMs`
 * even when its Redis notice is lost; expiry is checked by the caller on every use, so
 * an expired token never works from the cache.
 *
 * Each entry lives a random 75–100 % of `ttlMs`: players who connected together (a
 * tournament's start, a bench's) would otherwise all miss at once every `ttlMs`, a burst
 * of lookups that stalls the moves queued behind it; spread out, the misses come evenly.
 */
/** the share of `ttlMs` an entry's life may be shortened by */
const JITTER = 0.25;

export class TokenCache<T> {
  private readonly map = new Map<string, { value: T; until: number }>();
  private readonly ttlMs: number;
  private readonly limit: number;

  private readonly random: () => number;

  constructor(ttlMs: number, limit = 100_000, random: () => number = Math.random) {
    this.ttlMs = ttlMs;
    this.limit = limit;
    this.random = random;
  }

  get(hash: string, now: number): T | undefined {
    const entry = this.map.get(hash);
    if (entry === undefined) return undefined;
    if (entry.until <= now) {
      this.map.delete(hash);
      return undefined;
    }
    return entry.value;
  }

  set(hash: string, value: T, now: number): void {
    if (this.ttlMs <= 0) return;
    this.map.delete(hash);
    this.map.set(hash, { value, until: now + this.ttlMs * (1 - JITTER * this.random()) });
    // insertion order is age order: the oldest entry goes first
    if (this.map.size > this.limit) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }

  clear(): void {
    this.map.clear();
  }

  delete(hash: string): void {
    this.map.delete(hash);
  }

  get size(): number {
    return this.map.size;
  }
}
