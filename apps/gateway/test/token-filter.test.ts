import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FALSE_POSITIVE_RATE, MIN_CAPACITY, TokenFilter } from '../src/domain/token-filter.js';

const randomHash = () => createHash('sha256').update(randomBytes(32)).digest('hex');

describe('TokenFilter', () => {
  it('holds every hash added to it (no false negatives), at and past its design size', () => {
    const filter = new TokenFilter(20_000);
    const added = Array.from({ length: 30_000 }, randomHash);
    for (const hash of added.slice(0, 20_000)) filter.add(hash);
    expect(added.slice(0, 20_000).every((h) => filter.mayHold(h))).toBe(true);
    expect(filter.full).toBe(false);
    for (const hash of added.slice(20_000)) filter.add(hash);
    expect(added.every((h) => filter.mayHold(h))).toBe(true);
    expect(filter.full).toBe(true);
  });

  it('answers about its design rate of false positives when filled to its design size', () => {
    const filter = new TokenFilter(50_000);
    for (let i = 0; i < 50_000; i++) filter.add(randomHash());
    const probes = 100_000;
    let positives = 0;
    for (let i = 0; i < probes; i++) if (filter.mayHold(randomHash())) positives++;
    const rate = positives / probes;
    expect(rate).toBeGreaterThan(FALSE_POSITIVE_RATE / 2);
    expect(rate).toBeLessThan(FALSE_POSITIVE_RATE * 1.5);
  });

  it('counts a hash added again once, and holds nothing malformed', () => {
    const filter = new TokenFilter(100);
    const hash = randomHash();
    filter.add(hash);
    filter.add(hash);
    expect(filter.count).toBe(1);
    filter.add('not-a-hash');
    filter.add(hash.toUpperCase());
    expect(filter.count).toBe(1);
    expect(filter.mayHold('not-a-hash')).toBe(false);
  });

  it('is sized from a count with room to grow, and never below its least size', () => {
    expect(TokenFilter.forCount(0).capacity).toBe(MIN_CAPACITY);
    const filter = TokenFilter.forCount(100_000);
    expect(filter.capacity).toBe(200_000);
    // about 9.6 bits and 7 positions a hash for 1 %
    expect(filter.size / filter.capacity).toBeCloseTo(9.59, 1);
    expect(filter.positions).toBe(7);
  });
});
