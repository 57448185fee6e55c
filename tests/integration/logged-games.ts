/**
 * Games written to a real event store the way the gateway and the worker write them: each
 * command decided on the folded stream and appended at its version (a submission, then its
 * verdict), so the log holds what a live server would have recorded.
 */
import { decide, type EventStore, fold, type GameCommand, type GameState, initialState } from '@shogi/game';
import { GOTE, gameCreated, randomPlayout, SENTE, T0 } from '@shogi/game/testing';

type Untimed = GameCommand extends infer C ? (C extends unknown ? Omit<C, 'now'> : never) : never;

async function run(store: EventStore, gameId: string, state: GameState, command: Untimed): Promise<GameState> {
  const decision = decide({ ...command, now: T0 } as GameCommand, state);
  if (!decision.ok) throw new Error(`${gameId}: ${decision.rejection.message}`);
  await store.append(gameId, state.seq, decision.events);
  return fold(decision.events, state);
}

/**
 * Game `gameId`: created, `plies` moves of a seeded random playout (each submitted and
 * validated), then resigned by the side to move when `resign` (else left ongoing, or ended by
 * the playout itself).
 */
export async function playLoggedGame(
  store: EventStore,
  gameId: string,
  options: { readonly seed: number; readonly plies: number; readonly resign: boolean },
): Promise<void> {
  const created = gameCreated(gameId);
  await store.append(gameId, 0, [created]);
  let state = fold([created], initialState());
  for (const usi of randomPlayout(options.seed, options.plies).moves) {
    const playerId = state.sideToMove === 'sente' ? SENTE.id : GOTE.id;
    state = await run(store, gameId, state, { type: 'SubmitMove', playerId, usi, ply: state.ply });
    state = await run(store, gameId, state, { type: 'ValidatePending', seq: state.seq });
  }
  if (options.resign && state.status === 'ongoing') {
    const playerId = state.sideToMove === 'sente' ? SENTE.id : GOTE.id;
    await run(store, gameId, state, { type: 'Resign', playerId });
  }
}
