/**
 * lishogi's statuses for the refusals of its game routes (bot and board): a game that is not
 * there or not the caller's is 404 ("No such game", "Not your game"), and what the game's
 * rules or state refuse (an illegal move, not your turn, too late to abort, the game over) is
 * 400. lishogi's clients treat every 4xx as final and retry a 5xx, so a command that lost
 * the race for the game's log too often is a 503 here: sent again, it is decided afresh.
 */
import type { ErrorCode } from '@shogi/protocol';
import type { StatusFor } from './errors.js';

export const gameRouteStatus: StatusFor = (code: ErrorCode, status: number) => {
  if (code === 'GAME_NOT_FOUND' || code === 'NOT_A_PLAYER') return 404;
  if (code === 'CONFLICT') return 503;
  if (status === 409 || status === 422) return 400;
  return status;
};

/** The catalog code of a worker's refusal of a submission (its verdict's reason). */
export function verdictRefusal(reason: string | undefined): ErrorCode {
  switch (reason) {
    case 'malformed_usi':
      return 'MALFORMED_USI';
    case 'not_your_turn':
      return 'NOT_YOUR_TURN';
    case 'stale_ply':
      return 'STALE_PLY';
    // the move came after the mover's time ran out: the game ended on time
    case 'timeout':
    case 'game_over':
      return 'GAME_OVER';
    default:
      return 'ILLEGAL_MOVE';
  }
}
