/**
 * Floodgate's round pairing (shogi-server's LeastDiff: the cheapest pairing, a pair costing
 * its rating difference plus penalties for a repeat of the last opponent, for two humans and
 * for two likely kin engines; an odd one waits).
 */
import { describe, expect, it } from 'vitest';
import {
  EXHAUSTIVE_UP_TO,
  HUMAN_PENALTY,
  isHuman,
  KIN_PENALTY,
  NEAR_KIN_PENALTY,
  pairCost,
  pairRound,
  REPEAT_PENALTY,
  type RoundPlayer,
  UNRATED_REPEAT_PENALTY,
} from '../src/csa/floodgate-pairing.js';

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

/** A player with a trip whose name is its id (names unlike each other unless said). */
const p = (playerId: string, rating: number, extra: Partial<RoundPlayer> = {}): RoundPlayer => ({
  playerId,
  rating,
  name: `${playerId}-engine`,
  trip: true,
  ...extra,
});
const names = (pairs: readonly (readonly [{ playerId: string }, { playerId: string }])[]) =>
  pairs.map(([a, b]) => [a.playerId, b.playerId].sort().join('-')).sort();
const none = new Map<string, string>();

describe('a round', () => {
  it('pairs players of close ratings', () => {
    const round = pairRound([p('a', 2000), p('b', 1500), p('c', 1990), p('d', 1510)], none, seeded(1));
    expect(names(round.pairs)).toEqual(['a-c', 'b-d']);
    expect(round.waiting).toBeNull();
  });

  it('avoids a repeat of the last opponent when another pairing costs less than the penalty', () => {
    const last = new Map([
      ['a', 'c'],
      ['c', 'a'],
    ]);
    const round = pairRound([p('a', 2000), p('b', 1800), p('c', 1990), p('d', 1810)], last, seeded(2));
    // a-c and b-d cost 10 + 10 + 400; a-b and c-d (or a-d and b-c) 380
    expect(names(round.pairs)).not.toContain('a-c');
    expect(round.pairs).toHaveLength(2);
  });

  it('keeps a repeat that is still the cheapest', () => {
    const last = new Map([['a', 'c']]);
    const round = pairRound([p('a', 2500), p('b', 1000), p('c', 2490), p('d', 1010)], last, seeded(3));
    expect(REPEAT_PENALTY).toBeLessThan(1480);
    expect(names(round.pairs)).toEqual(['a-c', 'b-d']);
  });

  it('a repeat with an unrated player (a guest) costs far more: it meets someone else', () => {
    const last = new Map([['a', 'c']]);
    const players = [p('a', 2500), p('b', 1000), p('c', 2490, { trip: false }), p('d', 1010)];
    // a-c, b-d: 10 + 400 + 4000 + 10; a-b, c-d (or a-d, b-c): 2980
    expect(names(pairRound(players, last, seeded(3)).pairs)).not.toContain('a-c');
    expect(pairCost(players[0] as RoundPlayer, players[2] as RoundPlayer, last)).toBe(
      10 + REPEAT_PENALTY + UNRATED_REPEAT_PENALTY,
    );
  });

  it('two humans cost HUMAN_PENALTY more: a human meets an engine of about its strength instead', () => {
    const players = [
      p('h1', 1500, { name: 'alice_human' }),
      p('h2', 1520, { name: 'bob_human@home' }),
      p('e1', 1700),
      p('e2', 1800),
    ];
    expect(isHuman('alice_human')).toBe(true);
    expect(isHuman('bob_human@home')).toBe(true);
    expect(isHuman('humane_engine')).toBe(false);
    expect(pairCost(players[0] as RoundPlayer, players[1] as RoundPlayer, none)).toBe(20 + HUMAN_PENALTY);
    // h1-h2, e1-e2: 20 + 800 + 100; h1-e1, h2-e2: 200 + 280
    expect(names(pairRound(players, none, seeded(4)).pairs)).toEqual(['e1-h1', 'e2-h2']);
  });

  it('names alike cost KIN_PENALTY (7 characters) or NEAR_KIN_PENALTY (4): likely one owner’s engines', () => {
    const gpsA = p('g1', 2000, { name: 'gps_l_1a' });
    const gpsB = p('g2', 2000, { name: 'gps_l_1b' });
    const gpsNormal = p('g3', 2000, { name: 'gps_normal' });
    const other = p('o1', 2000, { name: 'bonanza' });
    expect(pairCost(gpsA, gpsB, none)).toBe(KIN_PENALTY);
    expect(pairCost(gpsA, gpsNormal, none)).toBe(NEAR_KIN_PENALTY);
    expect(pairCost(gpsA, other, none)).toBe(0);
    const round = pairRound(
      [gpsA, gpsB, p('o1', 2100, { name: 'bonanza' }), p('o2', 2100, { name: 'apery' })],
      none,
      seeded(5),
    );
    // g1-g2, o1-o2: 800; g1-o1, g2-o2: 100 + 100
    expect(names(round.pairs)).toEqual(['g1-o1', 'g2-o2'].sort());
  });

  it('leaves one out of an odd number, for the next round: the one whose absence is cheapest', () => {
    const round = pairRound([p('a', 1500), p('b', 1510), p('c', 2500)], none, seeded(4));
    expect(names(round.pairs)).toEqual(['a-b']);
    expect(round.waiting?.playerId).toBe('c');
  });

  it('pairs nobody when one waits alone, or none', () => {
    expect(pairRound([p('a', 1500)], none, seeded(5))).toEqual({ pairs: [], waiting: p('a', 1500) });
    expect(pairRound([], none, seeded(5))).toEqual({ pairs: [], waiting: null });
  });

  it(`up to ${EXHAUSTIVE_UP_TO} players, the round is the cheapest of every pairing`, () => {
    const random = seeded(6);
    for (let trial = 0; trial < 20; trial++) {
      const n = 3 + (trial % (EXHAUSTIVE_UP_TO - 2));
      const players = Array.from({ length: n }, (_, i) =>
        p(`p${i}`, 1000 + Math.floor(random() * 1500), {
          name: `${['gps', 'apery', 'ai'][i % 3]}_${i % 2 === 0 ? 'human' : 'x'}${i}`,
          trip: random() < 0.7,
        }),
      );
      const last = new Map([[`p0`, `p1`]]);
      const costOf = (pairs: readonly (readonly [RoundPlayer, RoundPlayer])[]) =>
        pairs.reduce((sum, [a, b]) => sum + pairCost(a, b, last), 0);
      expect(costOf(pairRound(players, last, random).pairs)).toBe(cheapest(players, last));
    }
  });

  it('beyond that, a large round still pairs every player but one at most', () => {
    const players = Array.from({ length: 25 }, (_, i) => p(`p${i}`, 1000 + i * 37));
    const round = pairRound(players, none, seeded(7));
    expect(round.pairs).toHaveLength(12);
    const all = [...round.pairs.flat(), round.waiting].map((x) => x?.playerId);
    expect(new Set(all).size).toBe(25);
  });
});

/** The least cost of a round, by brute force over every pairing (a check independent of pairRound's). */
function cheapest(players: readonly RoundPlayer[], last: ReadonlyMap<string, string>): number {
  if (players.length < 2) return 0;
  const [first, ...rest] = players as [RoundPlayer, ...RoundPlayer[]];
  // the first one either waits (allowed once, when the count is odd) or plays one of the rest
  let best = players.length % 2 === 1 ? cheapest(rest, last) : Number.POSITIVE_INFINITY;
  for (let i = 0; i < rest.length; i++) {
    const others = [...rest.slice(0, i), ...rest.slice(i + 1)];
    if (others.length % 2 === 1 && players.length % 2 === 0) continue;
    best = Math.min(best, pairCost(first, rest[i] as RoundPlayer, last) + cheapest(others, last));
  }
  return best;
}
