import { describe, expect, it } from 'vitest';
import {
  arenaPairer,
  bestPairings,
  type ProposedPairing,
  pairingsClosedSeconds,
  type TournamentCommand,
  type TournamentState,
  waitSeconds,
} from '../src/index.js';
import { at, entrant, run, startedWith } from './helpers.js';

/** Pairs what the pairer proposes at `now` (game ids g1, g2, ... after those already made). */
function wave(state: TournamentState, now: Date): { state: TournamentState; pairs: ProposedPairing[] } {
  const pairs = arenaPairer.pair({ state, now });
  if (pairs.length === 0) return { state, pairs };
  const pairings = pairs.map((p, i) => ({ gameId: `g${state.pairings.size + i + 1}`, ...p }));
  return { state: run([{ type: 'PairPlayers', pairings, now }], state).state, pairs };
}

const score = (gameId: string, winner: 'sente' | 'gote' | null, seconds: number, plies = 60): TournamentCommand => ({
  type: 'ScoreGame',
  gameId,
  winner,
  plies,
  now: at(seconds),
});

const pairKey = (p: ProposedPairing) => [p.sente, p.gote].sort().join('-');

describe('waitSeconds: lishogi WaitingUsers thresholds from the clock', () => {
  it.each([
    // estimated seconds per player: main + 40 × increment (or byoyomi) (@shogi/ratings)
    [{ kind: 'fischer', mainSeconds: 15, incrementSeconds: 0 } as const, 9], // ultrabullet: under 30 s
    [{ kind: 'fischer', mainSeconds: 30, incrementSeconds: 0 } as const, 11], // under 60 s
    [{ kind: 'fischer', mainSeconds: 60, incrementSeconds: 0 } as const, 15], // 1+0: 60/10 + 6 = 12, at least 15
    [{ kind: 'fischer', mainSeconds: 180, incrementSeconds: 0 } as const, 24], // 3+0
    [{ kind: 'fischer', mainSeconds: 300, incrementSeconds: 0 } as const, 36], // 5+0
    [{ kind: 'fischer', mainSeconds: 600, incrementSeconds: 0 } as const, 50], // 10+0: 66, at most 50
    [{ kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 10, periods: 1 } as const, 46], // 10-second shogi: 400 s
  ])('%j waits %i s', (clock, seconds) => {
    expect(waitSeconds(clock)).toBe(seconds);
  });
  it('closes pairing max(30, min(main / 2, 120)) s before the end', () => {
    expect(pairingsClosedSeconds({ kind: 'fischer', mainSeconds: 30, incrementSeconds: 0 })).toBe(30);
    expect(pairingsClosedSeconds({ kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 })).toBe(90);
    expect(pairingsClosedSeconds({ kind: 'fischer', mainSeconds: 900, incrementSeconds: 0 })).toBe(120);
  });
});

describe('arena waves', () => {
  it('in the first 15 seconds pairs neighbours by rank (rating before any game)', () => {
    const s = startedWith([entrant('a', 1500), entrant('b', 1900), entrant('c', 1700), entrant('d', 1300)]);
    const { pairs } = wave(s, at(1));
    expect(pairs.map(pairKey).sort()).toEqual(['a-d', 'b-c']);
  });

  it('after that: a matching of least rank and rating distance, never the opponent just played', () => {
    let s = startedWith(['a', 'b', 'c', 'd'].map((id, i) => entrant(id, 1500 + 100 * i)));
    s = wave(s, at(1)).state; // d-c, b-a by rank
    s = run([score('g1', 'sente', 60), score('g2', 'sente', 60)], s).state;
    const { pairs } = wave(s, at(61));
    expect(pairs).toHaveLength(2);
    for (const p of pairs) expect(['a-b', 'c-d']).not.toContain(pairKey(p));
  });

  it('pairs at once when it has had no pairing yet, and when few are active in a small tournament', () => {
    const s = startedWith(['a', 'b', 'c']);
    // the first wave: no waiting needed (lila hadPairings)
    expect(arenaPairer.pair({ state: s, now: at(20) })).toHaveLength(1);
    // two of three waiting, 3 active ≤ 2 × 1.5: a wave without waiting (lila smallTourNbActivePlayers)
    const one = wave(s, at(20)).state;
    const after = run([score('g1', 'gote', 40)], one).state;
    expect(arenaPairer.pair({ state: after, now: at(41) })).toHaveLength(1);
  });

  it('in a larger tournament waits for two to have waited long enough', () => {
    const ids = Array.from({ length: 40 }, (_, i) => `p${i}`);
    let s = wave(startedWith(ids), at(1)).state;
    s = run([score('g1', 'sente', 100), score('g2', 'gote', 100)], s).state;
    // 4 waiting of 40 active: no wave before two waited 32 s (3+2: 260 / 10 + 6)
    expect(arenaPairer.pair({ state: s, now: at(131) })).toEqual([]);
    const pairs = arenaPairer.pair({ state: s, now: at(133) });
    expect(pairs).toHaveLength(2);
    for (const p of pairs) expect(['p0-p1', 'p2-p3']).not.toContain(pairKey(p));
  });

  it('lets the latest comer sit out an odd wave (lila evenOrAll)', () => {
    const ids = Array.from({ length: 41 }, (_, i) => `p${i}`);
    let s = wave(startedWith(ids), at(1)).state;
    // 41 waiting at the start: 20 pairs, one sits out
    expect(s.playing.size).toBe(40);
    const idle = ids.find((id) => !s.playing.has(id)) as string;
    s = run([score('g1', 'sente', 100)], s).state;
    const pairs = arenaPairer.pair({ state: s, now: at(133) });
    expect(pairs).toHaveLength(1);
    expect([pairs[0]?.sente, pairs[0]?.gote]).toContain(idle);
  });

  it('only two active players may meet again (lila duelScore)', () => {
    let s = wave(startedWith(['a', 'b']), at(1)).state;
    s = run([score('g1', 'sente', 100)], s).state;
    expect(arenaPairer.pair({ state: s, now: at(101) })).toHaveLength(1);
    // a third, paused, player does not count as active
    let t = wave(startedWith(['a', 'b', 'c']), at(1)).state;
    t = run([{ type: 'WithdrawFromTournament', playerId: 'c', now: at(2) }, score('g1', 'sente', 100)], t).state;
    expect(arenaPairer.pair({ state: t, now: at(200) })).toHaveLength(1);
  });

  it('pairs no one close to the end, nor the paused, nor the absent', () => {
    const s = startedWith(['a', 'b', 'c', 'd']);
    expect(arenaPairer.pair({ state: s, now: at(3600 - 89) })).toEqual([]);
    const paused = run([{ type: 'WithdrawFromTournament', playerId: 'a', now: at(1) }], s).state;
    expect(arenaPairer.pair({ state: paused, now: at(2) }).flatMap((p) => [p.sente, p.gote])).not.toContain('a');
    expect(arenaPairer.pair({ state: s, now: at(2), present: new Set(['a', 'b']) }).map(pairKey)).toEqual(['a-b']);
  });

  it('balances colours: the one who has had sente more often takes gote', () => {
    let s = wave(startedWith(['a', 'b', 'c', 'd']), at(1)).state;
    const first = [...s.pairings.values()];
    s = run([score('g1', 'sente', 60), score('g2', 'sente', 60)], s).state;
    const { pairs } = wave(s, at(200));
    const hadSente = new Set(first.map((p) => p.sente));
    for (const p of pairs) if (hadSente.has(p.sente)) expect(hadSente.has(p.gote)).toBe(true);
  });
});

describe('bestPairings: the cost lila weighs', () => {
  it('pairs leaders with leaders over a smaller rating distance lower down', () => {
    // ranks 1..4, ratings equal: ranks 1-2 and 3-4 cost 1 rank each; 1-3 and 2-4 cost 2 each
    const s = startedWith(['a', 'b', 'c', 'd']);
    const ranked = ['a', 'b', 'c', 'd'].map((id, i) => ({ player: s.players.get(id)!, rank: i + 1 }));
    expect(bestPairings(s, ranked, false).map(pairKey).sort()).toEqual(['a-b', 'c-d']);
  });
  it('leaves out a pair that just played, even when that leaves someone unpaired', () => {
    let s = wave(startedWith(['a', 'b']), at(1)).state;
    s = run([score('g1', 'sente', 50)], s).state;
    const ranked = ['a', 'b'].map((id, i) => ({ player: s.players.get(id)!, rank: i + 1 }));
    expect(bestPairings(s, ranked, false)).toEqual([]);
  });
  it('pairs a large wave in at most two groups of 100 by rank', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `p${i}`);
    const s = startedWith(ids.map((id, i) => entrant(id, 1000 + i)));
    const pairs = arenaPairer.pair({ state: s, now: at(30) });
    // lila: groupSize = min(300 / 4 × 2, 100) = 100; two groups: 200 players in 100 pairs
    expect(pairs).toHaveLength(100);
  });
});
