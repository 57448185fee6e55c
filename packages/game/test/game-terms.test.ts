/**
 * Terms a game may be created with beyond the board's rules, the CSA protocol's (CSA server
 * protocol 1.2.1; Floodgate's Max_Moves 256): an illegal move loses at once instead of being
 * refused, and a move limit draws the game once reached.
 */
import { describe, expect, it } from 'vitest';
import { decide, fold, type GameEvent, initialState } from '../src/index.js';
import { GOTE, gameCreated, given, moveSubmitted, SENTE, T0 } from '../src/testing/index.js';
import { mustAccept } from './helpers.js';

const iso = T0.toISOString();
const created = (overrides: Parameters<typeof gameCreated>[1] = {}) =>
  gameCreated('g1', { ruleset: 'jsa', illegalMoveLoses: true, ...overrides });

/** The log after `moves` were submitted and validated in turn. */
function played(first: GameEvent, moves: readonly string[]): GameEvent[] {
  const log: GameEvent[] = [first];
  let state = fold(log, initialState());
  moves.forEach((usi, ply) => {
    const submitted = moveSubmitted(usi, ply);
    state = fold([submitted], state);
    const verdict = mustAccept(decide({ type: 'ValidatePending', seq: state.seq, now: T0 }, state));
    state = fold(verdict, state);
    log.push(submitted, ...verdict);
  });
  return log;
}

describe('an illegal move loses, in a game whose terms say so', () => {
  it('records the submission, its rejection and the end at once', () => {
    given(played(created(), ['7g7f', '3c3d']))
      .when({ type: 'SubmitMove', playerId: SENTE.id, usi: '2g2e', ply: 2, now: T0 })
      .then([
        { type: 'MoveSubmitted', data: { playerId: SENTE.id, color: 'sente', usi: '2g2e', ply: 2, receivedAt: iso } },
        { type: 'MoveRejected', data: { submittedSeq: 6, usi: '2g2e', ply: 2, reason: 'illegal_piece_move' } },
        { type: 'GameEnded', data: { winner: 'gote', reason: 'illegal_move', at: iso } },
      ]);
  });

  it('records text that is no move as sent, rejected as malformed', () => {
    given(played(created(), ['7g7f', '3c3d']))
      .when({ type: 'SubmitMove', playerId: SENTE.id, usi: '+7776KA', ply: 2, now: T0 })
      .then([
        {
          type: 'MoveSubmitted',
          data: { playerId: SENTE.id, color: 'sente', usi: '+7776KA', ply: 2, receivedAt: iso },
        },
        { type: 'MoveRejected', data: { submittedSeq: 6, usi: '+7776KA', ply: 2, reason: 'malformed_usi' } },
        { type: 'GameEnded', data: { winner: 'gote', reason: 'illegal_move', at: iso } },
      ]);
  });

  it('refuses it as before in a game without the term', () => {
    const d = decide(
      { type: 'SubmitMove', playerId: SENTE.id, usi: '7g7e', ply: 0, now: T0 },
      fold([gameCreated('g1')], initialState()),
    );
    expect(d).toMatchObject({ ok: false, rejection: { code: 'illegal_move' } });
  });

  it('does not make a move out of turn a loss: that is refused', () => {
    const d = decide(
      { type: 'SubmitMove', playerId: GOTE.id, usi: '3c3d', ply: 0, now: T0 },
      fold([created()], initialState()),
    );
    expect(d).toMatchObject({ ok: false, rejection: { code: 'not_your_turn' } });
  });
});

describe('a move limit', () => {
  it('draws the game with the move that reaches it', () => {
    const log = played(created({ maxMoves: 3 }), ['7g7f', '3c3d', '2g2f']);
    expect(log.at(-1)).toEqual({ type: 'GameEnded', data: { winner: null, reason: 'max_moves', at: iso } });
    expect(fold(log, initialState()).result).toEqual({ winner: null, reason: 'max_moves', at: iso });
  });

  it('lets a move that ends the game otherwise end it so', () => {
    // fool's mate of shogi is long; a repetition at the limit: the rook dance from the start,
    // whose twelfth move makes the fourth occurrence of the start position
    const dance = ['2h3h', '8b7b', '3h2h', '7b8b'];
    const log = played(created({ maxMoves: 12 }), [...dance, ...dance, ...dance]);
    expect(log.at(-1)).toMatchObject({ type: 'GameEnded', data: { winner: null, reason: 'sennichite' } });
  });

  it('refuses a limit that is not a positive whole number', () => {
    const d = decide(
      { type: 'CreateGame', gameId: 'g1', sente: SENTE, gote: GOTE, ruleset: 'jsa', maxMoves: 0, now: T0 },
      initialState(),
    );
    expect(d).toMatchObject({ ok: false, rejection: { code: 'invalid_setup' } });
  });
});
