/** A game's state as the API shows it (`GET /api/games/:id`, the watch snapshot's source). */
import { clockView, type GameState, movesOf } from '@shogi/game';
import type { ClockView, GameView } from '@shogi/protocol';
import { ApiError } from './api-error.js';

/** The clocks at `now` (null for unlimited games), stopped at the end of an ended game. */
export function clockOf(state: GameState, now: Date): ClockView | null {
  if (state.clock === null) return null;
  return clockView(state.clock, state.ply, state.result, now.getTime());
}

export function viewOf(state: GameState, now: Date = new Date()): GameView {
  const info = state.info;
  if (info === null) throw new ApiError('GAME_NOT_FOUND');
  return {
    id: info.gameId,
    ruleset: info.ruleset,
    initialSfen: info.initialSfen,
    sfen: state.sfen,
    moves: movesOf(state),
    ply: state.ply,
    sideToMove: state.sideToMove,
    status: state.status === 'ended' ? 'ended' : 'ongoing',
    result: state.result === null ? null : { winner: state.result.winner, reason: state.result.reason },
    lastSeq: state.seq,
    players: { sente: info.sente, gote: info.gote },
    timeControl: info.timeControl,
    rated: info.rated,
    clock: clockOf(state, now),
    takeback: state.takebackBy,
    ...(info.tournamentId === null ? {} : { tournamentId: info.tournamentId }),
  };
}
