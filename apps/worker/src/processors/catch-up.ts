/** Folding a game's log onto a cached state: shared by the validate and flag processors. */
import { type EventStore, evolve, type GameEvent, type GameState, initialState, type RecordedEvent } from '@shogi/game';
import type { GameCache } from './game-cache.js';

const eventOf = (e: RecordedEvent): GameEvent => ({ type: e.type, data: e.data }) as GameEvent;

/**
 * `from` (the cached state, or nothing) caught up with the game's log, remembered in the
 * cache. A gap can only mean a stale or wrong cached state: it starts over from the log.
 */
export async function catchUpState(
  events: Pick<EventStore, 'readStream'>,
  cache: GameCache,
  gameId: string,
  from: GameState | undefined,
): Promise<GameState> {
  let state = from ?? initialState();
  for (const e of await events.readStream(gameId, state.seq)) {
    if (e.seq !== state.seq + 1) {
      cache.forget(gameId);
      if (from === undefined) throw new Error(`game ${gameId}: event seq ${e.seq} after ${state.seq}`);
      return catchUpState(events, cache, gameId, undefined);
    }
    state = evolve(state, eventOf(e));
  }
  cache.set(gameId, state);
  return state;
}
