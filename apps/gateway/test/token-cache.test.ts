import { describe, expect, test } from 'vitest';
import { TokenCache } from '../src/domain/token-cache.js';

describe('TokenCache', () => {
  test('an entry lives at most ttlMs: a revocation elsewhere takes effect within that bound', () => {
    const cache = new TokenCache<string>(5_000);
    cache.set('h', 'alice', 1_000);
    expect(cache.get('h', 1_000)).toBe('alice');
    expect(cache.get('h', 5_999)).toBe('alice');
    expect(cache.get('h', 6_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('delete drops an entry at once (a revocation on this gateway, or announced on Redis)', () => {
    const cache = new TokenCache<string>(5_000);
    cache.set('h', 'alice', 0);
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
