/**
 * The ply rule (ply-rule.ts): a game that ends before each side has moved is an abort, never
 * a win, whatever ended it, so two accounts cannot trade rating points by starting rated
 * games and resigning them at once. Endings logged before the rule replay as they were.
 */
import { describe, expect, it } from 'vitest';
import { byoyomi, decide, fold, type GameEvent, initialState } from '../src/index.js';
import { GOTE, gameCreated, given, SENTE, T0 } from '../src/testing/index.js';
import { mustAccept, playedLog } from './helpers.js';

const at = T0.toISOString();
const rated = gameCreated('g1', { rated: true, timeControl: byoyomi(300, 10) });
const abort = (extra: object = {}): GameEvent => ({
  type: 'GameEnded',
  data: { winner: null, reason: 'abort', at, ...extra },
});

describe('the ply rule: an ending before both sides moved is an abort', () => {
  it.each([
    ['sente, before any move', [], SENTE.id, 'sente'],
    ['gote, before any move', [], GOTE.id, 'gote'],
    ['sente, having moved first', ['7g7f'], SENTE.id, 'sente'],
    ['gote, before its first move', ['7g7f'], GOTE.id, 'gote'],
  ] as const)('a resignation by %s aborts the rated game', (_, moves, playerId, color) => {
    given(playedLog(rated, moves))
      .when({ type: 'Resign', playerId, now: T0 })
      .then([{ type: 'Resigned', data: { color, at } }, abort({ abortedBy: color })]);
  });

  it('a resignation after both first moves names the winner, as before', () => {
    given(playedLog(rated, ['7g7f', '3c3d']))
      .when({ type: 'Resign', playerId: SENTE.id, now: T0 })
      .then([
        { type: 'Resigned', data: { color: 'sente', at } },
        { type: 'GameEnded', data: { winner: 'gote', reason: 'resignation', at } },
      ]);
  });

  it('a move limit of one draws nothing: the game that ends on its first move is an abort', () => {
    const limited = gameCreated('g1', { rated: true, timeControl: byoyomi(300, 10), maxMoves: 1 });
    const submitted = [
      limited,
      ...mustAccept(
        decide({ type: 'SubmitMove', playerId: SENTE.id, usi: '7g7f', ply: 0, now: T0 }, fold([limited], initialState())),
      ),
    ];
    const state = fold(submitted, initialState());
    const ended = mustAccept(decide({ type: 'ValidatePending', seq: state.seq, now: T0 }, state)).filter(
      (e) => e.type === 'GameEnded',
    );
    expect(ended).toEqual([abort()]);
  });

  it('a handicap game counts both sides too: the giver moves first, then the receiver', () => {
    const handicap = gameCreated('g1', {
      rated: true,
      timeControl: byoyomi(300, 10),
      handicap: 'bishop',
      initialSfen: 'lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
    });
    given(playedLog(handicap, ['3c3d']))
      .when({ type: 'Resign', playerId: SENTE.id, now: T0 })
      .then([{ type: 'Resigned', data: { color: 'sente', at } }, abort({ abortedBy: 'sente' })]);
  });

  it('a flag under the CSA clock rules (which charge from the start) aborts before both moved', () => {
    const csa = gameCreated('g1', { rated: true, timeControl: byoyomi(0, 10), clockRules: 'csa' });
    given([csa])
      .when({ type: 'CheckClock', now: new Date(T0.getTime() + 10_000) })
      .then([
        {
          type: 'GameEnded',
          data: { winner: null, reason: 'abort', at: new Date(T0.getTime() + 9_999).toISOString() },
        },
      ]);
  });

  it('a flag in the decision that accepts the first move aborts: only the position decides so early', () => {
    const csa = gameCreated('g1', { rated: true, timeControl: byoyomi(0, 10), clockRules: 'csa' });
    // sente's first move, in time, still awaits its verdict when the clock is checked after
    // gote's ten seconds have run out: the check accepts it, then flags gote at ply 1
    const s = fold([csa], initialState());
    const submitted = mustAccept(
      decide({ type: 'SubmitMove', playerId: SENTE.id, usi: '7g7f', ply: 0, now: new Date(T0.getTime() + 1_000) }, s),
    );
    const pending = fold(submitted, s);
    const events = mustAccept(decide({ type: 'CheckClock', now: new Date(T0.getTime() + 30_000) }, pending));
    expect(events.map((e) => e.type)).toEqual(['MoveAccepted', 'GameEnded']);
    expect(events.at(-1)).toMatchObject({ type: 'GameEnded', data: { winner: null, reason: 'abort' } });
  });

  it('an illegal move that loses by the game’s terms aborts before both moved', () => {
    const csa = gameCreated('g1', { rated: true, timeControl: byoyomi(300, 10), illegalMoveLoses: true });
    const events = mustAccept(
      decide(
        { type: 'SubmitMove', playerId: GOTE.id, usi: '3c3e', ply: 1, now: T0 },
        fold(playedLog(csa, ['7g7f']), initialState()),
      ),
    );
    expect(events.at(-1)).toEqual(abort());
  });

  it('a wrong impasse declaration aborts before both moved; a valid one (a set-up position) still wins', () => {
    given([rated])
      .when({ type: 'DeclareImpasse', playerId: SENTE.id, now: T0 })
      .then([
        { type: 'ImpasseDeclared', data: { color: 'sente', valid: false, points: 0, piecesInCamp: 0, at } },
        abort({ abortedBy: 'sente' }),
      ]);
    const IMPASSE = '+R+B+P+P+P+P+P+P+P/4K4/+P+P+P+P5/9/9/9/8k/9/9 b 4G4S4N4L 1';
    given([gameCreated('g1', { initialSfen: IMPASSE })])
      .when({ type: 'DeclareImpasse', playerId: SENTE.id, now: T0 })
      .then([
        { type: 'ImpasseDeclared', data: { color: 'sente', valid: true, points: 37, piecesInCamp: 13, at } },
        { type: 'GameEnded', data: { winner: 'sente', reason: 'impasse', at } },
      ]);
  });

  it('a mate on the first move of a set-up position stays a mate: the position decided it', () => {
    const MATE_IN_ONE = '4k4/9/4P4/9/9/9/9/9/4K4 b G 1';
    const log = playedLog(gameCreated('g1', { initialSfen: MATE_IN_ONE }), ['G*5b']);
    expect(log.at(-1)).toEqual({ type: 'GameEnded', data: { winner: 'sente', reason: 'checkmate', at } });
  });

  it('the resigner’s replay of an aborted resignation answers its seq; the state has no winner', () => {
    const s = fold([rated], initialState());
    const ended = fold(mustAccept(decide({ type: 'Resign', playerId: GOTE.id, now: T0, idempotencyKey: 'K' }, s)), s);
    expect(ended.result).toEqual({ winner: null, reason: 'abort', at });
    expect(decide({ type: 'Resign', playerId: GOTE.id, now: T0, idempotencyKey: 'K' }, ended)).toEqual({
      ok: true,
      events: [],
      duplicateOf: 2,
    });
  });

  it('an ending logged before the rule replays as it was logged (its rating stays)', () => {
    const logged: GameEvent[] = [
      rated,
      { type: 'Resigned', data: { color: 'gote', at } },
      { type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at } },
    ];
    expect(fold(logged, initialState()).result).toEqual({ winner: 'sente', reason: 'resignation', at });
  });
});
