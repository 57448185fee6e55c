import { describe, expect, it } from 'vitest';
import { decide, fold, type GameState } from '../src/index.js';
import { historyAt, movesOfLine } from '../src/move-line.js';
import { lineOf } from '../src/state.js';
import { GOTE, SENTE, T0 } from '../src/testing/index.js';
import { created, mustAccept } from './helpers.js';

/** The gateway's decision and the worker's, each folded as the handler folds them: on the state decided on. */
function submitAndValidate(s: GameState, usi: string): GameState {
  const player = s.sideToMove === 'sente' ? SENTE : GOTE;
  const command = { type: 'SubmitMove', playerId: player.id, usi, ply: s.ply, now: T0 } as const;
  const submitted = fold(mustAccept(decide(command, s)), s);
  return fold(mustAccept(decide({ type: 'ValidatePending', seq: submitted.seq, now: T0 }, submitted)), submitted);
}

describe('the line of moves', () => {
  it('carries one position history along a game: no replay once it is built', () => {
    let s = created();
    const history = historyAt(lineOf(s));
    for (const usi of ['7g7f', '3c3d', '8h2b+', '3a2b']) {
      s = submitAndValidate(s, usi);
      expect(historyAt(lineOf(s))).toBe(history);
    }
    expect(history.ply).toBe(4);
    expect(movesOfLine(lineOf(s))).toEqual(['7g7f', '3c3d', '8h2b+', '3a2b']);
  });

  it('gives an older state a history of its own, at its own ply', () => {
    const start = created();
    const later = submitAndValidate(submitAndValidate(start, '7g7f'), '3c3d');
    const own = historyAt(lineOf(start));
    expect(own.ply).toBe(0);
    expect(own).not.toBe(historyAt(lineOf(later)));
    expect(historyAt(lineOf(later)).ply).toBe(2);
  });
});
