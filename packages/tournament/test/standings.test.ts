import { describe, expect, it } from 'vitest';
import { standingsOf, type TournamentCommand } from '../src/index.js';
import { at, entrant, run, startedWith } from './helpers.js';

const pairAndScore = (
  gameId: string,
  sente: string,
  gote: string,
  winner: 'sente' | 'gote' | null,
  seconds: number,
): TournamentCommand[] => [
  { type: 'PairPlayers', pairings: [{ gameId, sente, gote }], now: at(seconds) },
  { type: 'ScoreGame', gameId, winner, plies: 70, now: at(seconds + 30) },
];

describe('standings', () => {
  it('ranks by score, then by performance (lishogi magicScore), then by rating before any game', () => {
    const s0 = startedWith([
      entrant('a', 1500),
      entrant('b', 1800),
      entrant('c', 1400),
      entrant('d', 1600),
      entrant('e', 1900),
    ]);
    // a beats b (1800), c beats d (1600): both 2 points; a's performance 1800 + 500, c's 1600 + 500
    const { state } = run(
      [...pairAndScore('g1', 'a', 'b', 'sente', 20), ...pairAndScore('g2', 'c', 'd', 'sente', 20)],
      s0,
    );
    const rows = standingsOf(state);
    expect(rows.map((r) => r.player.id)).toEqual(['a', 'c', 'e', 'b', 'd']);
    expect(rows[0]).toMatchObject({ rank: 1, score: 2, performance: 2300, wins: 1 });
    expect(rows[1]).toMatchObject({ rank: 2, score: 2, performance: 2100 });
    // e has played nothing: rated by rating (1900) above b's performance (1300) and d's (1100)
    expect(rows[2]).toMatchObject({ player: { id: 'e' }, performance: 0 });
    expect(rows[3]).toMatchObject({ player: { id: 'b' }, performance: 1000 });
  });

  it('averages the performance over the games, a draw at the opponent rating', () => {
    const s0 = startedWith([entrant('a', 1500), entrant('b', 1700), entrant('c', 1300)]);
    const { state } = run(
      [...pairAndScore('g1', 'a', 'b', null, 20), ...pairAndScore('g2', 'c', 'a', 'gote', 100)],
      s0,
    );
    const a = standingsOf(state).find((r) => r.player.id === 'a');
    // (1700 + (1300 + 500)) / 2
    expect(a).toMatchObject({ performance: 1750, draws: 1, wins: 1, score: 3 });
  });

  it('keeps a paused player in the standings with their points', () => {
    const s0 = startedWith(['a', 'b']);
    const { state } = run(
      [...pairAndScore('g1', 'a', 'b', 'sente', 20), { type: 'WithdrawFromTournament', playerId: 'a', now: at(60) }],
      s0,
    );
    expect(standingsOf(state)[0]).toMatchObject({ player: { id: 'a', paused: true }, score: 2 });
  });
});
