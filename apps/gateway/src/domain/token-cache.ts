/**
 * Token hash → what it stands for, kept at most `ttlMs` and at most `limit` entries. The
 * bound on age is what makes a revocation on another gateway take effect within `ttlMs`
 * even when its Redis notice is lost; expiry is checked by the caller on every use, so
 * an expired token never works from the cache.
 */
export class TokenCache<T> {
  private readonly map = new Map<string, { value: T; until: number }>();
  private readonly ttlMs: number;
  private readonly limit: number;

  constructor(ttlMs: number, limit = 100_000) {
    this.ttlMs = ttlMs;
    this.limit = limit;
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
    this.map.set(hash, { value, until: now + this.ttlMs });
    // insertion order is age order: the oldest entry goes first
    if (this.map.size > this.limit) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }

  delete(hash: string): void {
    this.map.delete(hash);
  }

  get size(): number {
    return this.map.size;
  }
}
