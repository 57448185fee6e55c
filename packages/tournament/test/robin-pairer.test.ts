import { describe, expect, it } from 'vitest';
import {
  bergerTable,
  currentRobinRound,
  decideTournament,
  robinPairer,
  robinRoundDeadline,
  robinRounds,
  standingsOf,
  type TournamentState,
} from '../src/index.js';
import { at, entrant, run, startedWith } from './helpers.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

describe('Berger tables', () => {
  it.each([2, 3, 4, 5, 6, 7, 8, 10, 13, 16])(
    '%i players, single: every pair meets once, one game a round each',
    (n) => {
      const table = bergerTable(ids(n), 1);
      // n - 1 rounds for an even field, n for an odd one (each sits out once)
      expect(table).toHaveLength(n % 2 === 0 ? n - 1 : n);
      const met = new Set<string>();
      for (const round of table) {
        const inRound = round.flatMap((p) => [p.sente, p.gote]);
        expect(new Set(inRound).size).toBe(inRound.length);
        expect(round).toHaveLength(Math.floor(n / 2));
        for (const p of round) met.add([p.sente, p.gote].sort().join('-'));
      }
      expect(met.size).toBe((n * (n - 1)) / 2);
    },
  );

  it.each([4, 6, 8, 10, 12, 16, 20])(
    '%i players, single: colours balanced (sente and gote differ by one at most)',
    (n) => {
      const balance = new Map<string, number>();
      for (const p of bergerTable(ids(n), 1).flat()) {
        balance.set(p.sente, (balance.get(p.sente) ?? 0) + 1);
        balance.set(p.gote, (balance.get(p.gote) ?? 0) - 1);
      }
      for (const b of balance.values()) expect(Math.abs(b)).toBeLessThanOrEqual(1);
    },
  );

  it('the fixed seat does not keep one colour', () => {
    // FIDE's Berger tables: the last seat alternates; here three rounds in a row never give one colour
    for (const n of [6, 8, 10]) {
      const colours = bergerTable(ids(n), 1).map((round) => (round.some((p) => p.sente === `p${n}`) ? 's' : 'g'));
      expect(colours.join('')).not.toMatch(/sss|ggg/);
    }
  });

  it('double: each pair meets twice, once with each colour', () => {
    const table = bergerTable(ids(6), 2);
    expect(table).toHaveLength(10);
    const games = table.flat().map((p) => `${p.sente}>${p.gote}`);
    expect(new Set(games).size).toBe(30);
    for (const p of table.flat()) expect(games).toContain(`${p.gote}>${p.sente}`);
  });
});

describe('the robin pairer and forfeits', () => {
  const robin = (n: number) =>
    startedWith(
      ids(n).map((id, i) => entrant(id, 2000 - 10 * i)),
      { format: 'robin', maxPlayers: 16, minutes: 120 },
    );

  function playRound(state: TournamentState, now: Date, winner: 'sente' | 'gote' | null = 'sente'): TournamentState {
    const pairs = robinPairer.pair({ state, now });
    const pairings = pairs.map((p, i) => ({ gameId: `r${p.round}g${i + 1}`, ...p }));
    let s = run([{ type: 'PairPlayers', pairings, now }], state).state;
    s = run(
      pairings.map((p) => ({ type: 'ScoreGame', gameId: p.gameId, winner, plies: 80, now })),
      s,
    ).state;
    return s;
  }

  it('pairs round after round, the next once the last is scored, then nothing', () => {
    let s = robin(4);
    expect(robinRounds(s)).toBe(3);
    for (let r = 1; r <= 3; r++) {
      expect(robinPairer.pair({ state: s, now: at(r * 60) })[0]?.round).toBe(r);
      s = playRound(s, at(r * 60));
    }
    expect(currentRobinRound(s)).toBe(3);
    expect(robinPairer.pair({ state: s, now: at(300) })).toEqual([]);
    // every game played: the robin may finish before its window ends
    expect(decideTournament({ type: 'FinishTournament', now: at(300) }, s).ok).toBe(true);
  });

  it('waits while a game of the round is still played', () => {
    const s = robin(4);
    const pairs = robinPairer.pair({ state: s, now: at(1) });
    const pairings = pairs.map((p, i) => ({ gameId: `g${i}`, ...p }));
    const paired = run([{ type: 'PairPlayers', pairings, now: at(1) }], s).state;
    const one = run([{ type: 'ScoreGame', gameId: 'g0', winner: 'sente', plies: 80, now: at(50) }], paired).state;
    expect(robinPairer.pair({ state: one, now: at(51) })).toEqual([]);
  });

  it('shares the window between the rounds: each round has its deadline', () => {
    const s = robin(4);
    // 120 minutes, 3 rounds: 40 minutes each
    expect(robinRoundDeadline(s, 1)?.toISOString()).toBe(at(40 * 60).toISOString());
    expect(robinRoundDeadline(s, 3)?.toISOString()).toBe(at(120 * 60).toISOString());
  });

  it('scores a forfeit as a loss for the one who never showed, a win for the other', () => {
    const s = robin(2);
    const [pair] = robinPairer.pair({ state: s, now: at(1) });
    if (pair === undefined) throw new Error('no pairing');
    let t = run([{ type: 'PairPlayers', pairings: [{ gameId: 'f1', ...pair }], now: at(1) }], s).state;
    t = run([{ type: 'ForfeitGame', gameId: 'f1', absent: 'gote', now: at(40 * 60) }], t).state;
    expect(t.pairings.get('f1')?.result).toEqual({
      winner: 'sente',
      plies: 0,
      at: at(40 * 60).toISOString(),
      forfeit: true,
    });
    const [first, second] = standingsOf(t);
    expect(first?.player.id).toBe(pair.sente);
    expect(first?.score).toBe(2);
    expect(second?.score).toBe(0);
  });

  it('a robin counts win 2, draw 1, loss 0 with no fire: four wins are 8', () => {
    let s = robin(5);
    for (let r = 1; r <= robinRounds(s); r++) s = playRound(s, at(r * 60), null);
    const rows = standingsOf(s);
    // five rounds, each sits out one: four draws each
    for (const row of rows) expect(row.score).toBe(4);
  });
});
