/**
 * An engine-marked player taken out of a tournament (issue 47), as lila's
 * `ejectLameFromEnterable` (before the start: out; running: out, their pairings lost by them,
 * the opponents' sheets recomputed) and `removePlayerAndRewriteHistory` (finished: out of the
 * standings, the results left).
 */
import { describe, expect, it } from 'vitest';
import {
  arenaPairer,
  decideTournament,
  robinPairer,
  standingsOf,
  swissStandingsOf,
  type TournamentCommand,
  type TournamentState,
} from '../src/index.js';
import { at, createdWith, entrant, run, startedWith } from './helpers.js';

const game = (gameId: string, sente: string, gote: string, winner: 'sente' | 'gote' | null, s: number) =>
  [
    { type: 'PairPlayers', pairings: [{ gameId, sente, gote }], now: at(s) },
    { type: 'ScoreGame', gameId, winner, plies: 60, now: at(s + 30) },
  ] satisfies TournamentCommand[];
const eject = (playerId: string, s: number): TournamentCommand => ({ type: 'EjectPlayer', playerId, now: at(s) });
const ids = (state: TournamentState) => standingsOf(state).map((r) => r.player.id);

describe('ejecting an engine-marked player', () => {
  it('given a created tournament, when the player is ejected, then they are out of it entirely', () => {
    const joined = run(
      [{ type: 'JoinTournament', player: entrant('x'), passwordHash: null, ratedGames: 9, now: at(-50) }],
      createdWith(),
    ).state;
    const { state, events } = run([eject('x', -40)], joined);
    expect(events).toEqual([{ type: 'PlayerEjected', data: { playerId: 'x', at: at(-40).toISOString() } }]);
    expect(state.players.has('x')).toBe(false);
  });

  it("given a running arena, when the cheater is ejected, then their wins become their opponents' and they rank nowhere", () => {
    const s0 = startedWith(['cheat', 'a', 'b', 'c']);
    const played = run(
      [
        ...game('g1', 'cheat', 'a', 'sente', 10),
        ...game('g2', 'b', 'c', 'sente', 10),
        ...game('g3', 'b', 'cheat', 'sente', 100),
      ],
      s0,
    ).state;
    expect(ids(played)[0]).toBe('b');
    const { state } = run([eject('cheat', 200)], played);
    expect(ids(state)).not.toContain('cheat');
    // a lost to the cheater: now a won forfeit; b beat the cheater: stays a win
    expect(state.pairings.get('g1')?.result).toMatchObject({ winner: 'gote', forfeit: true });
    expect(state.pairings.get('g3')?.result).toMatchObject({ winner: 'sente', forfeit: false });
    expect(standingsOf(state).find((r) => r.player.id === 'a')).toMatchObject({ wins: 1, losses: 0, score: 2 });
    expect(state.players.get('cheat')).toMatchObject({ ejected: true, paused: true });
    // never paired again, never let back in, ejected once
    const wave = arenaPairer.pair({ state, ranks: new Map(), now: at(400) } as never);
    expect(wave.flatMap((p) => [p.sente, p.gote])).not.toContain('cheat');
    const rejoin = decideTournament(
      { type: 'JoinTournament', player: entrant('cheat'), passwordHash: null, ratedGames: 9, now: at(300) },
      state,
    );
    expect(rejoin.ok ? null : rejoin.rejection.code).toBe('ejected');
    expect(decideTournament(eject('cheat', 301), state)).toEqual({ ok: true, events: [] });
  });

  it('given the cheater in a game when ejected, when that game ends, then it is scored as their loss', () => {
    const s0 = startedWith(['cheat', 'a']);
    const { state } = run(
      [
        { type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'cheat', gote: 'a' }], now: at(10) },
        eject('cheat', 20),
        { type: 'ScoreGame', gameId: 'g1', winner: 'sente', plies: 80, now: at(60) },
      ],
      s0,
    );
    expect(state.pairings.get('g1')?.result).toMatchObject({ winner: 'gote', forfeit: true });
  });

  it('given a finished arena, when the winner is ejected, then the next player wins and the results stay', () => {
    const s0 = startedWith(['cheat', 'a', 'b'], { minutes: 30 });
    const finished = run(
      [
        ...game('g1', 'cheat', 'a', 'sente', 10),
        ...game('g2', 'cheat', 'b', 'sente', 100),
        { type: 'FinishTournament', now: at(1900) },
      ],
      s0,
    ).state;
    expect(ids(finished)).toEqual(['cheat', 'a', 'b']);
    const { state } = run([eject('cheat', 3000)], finished);
    expect(standingsOf(state).map((r) => [r.player.id, r.rank, r.losses])).toEqual([
      ['a', 1, 1],
      ['b', 2, 1],
    ]);
    expect(state.pairings.get('g1')?.result).toMatchObject({ winner: 'sente', forfeit: false });
  });

  it('given a round-robin, when a player is ejected, then their later games are not paired', () => {
    const s0 = startedWith(['cheat', 'a', 'b', 'c'], { format: 'robin', maxPlayers: 16 });
    const state = run([eject('cheat', 5)], s0).state;
    const round = robinPairer.pair({ state, ranks: new Map(), now: at(10) } as never);
    expect(round).toHaveLength(1);
    expect(round.flatMap((p) => [p.sente, p.gote])).not.toContain('cheat');
  });

  it('given a Swiss, when a player is ejected, then the standings leave them out and keep the results', () => {
    const s0 = startedWith(['cheat', 'a'], {
      format: 'swiss',
      swiss: { nbRounds: 3, roundIntervalSeconds: 60, forbiddenPairings: [] },
    });
    const played = run(
      [
        { type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'cheat', gote: 'a', round: 1 }], now: at(10) },
        { type: 'ScoreGame', gameId: 'g1', winner: 'sente', plies: 60, now: at(40) },
      ],
      s0,
    ).state;
    const { state } = run([eject('cheat', 50)], played);
    expect(swissStandingsOf(state)).toMatchObject([{ rank: 1, playerId: 'a', points: 0 }]);
    expect(state.pairings.get('g1')?.result).toMatchObject({ winner: 'sente', forfeit: false });
  });
});
