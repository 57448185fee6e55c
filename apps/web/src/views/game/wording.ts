/**
 * What the game page says, worked out from its state: the banner, the place in the moves,
 * the clocks' labels, refusals and announcements. Pure, so the wording is checked without a
 * browser; the views only put these strings where they go.
 */
import type { ClockFace } from '../../shogi/clock.js';
import type { BoardState } from '../../shogi/model.js';
import { resultText } from '../../shogi/result.js';
import { moveRefused } from '../../words/refusals.js';
import type { Side } from './state.js';

export type Names = { readonly sente: string; readonly gote: string };
export type Result = { readonly winner: Side | null; readonly reason: string };

/** The server's verdict against the player's move, in words (never the reason's code). */
export const refusal = moveRefused;

/** What a screen reader hears when a move arrives live. */
export const moveAnnouncement = (ply: number, japanese: string, usi: string, check: boolean): string =>
  `${ply}. ${japanese} (${usi})${check ? ', check' : ''}`;

/** Where the board is in the game: "Start / 12", "Move 7 / 12". */
export const placeText = (shown: number, latest: number): string =>
  `${shown === 0 ? 'Start' : `Move ${shown}`} / ${latest}`;

/** The note over a past position; `news` counts the moves played since the user stepped back. */
export const pastNoteText = (news: number): string =>
  news > 0
    ? `The game has moved on: ${news} new move${news > 1 ? 's' : ''}. `
    : 'An earlier position: the board is read-only. ';

/** The banner under the board: the result once there is one, else check on the board shown. */
export function banner(
  result: Result | null | undefined,
  names: Names,
  board: BoardState,
): { text: string; className: string } {
  if (result) return { text: resultText(result, names), className: 'banner result' };
  if (board.inCheck)
    return { text: `Check! ${board.sideToMove === 'sente' ? 'Sente' : 'Gote'} to move`, className: 'banner check' };
  return { text: '', className: 'banner' };
}

export const clockLabel = (side: Side, face: ClockFace): string =>
  `${side} clock ${face.text}${face.periods > 0 ? `, ${face.periods} byoyomi periods` : ''}`;

export const periodsText = (face: ClockFace): string => (face.periods > 0 ? ` ×${face.periods}` : '');
