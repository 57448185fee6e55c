/**
 * The half-made move: picking a piece on the board or in hand, and which square finishes it.
 * Pure: the DOM input (board-input.ts) asks these and keeps the answer in the page's state.
 */
import type { PositionHistory } from '@shogi/rules';
import { targetsFrom } from '../../shogi/model.js';
import type { Selection } from './state.js';

/** A selection from a square or a hand piece; null when that piece has no legal move. */
export function selectionFrom(game: PositionHistory, source: Selection['source']): Selection | null {
  const targets = targetsFrom(game, source);
  return targets.byTarget.size > 0 ? { source, targets } : null;
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
export const pickFromHand = (game: PositionHistory, selection: Selection | null, type: number): Selection | null =>
  selectedDropType(selection) === type ? null : selectionFrom(game, { dropType: type });
