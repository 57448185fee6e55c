import { describe, expect, test } from 'vitest';
import { TokenCache } from '../src/domain/token-cache.js';

describe('TokenCache', () => {
  test('an entry lives at most ttlMs: a revocation elsewhere takes effect within that bound', () => {
    const cache = new TokenCache<string>(5_000, 100, () => 0);
    cache.set('h', 'alice', 1_000);
    expect(cache.get('h', 1_000)).toBe('alice');
    expect(cache.get('h', 5_999)).toBe('alice');
    expect(cache.get('h', 6_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('entries cached together expire spread over the last quarter of ttlMs, never later', () => {
    const shortest = new TokenCache<string>(4_000, 100, () => 1);
    shortest.set('h', 'alice', 0);
    expect(shortest.get('h', 2_999)).toBe('alice');
    expect(shortest.get('h', 3_000)).toBeUndefined();
    const cache = new TokenCache<number>(4_000);
    for (let i = 0; i < 100; i++) cache.set(`h${i}`, i, 0);
    const expiries = Array.from({ length: 100 }, (_, i) => {
      let t = 3_000;
      while (cache.get(`h${i}`, t) !== undefined) t += 10;
      return t;
    });
    expect(Math.max(...expiries)).toBeLessThanOrEqual(4_000);
    expect(Math.min(...expiries)).toBeGreaterThanOrEqual(3_000);
    // not all at once: at least a fifth of the window between the first and the last
    expect(Math.max(...expiries) - Math.min(...expiries)).toBeGreaterThan(200);
  });

  test('delete drops an entry at once (a revocation on this gateway, or announced on Redis)', () => {
    const cache = new TokenCache<string>(5_000);
    cache.set('h', 'alice', 0);
    expect(cache.get('h', 1)).toBe('alice');
    cache.delete('h');
    expect(cache.get('h', 1)).toBeUndefined();
  });

  test('a ttl of 0 caches nothing', () => {
    const cache = new TokenCache<string>(0);
    cache.set('h', 'alice', 0);
    expect(cache.get('h', 0)).toBeUndefined();
  });

  test('above the limit the oldest entry goes first', () => {
    const cache = new TokenCache<string>(5_000, 2);
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 1);
    cache.set('a', 'A2', 2); // refreshed: now the newest
    cache.set('c', 'C', 3);
    expect(cache.get('b', 4)).toBeUndefined();
    expect(cache.get('a', 4)).toBe('A2');
    expect(cache.get('c', 4)).toBe('C');
  });
});
