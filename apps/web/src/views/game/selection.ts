/**
 * The half-made move: picking a piece on the board or in hand, and which square finishes it.
 * Pure: the DOM input (board-input.ts) asks these and keeps the answer in the page's state.
 */
import { moveIllegality, type PositionHistory, parseUsi } from '@shogi/rules';
import { engineSquare, targetsFrom, usiSquare } from '../../shogi/model.js';
import { pieceWord } from '../../shogi/pieces.js';
import type { Selection } from './state.js';

/** A selection from a square or a hand piece; null when that piece has no legal move. */
export function selectionFrom(game: PositionHistory, source: Selection['source'], premove = false): Selection | null {
  const targets = targetsFrom(game, source);
  if (targets.byTarget.size === 0) return null;
  return premove ? { source, targets, premove } : { source, targets };
}

/** Whether a square finishes the selected move. */
export const isTarget = (selection: Selection | null, index: number): boolean =>
  selection?.targets.byTarget.has(index) ?? false;

/** The board square picked, if the selection is of one. */
export const selectedSquare = (selection: Selection | null): number | null =>
  selection && 'square' in selection.source ? selection.source.square : null;

/** The piece type picked from the hand, if the selection is of one. */
export const selectedDropType = (selection: Selection | null): number | null =>
  selection && 'dropType' in selection.source ? selection.source.dropType : null;

/** A hand piece clicked: it is picked, or unpicked when it already was (or has nowhere to go). */
export const pickFromHand = (
  game: PositionHistory,
  selection: Selection | null,
  type: number,
  premove = false,
): Selection | null => (selectedDropType(selection) === type ? null : selectionFrom(game, { dropType: type }, premove));

const DROP_REASONS: Readonly<Record<string, string>> = {
  leaves_king_in_check: 'your king is in check, and no drop of it stops the check',
  nifu: 'you have a pawn on every file with room (two pawns on a file, nifu)',
  dead_drop: 'it could never move from the squares left',
  uchifuzume: 'a pawn drop may not give checkmate (uchifuzume)',
};

/**
 * Why a hand piece has no legal drop: the rules' reasons over every empty square, in words.
 * Asked when a click on a hand piece finds nothing to do.
 */
export function noDropReason(game: PositionHistory, type: number): string {
  const pos = game.position;
  const letter = 'PLNSBRG'[type - 1] ?? '?';
  const reasons = new Set<string>();
  for (let i = 0; i < 81; i++) {
    const m = parseUsi(`${letter}*${usiSquare(i)}`);
    if (m < 0 || pos.board[engineSquare(i)] !== 0) continue;
    const why = moveIllegality(pos, m);
    if (why) reasons.add(why);
  }
  // the last ranks are only worth naming when nothing else stands in the way
  if (reasons.size > 1) reasons.delete('dead_drop');
  const words = [...reasons].map((r) => DROP_REASONS[r] ?? r.replaceAll('_', ' '));
  const what = pieceWord(type);
  if (words.length === 0) return `No square is free for the ${what}.`;
  return `No legal drop for the ${what}: ${words.join('; ')}.`;
}
