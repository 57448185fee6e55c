/**
 * Floodgate's round pairing (shogi-server's: the cheapest of many random pairings, a pair
 * costing its rating difference plus a penalty when the two met last; an odd one waits).
 */
import { describe, expect, it } from 'vitest';
import { pairRound, REPEAT_PENALTY } from '../src/csa/floodgate-pairing.js';

/** A seeded generator (mulberry32), so a round is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const p = (playerId: string, rating: number) => ({ playerId, rating });
const names = (pairs: readonly (readonly [{ playerId: string }, { playerId: string }])[]) =>
  pairs.map(([a, b]) => [a.playerId, b.playerId].sort().join('-')).sort();

describe('a round', () => {
  it('pairs players of close ratings', () => {
    const round = pairRound([p('a', 2000), p('b', 1500), p('c', 1990), p('d', 1510)], new Map(), seeded(1));
    expect(names(round.pairs)).toEqual(['a-c', 'b-d']);
    expect(round.waiting).toBeNull();
  });

  it('avoids a repeat of the last opponent when another pairing costs less than the penalty', () => {
    const last = new Map([
      ['a', 'c'],
      ['c', 'a'],
    ]);
    const round = pairRound([p('a', 2000), p('b', 1800), p('c', 1990), p('d', 1810)], last, seeded(2));
    // a-c and b-d cost 10 + 10 + 400; a-b and c-d cost 200 + 180
    expect(names(round.pairs)).toEqual(['a-b', 'c-d']);
  });

  it('keeps a repeat that is still the cheapest', () => {
    const last = new Map([['a', 'c']]);
    const round = pairRound([p('a', 2500), p('b', 1000), p('c', 2490), p('d', 1010)], last, seeded(3));
    expect(REPEAT_PENALTY).toBeLessThan(1480);
    expect(names(round.pairs)).toEqual(['a-c', 'b-d']);
  });

  it('leaves one out of an odd number, for the next round', () => {
    const round = pairRound([p('a', 1500), p('b', 1500), p('c', 1500)], new Map(), seeded(4));
    expect(round.pairs).toHaveLength(1);
    expect(round.waiting).not.toBeNull();
    const all = [...round.pairs.flat(), round.waiting].map((x) => x?.playerId).sort();
    expect(all).toEqual(['a', 'b', 'c']);
  });

  it('pairs nobody when one waits alone', () => {
    expect(pairRound([p('a', 1500)], new Map(), seeded(5))).toEqual({ pairs: [], waiting: p('a', 1500) });
  });
});
