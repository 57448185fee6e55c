import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RecentStates } from '../src/recent-states.js';

function cache(limit: number, idleMs: number) {
  let now = 0;
  const c = new RecentStates<string>({ limit, idleMs, now: () => now });
  return { c, at: (t: number) => (now = t) };
}

describe('recent states', () => {
  test('given a full cache, when one more game is set, then the least recently used leaves', () => {
    const { c } = cache(2, 1000);
    c.set('a', 'A');
    c.set('b', 'B');
    expect(c.get('a')).toBe('A'); // a is now the most recent
    c.set('c', 'C');
    expect(c.peek('b')).toBeUndefined();
    expect([c.peek('a'), c.peek('c'), c.size]).toEqual(['A', 'C', 2]);
  });

  test('given a game idle for idleMs, then get misses and drops it', () => {
    const { c, at } = cache(10, 1000);
    c.set('a', 'A');
    at(999);
    expect(c.get('a')).toBe('A'); // used again: its idle time starts over
    at(1998);
    expect(c.get('a')).toBe('A');
    at(2998);
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  test('given games nobody touches again, when another game is set, then the idle ones leave', () => {
    const { c, at } = cache(100, 1000);
    for (const id of ['a', 'b', 'c']) c.set(id, id);
    at(500);
    c.set('d', 'd');
    at(1200);
    c.set('e', 'e');
    // a, b and c were idle for 1200 ms; d for 700
    expect(c.size).toBe(2);
    expect([c.peek('d'), c.peek('e')]).toEqual(['d', 'e']);
  });

  test('peek neither refreshes nor reorders', () => {
    const { c, at } = cache(2, 1000);
    c.set('a', 'A');
    c.set('b', 'B');
    expect(c.peek('a')).toBe('A');
    c.set('c', 'C');
    expect(c.peek('a')).toBeUndefined();
    at(2000);
    expect(c.peek('c')).toBe('C'); // stale but still held until the next set or get
    expect(c.get('c')).toBeUndefined();
  });
});

/** The plain definition: a list in order of use, the least recent first, swept on every set. */
class ReferenceLru {
  private list: { id: string; value: number; usedAt: number }[] = [];
  private readonly limit: number;
  private readonly idleMs: number;
  constructor(limit: number, idleMs: number) {
    this.limit = limit;
    this.idleMs = idleMs;
  }
  get(id: string, now: number): number | undefined {
    const i = this.list.findIndex((e) => e.id === id);
    const entry = this.list[i];
    if (entry === undefined) return undefined;
    this.list.splice(i, 1);
    if (now - entry.usedAt >= this.idleMs) return undefined;
    this.list.push({ ...entry, usedAt: now });
    return entry.value;
  }
  set(id: string, value: number, now: number): void {
    this.list = this.list.filter((e) => e.id !== id && now - e.usedAt < this.idleMs);
    this.list.push({ id, value, usedAt: now });
    while (this.list.length > this.limit) this.list.shift();
  }
  peek(id: string): number | undefined {
    return this.list.find((e) => e.id === id)?.value;
  }
  delete(id: string): void {
    this.list = this.list.filter((e) => e.id !== id);
  }
  get size(): number {
    return this.list.length;
  }
}

test('answers like a least-recently-used list swept on every set, and never holds more than its limit', () => {
  const op = fc.record({
    kind: fc.constantFrom('get', 'set', 'set', 'peek', 'delete'),
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
    value: fc.integer(),
    wait: fc.integer({ min: 0, max: 400 }),
  });
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 200 }), (limit, ops) => {
      let now = 0;
      const cache = new RecentStates<number>({ limit, idleMs: 1000, now: () => now });
      const reference = new ReferenceLru(limit, 1000);
      for (const o of ops) {
        now += o.wait;
        if (o.kind === 'set') {
          cache.set(o.id, o.value);
          reference.set(o.id, o.value, now);
        } else if (o.kind === 'delete') {
          cache.delete(o.id);
          reference.delete(o.id);
        } else if (o.kind === 'peek') expect(cache.peek(o.id)).toBe(reference.peek(o.id));
        else expect(cache.get(o.id)).toBe(reference.get(o.id, now));
        expect(cache.size).toBe(reference.size);
        expect(cache.size).toBeLessThanOrEqual(limit);
      }
    }),
    { numRuns: 500 },
  );
});
