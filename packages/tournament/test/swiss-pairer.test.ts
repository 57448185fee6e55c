import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkTournament, parseTrf } from '@shogi/swiss';
import { describe, expect, it } from 'vitest';
import {
  currentSwissRound,
  decideTournament,
  nextSwissRoundAt,
  pairSwissRound,
  SWISS_TIE_BREAKS,
  swissPairer,
  swissStandingsOf,
  swissTrf,
  type TournamentCommand,
  type TournamentState,
  type TournamentTerms,
  validateTerms,
} from '../src/index.js';
import { ARENA_TERMS, at, entrant, run, startedWith, T0 } from './helpers.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../../swiss/bin/shogi-pairings.js');

const swissTerms = (nbRounds: number, roundIntervalSeconds: number | null = 60): Partial<TournamentTerms> => ({
  format: 'swiss',
  berserkable: false,
  streakable: false,
  swiss: { nbRounds, roundIntervalSeconds, forbiddenPairings: [] },
});

/** Results decided from the players' ratings and the round, so each round's scores differ. */
function resultOf(sente: string, gote: string, round: number): 'sente' | 'gote' | null {
  const n = (id: string) => Number(id.slice(1));
  const x = (n(sente) * 7 + n(gote) * 3 + round) % 5;
  return x === 0 ? null : x % 2 === 0 ? 'sente' : 'gote';
}

/** Pairs the round due at `now`, then scores it (a forfeit where `forfeitBy` says). */
function playRound(state: TournamentState, now: Date, forfeitBy?: string): TournamentState {
  const proposed = swissPairer.pair({ state, now });
  expect(proposed.length).toBeGreaterThan(0);
  const pairings = proposed.map((p, i) => ({ ...p, gameId: `g${p.round}-${i}` }));
  const commands: TournamentCommand[] = [{ type: 'PairPlayers', pairings, now }];
  pairings.forEach((p, i) => {
    const later = new Date(now.getTime() + 1000 * (i + 1));
    if (forfeitBy !== undefined && (p.sente === forfeitBy || p.gote === forfeitBy)) {
      const noStartBy = p.sente === forfeitBy ? 'sente' : 'gote';
      const winner = noStartBy === 'sente' ? 'gote' : 'sente';
      commands.push({ type: 'ScoreGame', gameId: p.gameId, winner, plies: 0, noStartBy, now: later });
    } else {
      const winner = resultOf(p.sente, p.gote, p.round ?? 0);
      commands.push({ type: 'ScoreGame', gameId: p.gameId, winner, plies: 60, now: later });
    }
  });
  return run(commands, state).state;
}

const join_ = (id: string, rating: number, now: Date): TournamentCommand => ({
  type: 'JoinTournament',
  player: entrant(id, rating),
  passwordHash: null,
  ratedGames: 100,
  now,
});

describe('a Swiss event on the tournament aggregate', () => {
  it('terms: a Swiss needs its rounds (3 to 100) and a sound interval', () => {
    const base = { ...ARENA_TERMS, format: 'swiss' as const };
    expect(validateTerms(base, at(-60))?.code).toBe('invalid_terms');
    const ok = { ...base, swiss: { nbRounds: 5, roundIntervalSeconds: 30, forbiddenPairings: [] } };
    expect(validateTerms(ok, at(-60))).toBeNull();
    expect(validateTerms({ ...ok, swiss: { ...ok.swiss, nbRounds: 2 } }, at(-60))?.code).toBe('invalid_terms');
    expect(validateTerms({ ...ok, swiss: { ...ok.swiss, roundIntervalSeconds: -1 } }, at(-60))?.code).toBe(
      'invalid_terms',
    );
  });

  it('odd field, a late join, a withdrawal and a forfeit: the TRF replays every round the pairer made', () => {
    const ratings: [string, number][] = [
      ['p1', 1900],
      ['p2', 1850],
      ['p3', 1800],
      ['p4', 1700],
      ['p5', 1650],
      ['p6', 1600],
      ['p7', 1500],
    ];
    let s = startedWith(
      ratings.map(([id, r]) => entrant(id, r)),
      swissTerms(5),
    );
    // round 1, seven players: one bye
    expect(nextSwissRoundAt(s)?.toISOString()).toBe(T0.toISOString());
    s = playRound(s, at(0));
    expect(currentSwissRound(s)).toBe(1);
    expect(s.byes.get(1)).toHaveLength(1);
    // the next round waits out the interval after the last result
    expect(swissPairer.pair({ state: s, now: at(30) })).toEqual([]);
    // a late entrant, rated between the others, joins before round 2
    s = run([join_('p8', 1750, at(40))], s).state;
    s = playRound(s, at(70));
    expect(s.byes.get(2) ?? []).toEqual([]);
    // p3 withdraws: not paired from round 3 on, a bye again
    s = run([{ type: 'WithdrawFromTournament', playerId: 'p3', now: at(140) }], s).state;
    s = playRound(s, at(140), 'p5');
    const round3 = [...s.pairings.values()].filter((p) => p.round === 3);
    expect(round3.flatMap((p) => [p.sente, p.gote])).not.toContain('p3');
    expect(s.byes.get(3)).toHaveLength(1);
    expect(round3.find((p) => p.sente === 'p5' || p.gote === 'p5')?.result?.forfeit).toBe(true);
    s = playRound(s, at(210));
    s = playRound(s, at(280));
    expect(currentSwissRound(s)).toBe(5);
    expect(swissPairer.pair({ state: s, now: at(1000) })).toEqual([]);
    expect(decideTournament({ type: 'FinishTournament', now: at(1000) }, s).ok).toBe(true);

    const { text } = swissTrf(s);
    const checks = checkTournament(parseTrf(text));
    expect(checks).toHaveLength(5);
    expect(checks.filter((c) => !c.matches)).toEqual([]);
    // the forfeit and the byes as the TRF writes them
    expect(text).toMatch(/0000 - U/);
    expect(text).toMatch(/ [wb] [+-]/);
    expect(text).toMatch(/0000 - Z/);

    // and the command line reads it back the same
    const dir = mkdtempSync(join(tmpdir(), 'swiss-'));
    const file = join(dir, 'event.trf');
    writeFileSync(file, text);
    const out = execFileSync(process.execPath, [CLI, '--dutch', file, '-c'], { encoding: 'utf8' });
    expect(out).toContain('5 of 5 rounds match.');
  });

  it('a round is paired whole: the bye is whoever is left, and a partial round is refused', () => {
    const s = startedWith(
      ['a1', 'a2', 'a3'].map((id, i) => entrant(id, 1800 - i * 10)),
      swissTerms(3),
    );
    const proposed = pairSwissRound(s);
    expect(proposed).toHaveLength(1);
    const [p] = proposed;
    const ok = decideTournament({ type: 'PairPlayers', pairings: [{ ...p!, gameId: 'x' }], now: at(0) }, s);
    expect(ok.ok && ok.events[0]?.type === 'PlayersPaired' && ok.events[0].data.byes?.players).toHaveLength(1);
    const none = decideTournament({ type: 'PairPlayers', pairings: [], now: at(0) }, s);
    expect(none.ok).toBe(false);
  });

  it('with no interval, the organiser starts each round after the first', () => {
    let s = startedWith(
      ['b1', 'b2', 'b3', 'b4'].map((id, i) => entrant(id, 1800 - i * 10)),
      swissTerms(3, null),
    );
    s = playRound(s, at(0));
    expect(nextSwissRoundAt(s)).toBeNull();
    expect(swissPairer.pair({ state: s, now: at(10_000) })).toEqual([]);
    expect(pairSwissRound(s)).toHaveLength(2);
  });

  it('forbidden pairings are kept apart', () => {
    const terms = swissTerms(3);
    const s = startedWith(
      ['c1', 'c2', 'c3', 'c4'].map((id, i) => entrant(id, 1800 - i * 10)),
      {
        ...terms,
        swiss: { nbRounds: 3, roundIntervalSeconds: 0, forbiddenPairings: [['c1', 'c3']] },
      },
    );
    const pairs = pairSwissRound(s).map((p) => [p.sente, p.gote].sort().join('-'));
    expect(pairs).not.toContain('c1-c3');
    expect(pairs).toHaveLength(2);
  });
});

describe('Swiss standings', () => {
  it('points then Sonneborn-Berger and Buchholz, a late entrant with no round last', () => {
    let s = startedWith(
      ['d1', 'd2', 'd3', 'd4'].map((id, i) => entrant(id, 1800 - i * 10)),
      swissTerms(3, 0),
    );
    s = playRound(s, at(0));
    s = run([join_('d5', 2000, at(30))], s).state;
    const rows = swissStandingsOf(s);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.at(-1)?.playerId).toBe('d5');
    const points = rows.map((r) => r.points);
    expect(points).toEqual([...points].sort((a, b) => b - a));
    expect(points.reduce((a, b) => a + b, 0)).toBe(2);
    for (const r of rows) expect(Object.keys(r.tieBreaks)).toEqual([...SWISS_TIE_BREAKS]);
  });
});
