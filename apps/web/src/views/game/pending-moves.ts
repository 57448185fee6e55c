/**
 * Moves not yet sent: a premove (entered on the opponent's turn, against the position as if
 * it were the player's move) and a move awaiting confirmation (drawn on the board as played).
 * Pure: positions are worked out with @shogi/rules from the game's current SFEN.
 */
import {
  formatUsi,
  PositionHistory as History,
  type Move,
  moveIllegality,
  type PositionHistory,
  parseSfen,
  toSfen,
} from '@shogi/rules';
import { type BoardState, boardOf } from '../../shogi/model.js';
import { reasonClause } from '../../words/refusals.js';

/** The position as it stands, but with the other side to move: where a premove is picked. */
export function asIfOtherToMove(game: PositionHistory): PositionHistory | null {
  const fields = toSfen(game.position).split(' ');
  fields[1] = fields[1] === 'b' ? 'w' : 'b';
  const parsed = parseSfen(fields.join(' '));
  return parsed.ok ? new History(parsed.value) : null;
}

/** The board after `move`, for showing a move before it is confirmed; null if it does not play. */
export function boardAfter(game: PositionHistory, move: Move): BoardState | null {
  const parsed = parseSfen(toSfen(game.position));
  if (!parsed.ok) return null;
  const copy = new History(parsed.value);
  return copy.playUsi(formatUsi(move)).ok ? boardOf(copy) : null;
}

/** What becomes of a premove once it is the player's turn: played, or dropped with the reason. */
export function premoveVerdict(game: PositionHistory, move: Move): { play: true } | { play: false; why: string } {
  const illegal = moveIllegality(game.position, move);
  return illegal === null ? { play: true } : { play: false, why: reasonClause(illegal) };
}
