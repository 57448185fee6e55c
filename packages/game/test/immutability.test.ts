/**
 * decide and evolve leave the state they are given as it was: every state here is deeply
 * frozen (a write to it, or to anything it holds, throws in strict mode) and compared with
 * a copy taken before. A state holds values only; a position history (with its typed arrays,
 * which cannot be frozen) in it would fail the freeze itself.
 */
import { describe, expect, it } from 'vitest';
import { decide, evolve, fold, type GameCommand, type GameState, initialState, movesOf } from '../src/index.js';
import { GOTE, gameCreated, moveSubmitted, SENTE, T0 } from '../src/testing/index.js';

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  return value;
}

const later = (s: number) => new Date(T0.getTime() + s * 1000);
const BYOYOMI = { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 10, periods: 1 } as const;

/** Every command a front end sends, on the state's side to move. */
function commandsOn(s: GameState, now: Date): GameCommand[] {
  const mover = s.sideToMove === 'sente' ? SENTE : GOTE;
  return [
    { type: 'SubmitMove', playerId: mover.id, usi: s.sideToMove === 'sente' ? '2g2f' : '8c8d', ply: s.ply, now },
    { type: 'SubmitMove', playerId: mover.id, usi: '5i5e', ply: s.ply, now },
    { type: 'ValidatePending', seq: s.seq, now },
    { type: 'CheckClock', now },
    { type: 'CheckClock', now: later(3600) },
    { type: 'Resign', playerId: mover.id, now, idempotencyKey: 'r' },
    { type: 'Abort', playerId: mover.id, now },
    { type: 'DeclareImpasse', playerId: mover.id, now },
    { type: 'CreateGame', gameId: 'g', sente: SENTE, gote: GOTE, ruleset: 'default', now },
  ];
}

/** The states of a timed game: created, a move pending, accepted, the opponent's pending, and so on. */
function statesOfAGame(): GameState[] {
  const states: GameState[] = [];
  let s = fold([gameCreated('g', { timeControl: BYOYOMI })], initialState());
  states.push(s);
  for (const [ply, usi] of ['7g7f', '3c3d', '8h2b+', '3a2b'].entries()) {
    s = evolve(s, {
      ...moveSubmitted(usi, ply),
      data: { ...moveSubmitted(usi, ply).data, receivedAt: later(ply).toISOString() },
    });
    states.push(s);
    const verdict = decide({ type: 'ValidatePending', seq: s.seq, now: later(ply) }, s);
    if (!verdict.ok) throw new Error(verdict.rejection.code);
    s = fold(verdict.events, s);
    states.push(s);
  }
  return states;
}

describe('decide and evolve leave their input state untouched', () => {
  it('every command on every state of a game, deeply frozen', () => {
    for (const state of statesOfAGame()) {
      const before = structuredClone(state);
      deepFreeze(state);
      for (const command of commandsOn(state, later(state.ply))) {
        const decision = decide(command, state);
        if (decision.ok) fold(decision.events, state);
        expect(state).toEqual(before);
      }
    }
  });

  it('a verdict decided and dropped leaves the state deciding the same again', () => {
    let s = fold([gameCreated('g'), moveSubmitted('7g7f', 0)], initialState());
    s = deepFreeze(s);
    const first = decide({ type: 'ValidatePending', seq: s.seq, now: T0 }, s);
    const again = decide({ type: 'ValidatePending', seq: s.seq, now: T0 }, s);
    expect(again).toEqual(first);
    // an older state folded along another branch sees its own moves only
    const accepted = fold(first.ok ? first.events : [], s);
    const other = fold(
      [
        { type: 'MoveRejected', data: { submittedSeq: 2, usi: '7g7f', ply: 0, reason: 'stale_ply' } },
        moveSubmitted('2g2f', 0),
      ],
      s,
    );
    const v = decide({ type: 'ValidatePending', seq: other.seq, now: T0 }, other);
    expect(movesOf(fold(v.ok ? v.events : [], other))).toEqual(['2g2f']);
    expect(movesOf(accepted)).toEqual(['7g7f']);
    expect(movesOf(s)).toEqual([]);
  });
});
