/** A scored game's players wait for the next wave from the game's end, not from its scoring (lichess). */
import { describe, expect, test } from 'vitest';
import { decideTournament, foldTournament } from '../src/index.js';
import { at, mustAccept, startedWith } from './helpers.js';

describe('the wait after a game', () => {
  const state = (() => {
    const s = startedWith(['a', 'b']);
    const paired = mustAccept(
      decideTournament({ type: 'PairPlayers', pairings: [{ gameId: 'g1', sente: 'a', gote: 'b' }], now: at(1) }, s),
    );
    return foldTournament(paired, s);
  })();

  test('starts when the game ended, when the director scores it later', () => {
    const events = mustAccept(
      decideTournament(
        { type: 'ScoreGame', gameId: 'g1', winner: 'sente', plies: 30, endedAt: at(40), now: at(41) },
        state,
      ),
    );
    const after = foldTournament(events, state);
    expect(after.players.get('a')?.waitingSince).toBe(at(40).toISOString());
    expect(after.players.get('b')?.waitingSince).toBe(at(40).toISOString());
  });

  test('starts at the scoring when the end is unknown or not earlier', () => {
    for (const endedAt of [undefined, at(42)]) {
      const events = mustAccept(
        decideTournament(
          { type: 'ScoreGame', gameId: 'g1', winner: null, plies: 30, now: at(41), ...(endedAt ? { endedAt } : {}) },
          state,
        ),
      );
      expect(foldTournament(events, state).players.get('a')?.waitingSince).toBe(at(41).toISOString());
    }
  });
});
