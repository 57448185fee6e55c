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
