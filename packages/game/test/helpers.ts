import type { Ruleset } from '@shogi/rules';
import { type Decision, decide, evolve, fold, type GameEvent, type GameState, initialState } from '../src/index.js';
import { GOTE, SENTE, T0 } from '../src/testing/index.js';

export function mustAccept(d: Decision): GameEvent[] {
  if (!d.ok) throw new Error(`rejected: ${d.rejection.code} ${d.rejection.message}`);
  return d.events;
}

export function created(ruleset: Ruleset = 'default', initialSfen?: string): GameState {
  const events = mustAccept(
    decide(
      {
        type: 'CreateGame',
        gameId: 'g1',
        sente: SENTE,
        gote: GOTE,
        ruleset,
        now: T0,
        ...(initialSfen ? { initialSfen } : {}),
      },
      initialState(),
    ),
  );
  return fold(events, initialState());
}

/** Submits `usi` for the side to move and validates it; returns the new state and the verdict events. */
export function play(state: GameState, usi: string): { state: GameState; verdict: GameEvent[] } {
  const player = state.sideToMove === 'sente' ? SENTE : GOTE;
  let s = state;
  for (const e of mustAccept(decide({ type: 'SubmitMove', playerId: player.id, usi, ply: s.ply, now: T0 }, s)))
    s = evolve(s, e);
  const verdict = mustAccept(decide({ type: 'ValidatePending', seq: s.seq, now: T0 }, s));
  return { state: fold(verdict, s), verdict };
}

export function playAll(state: GameState, moves: readonly string[]): { state: GameState; verdicts: GameEvent[][] } {
  let s = state;
  const verdicts: GameEvent[][] = [];
  for (const usi of moves) {
    const r = play(s, usi);
    s = r.state;
    verdicts.push(r.verdict);
  }
  return { state: s, verdicts };
}

/** The log of a game from `first` after `moves` were submitted and validated in turn. */
export function playedLog(first: GameEvent, moves: readonly string[], now: Date = T0): GameEvent[] {
  const log: GameEvent[] = [first];
  let state = fold(log, initialState());
  moves.forEach((usi, ply) => {
    const player = state.sideToMove === 'sente' ? SENTE : GOTE;
    const submitted = mustAccept(decide({ type: 'SubmitMove', playerId: player.id, usi, ply, now }, state));
    state = fold(submitted, state);
    const verdict = mustAccept(decide({ type: 'ValidatePending', seq: state.seq, now }, state));
    state = fold(verdict, state);
    log.push(...submitted, ...verdict);
  });
  return log;
}
