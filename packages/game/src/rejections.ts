/**
 * The closed catalog of command rejections: expected failures of `decide`, returned as
 * values. The gateway mirrors these codes into the wire error catalog (packages/protocol).
 */
import type { IllegalReason } from '@shogi/rules';

export const REJECTION_CODES = [
  'unknown_game',
  'game_exists',
  'invalid_setup',
  /** A time control out of bounds, or a rated game without a clock. */
  'invalid_time_control',
  /** A rated game from a position other than the standard start or a named handicap's. */
  'rated_custom_position',
  'not_a_player',
  'not_your_turn',
  'game_over',
  'stale_ply',
  'malformed_usi',
  'illegal_move',
  'move_pending',
  'unknown_submission',
  /** Abort after one's own first move (or once both sides moved). */
  'too_late_to_abort',
  /** A tournament's game is never aborted (a player who does not move in time loses it). */
  'abort_not_allowed',
  /** Not a tournament's game, no main time to halve, one's first move made, or the game over. */
  'berserk_not_allowed',
  /** The game's terms or a player's takeback preference refuse takebacks. */
  'takeback_not_allowed',
  /** A takeback proposal is pending already (one at a time). */
  'takeback_pending',
  /** The proposer has no accepted move to take back. */
  'no_move_to_take_back',
  /** No proposal of the opponent's is pending to accept or decline (nor one's own to withdraw). */
  'no_takeback_proposal',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export interface Rejection {
  readonly code: RejectionCode;
  readonly message: string;
  /** For `illegal_move`: the rules' reason (nifu, uchifuzume, ...). */
  readonly reason?: IllegalReason;
}

export const rejection = (code: RejectionCode, message: string, reason?: IllegalReason): Rejection =>
  reason === undefined ? { code, message } : { code, message, reason };

export const isRejectionCode = (s: string): s is RejectionCode => (REJECTION_CODES as readonly string[]).includes(s);
