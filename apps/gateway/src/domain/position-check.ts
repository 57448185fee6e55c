/**
 * A position sent for evaluation, checked by the rules before any engine sees it: the SFEN
 * sets up a position, every move is legal in turn (repetition judged over them), and the
 * game is not over at the end. Each refusal names what is wrong.
 */
import { PositionHistory, parseSfen } from '@shogi/rules';
import { ApiError } from './api-error.js';

export interface CheckedPosition {
  readonly sideToMove: 'sente' | 'gote';
}

const OVER: Record<string, string> = {
  checkmate: 'the side to move is checkmated',
  stalemate: 'the side to move has no legal move',
  sennichite: 'the position has come four times (sennichite)',
  perpetual_check: 'the position has come four times under perpetual check',
  impasse: 'the game ended by an impasse declaration',
};

export function checkPosition(sfen: string, moves: readonly string[]): CheckedPosition {
  const parsed = parseSfen(sfen);
  if (!parsed.ok) throw new ApiError('INVALID_SFEN', `sfen: ${parsed.error.message}`);
  const history = new PositionHistory(parsed.value);
  if (history.outcome.status !== 'ongoing')
    throw new ApiError('POSITION_OVER', `at the SFEN: ${OVER[history.outcome.status]}`);
  for (const [i, usi] of moves.entries()) {
    const played = history.playUsi(usi);
    if (played.ok) {
      const { status } = played.value;
      if (status !== 'ongoing') throw new ApiError('POSITION_OVER', `after moves[${i}] (${usi}): ${OVER[status]}`);
      continue;
    }
    if (played.error === 'malformed_usi') throw new ApiError('MALFORMED_USI', `moves[${i}] is "${usi}"`);
    throw new ApiError('ILLEGAL_MOVE', `moves[${i}] (${usi}): ${played.error}`);
  }
  return { sideToMove: history.position.side === 0 ? 'sente' : 'gote' };
}
